/**
 * Content-Type checks with Meilisearch's rules and messages (http-conventions.md §4.1, §4.2).
 * JSON routes accept any `json` subtype or `+json` suffix; document routes compare type/subtype
 * (the subtype before any `+suffix`, as v1.50 reads it) against their list. Parameters
 * (`; charset=…`) are checked for their syntax only.
 */
import { ApiError } from '../../errors/api-error.js';

export interface MediaType {
  type: string;
  /** the subtype before its last `+`, as the mime crate's `subtype()` reads it */
  subtype: string;
  /** what follows that `+` (`ld+json` → `json`), or undefined */
  suffix: string | undefined;
}

/** The mime crate's token bytes: RFC 7230's tchar but `*`. */
const TOKEN = /^[!#$%&'+\-.^_`|~0-9A-Za-z]$/;
/** What actix-http's `HeaderValue::to_str` reads: visible ASCII, space and tab. */
const HEADER_TEXT = /^[\t\x20-\x7e]*$/;

const isToken = (char: string | undefined) => char !== undefined && TOKEN.test(char);
/** A quoted parameter value's characters, as the mime crate allows them. */
const isQuoted = (char: string | undefined) => char !== undefined && (char === '\t' || (char >= ' ' && char !== '\x7f'));

/**
 * Parses `type/subtype[;name=value…]` as actix-http's `mime_type()` does with the mime crate:
 * token characters only, no space around the slash or before a `;`, every parameter a `name=`
 * with a token or quoted value (spaces allowed before a name and after a quoted value); null
 * when the header is not such a media type.
 */
export function parseMediaType(header: string): MediaType | null {
  if (!HEADER_TEXT.test(header)) return null;
  const slash = header.indexOf('/');
  if (slash <= 0) return null;
  for (let i = 0; i < slash; i++) if (!isToken(header[i])) return null;
  let end = slash + 1;
  let plus = -1;
  for (; end < header.length && !(header[end] === ';' && end > slash + 1); end++) {
    if (!isToken(header[end])) return null;
    if (header[end] === '+' && end > slash + 1) plus = end;
  }
  if (end < header.length && !validParameters(header, end + 1)) return null;
  const subtype = header.slice(slash + 1, plus === -1 ? end : plus).toLowerCase();
  return { type: header.slice(0, slash).toLowerCase(), subtype, suffix: plus === -1 ? undefined : header.slice(plus + 1, end).toLowerCase() };
}

/** Whether the parameters from `start` (after a `;`) read as the mime crate reads them. */
function validParameters(text: string, start: number): boolean {
  let at = start;
  while (at < text.length) {
    if (text[at] === ' ') {
      at++;
      continue;
    }
    const name = at;
    while (isToken(text[at])) at++;
    if (text[at] !== '=' || at === name) return false;
    at++;
    if (text[at] === '"') {
      for (at++; text[at] !== '"'; at++) {
        if (text[at] === '\\') at++;
        if (!isQuoted(text[at])) return false;
      }
      for (at++; text[at] === ' '; at++);
      if (at < text.length && text[at] !== ';') return false;
      at++;
    } else {
      const value = at;
      while (isToken(text[at])) at++;
      if (at === text.length) return true;
      if (text[at] !== ';' || at === value) return false;
      at++;
    }
  }
  return true;
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
  if (media === null || !(media.subtype === 'json' || media.suffix === 'json')) {
    throw invalidContentType(header, JSON_ONLY);
  }
}
