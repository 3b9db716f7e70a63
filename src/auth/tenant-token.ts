/**
 * Tenant tokens (keys-auth.md §9): JWTs signed (HS256/384/512) with an API key's value, carrying
 * `searchRules` (which indexes, with which extra filter) and `apiKeyUid` (the signing key), and
 * optionally `exp`.
 *
 * Caller: authenticate.ts, on routes whose action is `search` or `chatCompletions` only.
 * The checks run in Meilisearch's order (its `jsonwebtoken` crate, then its own expiry check) and
 * fail with its texts: shape and base64 of the header, then of the claims (serde messages, see
 * types/serde-json.ts), `aud` refused, algorithm, signature (verified with `jose`), expiry. A token
 * that is not three dot-separated parts is not a tenant token at all: the caller then tries it
 * as an API key. The parent key's existence and rights are the caller's business.
 */
import { deriveKey } from './key-derivation.js';
import { patternMatches } from './index-pattern.js';
import {
  anyValue,
  custom,
  enumVariant,
  fromSlice,
  i64,
  option,
  seq,
  SerdeError,
  string,
  struct,
  type Content,
  type Read,
} from '../types/serde-json.js';
import { parseUuid } from './uuid.js';

/** Which indexes a token opens: a list of patterns, or patterns each with an optional filter. */
export type SearchRules =
  | { readonly kind: 'list'; readonly patterns: ReadonlySet<string> }
  | { readonly kind: 'map'; readonly filters: ReadonlyMap<string, unknown> };

export type TenantTokenOutcome =
  | { readonly kind: 'not-a-token' }
  | { readonly kind: 'invalid'; readonly message: string }
  | { readonly kind: 'valid'; readonly apiKeyUid: string; readonly searchRules: SearchRules };

const ALGORITHMS = ['HS256', 'HS384', 'HS512', 'ES256', 'ES384', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'] as const;
const ACCEPTED_ALGORITHMS: readonly string[] = ['HS256', 'HS384', 'HS512'];

const readHeader = struct('Header', [
  { name: 'typ', read: option(string()), optional: true },
  { name: 'alg', read: enumVariant(ALGORITHMS) },
  { name: 'cty', read: option(string()), optional: true },
  { name: 'jku', read: option(string()), optional: true },
  { name: 'jwk', read: option(anyValue), optional: true },
  { name: 'kid', read: option(string()), optional: true },
  { name: 'x5u', read: option(string()), optional: true },
  { name: 'x5c', read: option(seq(string())), optional: true },
  { name: 'x5t', read: option(string()), optional: true },
  { name: 'x5t#S256', read: option(string()), optional: true },
]);

/** `SearchRules`, an untagged enum: a set of patterns, or a map of pattern → `null` | `{filter}`. */
const readSearchRules: Read<SearchRules> = (r) => {
  const content = anyValue(r);
  const rules = asList(content) ?? asMap(content);
  if (rules === undefined) throw custom('data did not match any variant of untagged enum SearchRules');
  return rules;
};

const readClaims = struct('Claims', [
  { name: 'searchRules', read: readSearchRules },
  { name: 'exp', read: option(i64), optional: true },
  {
    name: 'apiKeyUid',
    read: string('a UUID string', (value) => {
      const parsed = parseUuid(value);
      return parsed.ok ? undefined : `UUID parsing failed: ${parsed.error}`;
    }),
  },
]);

/**
 * Reads and verifies `token` as a tenant token signed with the key of its `apiKeyUid`, as derived
 * from `masterKey`. `nowSeconds` is the Unix time its `exp` is compared with.
 */
export async function readTenantToken(token: string, masterKey: string, nowSeconds: bigint): Promise<TenantTokenOutcome> {
  // Split as the jsonwebtoken crate does: signature after the last dot, payload before it.
  const signatureDot = token.lastIndexOf('.');
  const payloadDot = token.lastIndexOf('.', signatureDot - 1);
  if (signatureDot === -1 || payloadDot === -1) return { kind: 'not-a-token' };
  const invalid = (reason: string): TenantTokenOutcome => ({ kind: 'invalid', message: `Could not decode tenant token, ${reason}.` });

  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  let payload: Uint8Array;
  try {
    header = readPart(token.slice(0, payloadDot), readHeader);
    payload = decodeBase64(token.slice(payloadDot + 1, signatureDot));
    claims = readJson(payload, readClaims);
  } catch (error) {
    if (error instanceof PartError) return invalid(error.message);
    throw error;
  }
  // jsonwebtoken's `decode` order: the algorithm, the signature, then the claims' validation (`aud`)
  const algorithm = header.alg as string;
  if (!ACCEPTED_ALGORITHMS.includes(algorithm)) return invalid('InvalidAlgorithm');

  const apiKeyUid = (parseUuid(claims.apiKeyUid as string) as { uuid: string }).uuid;
  const secret = new TextEncoder().encode(deriveKey(masterKey, apiKeyUid));
  if (!(await signatureMatches(token, token.slice(signatureDot + 1), secret, algorithm))) return invalid('InvalidSignature');
  if (hasAudience(fromSlice(payload, anyValue))) return invalid('InvalidAudience');

  const exp = claims.exp as bigint | undefined;
  if (exp !== undefined && nowSeconds > exp) {
    return { kind: 'invalid', message: `Tenant token expired. Was valid up to \`${exp}\` and we're now \`${nowSeconds}\`.` };
  }
  return { kind: 'valid', apiKeyUid, searchRules: claims.searchRules as SearchRules };
}

/** Whether `rules` open index `uid` (`*` anywhere opens every index). */
export function searchRulesCover(rules: SearchRules, uid: string): boolean {
  for (const pattern of rulePatterns(rules)) if (pattern === '*' || patternMatches(pattern, uid)) return true;
  return false;
}

/** The patterns of `rules`, for the "allowed indexes are […]" message. */
export function rulePatterns(rules: SearchRules): Iterable<string> {
  return rules.kind === 'list' ? rules.patterns : rules.filters.keys();
}

/**
 * The filter the most specific matching rule attaches to index `uid` (an exact uid beats a
 * pattern, a longer pattern a shorter one), or `null` when there is none.
 */
export function searchRulesFilter(rules: SearchRules, uid: string): unknown {
  if (rules.kind === 'list') return null;
  let best: { exact: boolean; length: number; filter: unknown } | undefined;
  for (const [pattern, filter] of rules.filters) {
    if (!patternMatches(pattern, uid)) continue;
    const candidate = { exact: !pattern.endsWith('*'), length: Buffer.byteLength(pattern), filter };
    if (
      best === undefined ||
      (candidate.exact && !best.exact) ||
      (candidate.exact === best.exact && candidate.length > best.length)
    ) {
      best = candidate;
    }
  }
  return best?.filter ?? null;
}

/** A failure to read a token part, already in the words of the jsonwebtoken crate. */
class PartError extends Error {}

function readPart<T>(encoded: string, read: Read<T>): T {
  return readJson(decodeBase64(encoded), read);
}

function readJson<T>(bytes: Uint8Array, read: Read<T>): T {
  try {
    return fromSlice(bytes, read);
  } catch (error) {
    if (error instanceof SerdeError) throw new PartError(`JSON error: ${error.message}`);
    throw error;
  }
}

const BASE64URL_SYMBOLS = /^[A-Za-z0-9_-]$/;

/**
 * Unpadded base64url as the `base64` crate (0.22, `URL_SAFE_NO_PAD`) accepts it, with its error
 * texts: the last 4 symbols (or the partial final group) are checked apart from the rest.
 */
function decodeBase64(text: string): Uint8Array {
  const fail = (reason: string) => new PartError(`Base64 error: ${reason}`);
  const byteAt = (i: number) => text.charCodeAt(i) & 0xff;
  const valid = (i: number) => BASE64URL_SYMBOLS.test(text[i]!);
  const rem = text.length % 4;
  if (rem === 1 && text[text.length - 1] !== '=' && !valid(text.length - 1)) {
    throw fail(`Invalid symbol ${byteAt(text.length - 1)}, offset ${text.length - 1}.`);
  }
  const suffixStart = rem === 0 ? Math.max(0, text.length - 4) : text.length - rem;
  for (let i = 0; i < suffixStart; i++) if (!valid(i)) throw fail(`Invalid symbol ${byteAt(i)}, offset ${i}.`);

  let symbols = 0;
  let pads = 0;
  let firstPad = 0;
  for (let i = suffixStart; i < text.length; i++) {
    if (text[i] === '=') {
      if (i - suffixStart < 2) throw fail(`Invalid symbol ${byteAt(i)}, offset ${i}.`);
      if (pads++ === 0) firstPad = i;
      continue;
    }
    if (pads > 0) throw fail(`Invalid symbol 61, offset ${firstPad}.`);
    if (!valid(i)) throw fail(`Invalid symbol ${byteAt(i)}, offset ${i}.`);
    symbols++;
  }
  if (text.length > 0 && symbols < 2) throw fail(`Invalid input length: ${suffixStart + symbols}`);
  if (pads > 0) throw fail('Invalid padding');
  const bytes = Buffer.from(text, 'base64url');
  // Bits of the last symbol that no output byte uses must be zero.
  if (bytes.toString('base64url') !== text) {
    throw fail(`Invalid last symbol ${byteAt(suffixStart + symbols - 1)}, offset ${suffixStart + symbols - 1}.`);
  }
  return bytes;
}

async function signatureMatches(token: string, signature: string, secret: Uint8Array, algorithm: string): Promise<boolean> {
  // jsonwebtoken compares the signature text with the canonical encoding of the expected MAC.
  if (!/^[A-Za-z0-9_-]*$/.test(signature) || signature.length % 4 === 1) return false;
  if (Buffer.from(signature, 'base64url').toString('base64url') !== signature) return false;
  try {
    // loaded with the first tenant token: the server's start does not pay for jose
    const { compactVerify } = await import('jose');
    await compactVerify(token, secret, { algorithms: [algorithm] });
    return true;
  } catch {
    return false;
  }
}

function hasAudience(payload: Content): boolean {
  if (payload.kind !== 'map') return false;
  return payload.entries.some(
    ([key, value]) =>
      key === 'aud' &&
      (value.kind === 'string' || (value.kind === 'seq' && value.items.every((item) => item.kind === 'string'))),
  );
}

function asList(content: Content): SearchRules | undefined {
  if (content.kind !== 'seq' || !content.items.every((item) => item.kind === 'string')) return undefined;
  return { kind: 'list', patterns: new Set(content.items.map((item) => (item as { value: string }).value)) };
}

function asMap(content: Content): SearchRules | undefined {
  if (content.kind !== 'map') return undefined;
  const filters = new Map<string, unknown>();
  for (const [pattern, rule] of content.entries) {
    const filter = ruleFilter(rule);
    if (filter === undefined) return undefined;
    filters.set(pattern, filter);
  }
  return { kind: 'map', filters };
}

/** `Option<IndexSearchRules { filter: Option<Value> }>` from buffered content; `undefined` if it does not fit. */
function ruleFilter(rule: Content): unknown {
  if (rule.kind === 'null') return null;
  if (rule.kind === 'seq') return rule.items.length === 1 ? toJson(rule.items[0]!) : undefined;
  if (rule.kind !== 'map') return undefined;
  const filters = rule.entries.filter(([key]) => key === 'filter');
  if (filters.length > 1) return undefined;
  return filters.length === 0 ? null : toJson(filters[0]![1]);
}

function toJson(content: Content): unknown {
  switch (content.kind) {
    case 'null':
      return null;
    case 'seq':
      return content.items.map(toJson);
    case 'map':
      return Object.fromEntries(content.entries.map(([key, value]) => [key, toJson(value)]));
    default:
      return content.value;
  }
}
