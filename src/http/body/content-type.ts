/**
 * Content-Type checks with Meilisearch's rules and messages (http-conventions.md §4.1, §4.2).
 * JSON routes accept any `json` subtype or `+json` suffix; document routes compare type/subtype
 * exactly against their list. Parameters (`; charset=…`) are ignored everywhere.
 */
import { ApiError } from '../../errors/api-error.js';

export interface MediaType {
  type: string;
  subtype: string;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Parses `type/subtype[; params]`; null when the header is not a media type at all. */
export function parseMediaType(header: string): MediaType | null {
  const essence = header.split(';', 1)[0]!.trim();
  const slash = essence.indexOf('/');
  if (slash <= 0) return null;
  const type = essence.slice(0, slash);
  const subtype = essence.slice(slash + 1);
  if (!TOKEN.test(type) || !TOKEN.test(subtype)) return null;
  return { type: type.toLowerCase(), subtype: subtype.toLowerCase() };
}

function acceptedList(accepted: readonly string[]): string {
  return accepted.map((a) => `\`${a}\``).join(', ');
}

export function missingContentType(accepted: readonly string[]): ApiError {
  return new ApiError(
    'missing_content_type',
    `A Content-Type header is missing. Accepted values for the Content-Type header are: ${acceptedList(accepted)}`,
  );
}

export function invalidContentType(shown: string, accepted: readonly string[]): ApiError {
  return new ApiError(
    'invalid_content_type',
    `The Content-Type \`${shown}\` is invalid. Accepted values for the Content-Type header are: ${acceptedList(accepted)}`,
  );
}

const JSON_ONLY = ['application/json'] as const;

/** Throws unless the header names a JSON media type. */
export function checkJsonContentType(header: string | undefined): void {
  if (header === undefined) throw missingContentType(JSON_ONLY);
  const media = parseMediaType(header);
  if (media === null || !(media.subtype === 'json' || media.subtype.endsWith('+json'))) {
    throw invalidContentType(header, JSON_ONLY);
  }
}
