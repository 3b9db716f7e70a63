/**
 * UUID parsing as Meilisearch does it (Rust `uuid` crate, `Uuid::parse_str`), with the crate's
 * error texts, which Meilisearch quotes verbatim (``Invalid value at `.uid`: invalid length:
 * found 13``).
 *
 * Pure. Callers: the `POST /keys` route (`uid` field), key-store.ts (`{key_or_uid}` path
 * segments), tenant-token.ts (`apiKeyUid` claim).
 * Accepted forms, hex digits in either case: simple (32 hex), hyphenated (8-4-4-4-12), braced
 * (`{…}`), URN (`urn:uuid:…`). The canonical form is lowercase hyphenated.
 */

export type UuidParse = { ok: true; uuid: string } | { ok: false; error: string };

const HYPHENATED = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const SIMPLE = /^[0-9a-fA-F]{32}$/;

export function parseUuid(text: string): UuidParse {
  const hex = text.length === 32 && SIMPLE.test(text) ? text : hyphenatedBody(text)?.replace(/-/g, '');
  if (hex === undefined) return { ok: false, error: describeInvalidUuid(text) };
  const lower = hex.toLowerCase();
  const uuid = `${lower.slice(0, 8)}-${lower.slice(8, 12)}-${lower.slice(12, 16)}-${lower.slice(16, 20)}-${lower.slice(20)}`;
  return { ok: true, uuid };
}

function hyphenatedBody(text: string): string | undefined {
  let body = text;
  if (text.length === 38 && text.startsWith('{') && text.endsWith('}')) body = text.slice(1, -1);
  else if (text.length === 45 && text.startsWith('urn:uuid:')) body = text.slice(9);
  return HYPHENATED.test(body) ? body : undefined;
}

const GROUP_STARTS = [0, 9, 14, 19, 24] as const;
const GROUP_LENGTHS = [8, 4, 4, 4, 12] as const;

/**
 * The crate's `InvalidUuid::into_err` diagnosis, quirks included: braced and URN inputs are
 * scanned over a range that skips their last characters, and a multi-byte character is judged by
 * its low byte.
 */
function describeInvalidUuid(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length === 0 || bytes.length > 45) return `invalid length: found ${bytes.length}`;

  let start = 0;
  let end = bytes.length;
  let format: 'any' | 'hyphenated' | 'braced' | 'urn' = 'any';
  if (bytes.length >= 2 && bytes[0] === 0x7b && bytes[bytes.length - 1] === 0x7d) {
    [start, end, format] = [1, Math.max(1, bytes.length - 3), 'braced'];
  } else if (text.startsWith('urn:uuid:')) {
    [start, end, format] = [9, Math.max(9, bytes.length - 9), 'urn'];
  }

  let hyphens = 0;
  const groupEnds: number[] = [];
  let index = start;
  for (const char of bytes.subarray(start, end).toString('utf8')) {
    const lowByte = char.codePointAt(0)! & 0xff;
    const lower = String.fromCharCode(lowByte).toLowerCase();
    if (/^[0-9a-f]$/.test(lower)) {
      // a hex digit (or a character whose low byte reads as one)
    } else if (lowByte === 0x2d) {
      if (format === 'any') format = 'hyphenated';
      if (hyphens < 4) groupEnds.push(index - start);
      hyphens++;
    } else {
      return `invalid character: found \`${char}\` at ${index}`;
    }
    index += Buffer.byteLength(char, 'utf8');
  }

  if (format === 'any') return `invalid length: found ${bytes.length}`;
  if (hyphens !== 4) return `invalid group count: expected 5, found ${hyphens + 1}`;
  for (let group = 0; group < 4; group++) {
    if (groupEnds[group] !== GROUP_STARTS[group + 1] - 1) {
      return `invalid group length in group ${group}: expected ${GROUP_LENGTHS[group]}, found ${groupEnds[group]! - GROUP_STARTS[group]}`;
    }
  }
  return `invalid group length in group 4: expected 12, found ${bytes.length - GROUP_STARTS[4]}`;
}
