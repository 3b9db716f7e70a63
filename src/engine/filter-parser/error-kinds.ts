/**
 * The kinds of filter syntax error, as the grammar modules raise them (scan.ts carries them in a
 * failed result) and errors.ts words them: their own module, so that neither imports the other.
 */

export type VectorFilterPart = 'fragments' | 'userProvided' | 'documentTemplate' | 'regenerate';

export type ErrorKind =
  | { readonly kind: 'expectedValue'; readonly reservedKeyword: boolean }
  | { readonly kind: 'malformedValue' }
  | { readonly kind: 'missingClosingDelimiter'; readonly delimiter: string }
  | { readonly kind: 'invalidPrimary' }
  | { readonly kind: 'invalidEscapedNumber' }
  | { readonly kind: 'expectedEof' }
  | { readonly kind: 'geoRadius' }
  | { readonly kind: 'geoRadiusArgumentCount'; readonly count: number }
  | { readonly kind: 'geoBoundingBox' }
  | { readonly kind: 'geoPolygon' }
  | { readonly kind: 'geoPolygonNotEnoughPoints'; readonly count: number }
  | { readonly kind: 'geoCoordinatesNotPair'; readonly count: number }
  | { readonly kind: 'reservedGeo'; readonly name: '_geo' | '_geoPoint' | '_geoDistance' }
  | { readonly kind: 'misusedGeoRadius' }
  | { readonly kind: 'misusedGeoBoundingBox' }
  | { readonly kind: 'vectorFilterLeftover' }
  | { readonly kind: 'vectorFilterInvalidQuotes' }
  | { readonly kind: 'vectorFilterMissingEmbedder' }
  | { readonly kind: 'vectorFilterInvalidEmbedder' }
  | { readonly kind: 'vectorFilterMissingFragment' }
  | { readonly kind: 'vectorFilterInvalidFragment' }
  | { readonly kind: 'vectorFilterUnknownSuffix'; readonly previous: VectorFilterPart | null; readonly value: string }
  | { readonly kind: 'vectorFilterOperation' }
  | { readonly kind: 'inOpeningBracket' }
  | { readonly kind: 'inClosingBracket' }
  | { readonly kind: 'inExpectedValue' }
  | { readonly kind: 'depthLimitReached' }
  | { readonly kind: 'tooManyConditions' }
  | { readonly kind: 'foreign' }
  | { readonly kind: 'incomplete' }
  /** A token that is not there (nom `tag`/`char`); always replaced before it can surface. */
  | { readonly kind: 'mismatch' }
  /** An unquoted quote; only ever converted to `missingClosingDelimiter` or a vector error. */
  | { readonly kind: 'unclosedQuote'; readonly quote: string };
