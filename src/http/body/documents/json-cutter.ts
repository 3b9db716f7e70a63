/**
 * Byte-level pieces shared by the JSON and NDJSON payload parsers: `Position` follows line and
 * column as serde_json counts them (1-based lines, byte columns), `ValueCutter` finds where one
 * JSON value ends across chunk boundaries without parsing it (strings, escapes and bracket
 * depth only, noting where it first nests past its `DepthLimit`), then validates the cut bytes
 * and compacts them (`take`).
 * Invariant: only one value is ever held in memory, never the payload.
 */
import { isUtf8 } from 'node:buffer';
import { SERDE_MAX_DEPTH } from '../../../types/json-depth.js';
import { describeJsonSyntaxError, holdsOutOfRangeNumber, serdeJsonError } from '../../../types/json-syntax-error.js';
import { firstInvalidUtf8, insideJsonString } from './utf8.js';
import { longPathAt, longPathDetail } from '../../../types/json-paths.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

export function isJsonWhitespace(b: number): boolean {
  return b === 0x20 || b === NEWLINE || b === 0x0d || b === 0x09;
}

/** Bytes that can never start a value, reported as `expected value` where one is due. */
export function cannotStartValue(b: number): boolean {
  return b === 0x7d || b === 0x5d || b === 0x2c || b === 0x3a; // } ] , :
}

/** Bytes that end a bare token (number, literal) for serde_json's stream deserializer. */
function endsToken(b: number): boolean {
  switch (b) {
    case 0x20: case 0x0a: case 0x0d: case 0x09: // whitespace
    case QUOTE: case 0x5b: case 0x5d: case 0x7b: case 0x7d: case 0x2c: case 0x3a: // " [ ] { } , :
      return true;
    default:
      return false;
  }
}

/** The reading position in the whole payload. */
export class Position {
  /** Absolute offset of the first byte of the chunk being scanned (of the end once done). */
  offset = 0;
  line = 1;
  /** Absolute offset of the first byte of the current line. */
  lineStart = 0;

  newline(at: number): void {
    this.line++;
    this.lineStart = at + 1;
  }

  /** `count` lines that end just before absolute offset `next`, where the next line starts. */
  lines(count: number, next: number): void {
    this.line += count;
    this.lineStart = next;
  }

  /** serde_json's location of the byte at absolute offset `at` on the current line. */
  at(at: number): string {
    return `line ${this.line} column ${at - this.lineStart + 1}`;
  }

  /** serde_json's location of the end of the input (its column is the last line's length). */
  eof(): string {
    return `line ${this.line} column ${this.offset - this.lineStart}`;
  }
}

/**
 * How deep a value may nest (`max` open brackets) and whether serde_json reads it whole, so that
 * a syntax error and the depth limit are reported in reading order (`whole`), or skims it first,
 * so that any syntax error comes before the depth.
 */
export interface DepthLimit {
  max: number;
  whole: boolean;
}

/** A single-object JSON payload: Meilisearch parses it whole into a map (serde_json's limit). */
export const WHOLE_DOCUMENT: DepthLimit = { max: SERDE_MAX_DEPTH, whole: true };

/**
 * An element of a JSON array payload or an NDJSON value: Meilisearch enqueues it unparsed, then
 * parses each top-level field whole while indexing, where a field nested past serde_json's limit
 * fails the task. Quarry refuses such a document at enqueue instead: its braces plus that limit.
 */
export const SKIMMED_DOCUMENT: DepthLimit = { max: SERDE_MAX_DEPTH + 1, whole: false };

const enum Kind {
  Container,
  String,
  Token,
}

/** Cuts one JSON value out of the byte stream. */
export class ValueCutter {
  private pieces: Buffer[] = [];
  private kind = Kind.Container;
  private first = 0;
  /** The byte that ended a token, kept so syntax errors can look one byte further. */
  private terminator = -1;
  private depth = 0;
  private limit = SKIMMED_DOCUMENT;
  /** Where the value first nests deeper than `limit.max`. */
  private tooDeep: string | undefined;
  private inString = false;
  private escaped = false;
  /** Whitespace seen between tokens: the value needs compacting. */
  private spaced = false;
  private startLine = 1;
  /** 0-based byte column of the value's first byte. */
  private startColumn = 0;

  /** Starts a value whose first byte `first` is at absolute offset `at`. */
  begin(first: number, at: number, pos: Position, limit: DepthLimit): void {
    this.kind = first === 0x7b || first === 0x5b ? Kind.Container : first === QUOTE ? Kind.String : Kind.Token;
    this.first = first;
    this.terminator = -1;
    this.pieces = [];
    this.depth = 0;
    this.limit = limit;
    this.tooDeep = undefined;
    this.inString = false;
    this.escaped = false;
    this.spaced = false;
    this.startLine = pos.line;
    this.startColumn = at - pos.lineStart;
  }

  get isObject(): boolean {
    return this.first === 0x7b;
  }

  /**
   * Scans `buf` from `from` (chunk starting at absolute offset `base`). Returns the index just
   * past the value, or -1 when the chunk ends inside it. A token ends before its delimiter,
   * which stays for the caller.
   */
  scan(buf: Buffer, from: number, base: number, pos: Position): number {
    const end = this.kind === Kind.Token ? this.scanToken(buf, from) : this.scanDelimited(buf, from, base, pos);
    this.pieces.push(buf.subarray(from, end === -1 ? buf.length : end));
    return end;
  }

  private scanToken(buf: Buffer, i: number): number {
    for (; i < buf.length; i++) {
      if (endsToken(buf[i]!)) {
        this.terminator = buf[i]!;
        return i;
      }
    }
    return -1;
  }

  private scanDelimited(buf: Buffer, i: number, base: number, pos: Position): number {
    const len = buf.length;
    let { depth, inString, escaped, spaced } = this;
    const max = this.limit.max;
    let end = -1;
    for (; i < len; i++) {
      if (inString) {
        // Jump to the next quote: one not escaped by an odd run of backslashes ends the string.
        // (A raw newline inside a string goes uncounted: it makes the value invalid, and the
        // value's own error locates itself.)
        if (escaped) {
          escaped = false;
          continue;
        }
        const quote = buf.indexOf(QUOTE, i);
        const stop = quote === -1 ? len : quote;
        let backslashes = 0;
        while (stop - 1 - backslashes >= i && buf[stop - 1 - backslashes] === BACKSLASH) backslashes++;
        if (quote === -1) {
          escaped = backslashes % 2 === 1;
          i = len;
          break;
        }
        i = quote;
        if (backslashes % 2 === 1) continue;
        inString = false;
        if (this.kind === Kind.String) {
          end = i + 1;
          break;
        }
        continue;
      }
      const b = buf[i]!;
      switch (b) {
        case QUOTE:
          inString = true;
          break;
        case 0x7b:
        case 0x5b:
          if (++depth > max) this.tooDeep ??= pos.at(base + i);
          break;
        case 0x7d:
        case 0x5d:
          depth--;
          break;
        case NEWLINE:
          pos.newline(base + i);
          spaced = true;
          break;
        case 0x20:
        case 0x0d:
        case 0x09:
          spaced = true;
          break;
      }
      if (depth === 0 && !inString) {
        end = i + 1;
        break;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.spaced = spaced;
    return end;
  }

  /**
   * The cut value, compact, or the serde_json-style reason it is not valid JSON or nests too
   * deep (positions in the whole payload). Call once the value has ended or the input is exhausted.
   */
  take(): { bytes: Buffer } | { error: string } {
    const bytes = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces);
    this.pieces = [];
    if (!isUtf8(bytes)) {
      const invalid = firstInvalidUtf8(bytes);
      // outside a string, the syntax error serde_json meets there (`expected value`) is told below
      if (insideJsonString(bytes, invalid)) return { error: `invalid unicode code point at ${this.locate(bytes, invalid)}` };
    }
    // before JSON.parse, whose own key table is quadratic in such keys (types/json-paths.ts)
    const long = this.isObject && this.tooDeep === undefined ? longPathAt(bytes) : -1;
    if (long !== -1) return { error: longPathDetail(this.locate(bytes, long)) };
    const text = bytes.toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // serde_json reads a token's delimiter before judging it (`[tru]` is `expected ident`).
      const read = this.terminator === -1 ? text : text + String.fromCharCode(this.terminator);
      return { error: this.shift(describeJsonSyntaxError(read, this.limit.whole ? this.limit.max : Infinity)) };
    }
    // a number past f64's range, which JSON.parse reads as Infinity (read back as null): serde_json
    // refuses it in a single-document payload; v1.50 skims an array's or NDJSON's documents at
    // enqueue and fails the task (`internal`) when it indexes the field; Quarry refuses it here
    if (holdsOutOfRangeNumber(value)) {
      const error = serdeJsonError(text, this.limit.whole ? this.limit.max : Infinity);
      if (error !== undefined) return { error: this.shift(error) };
    }
    // a value that is no document is reported as such, whatever its depth
    if (this.tooDeep !== undefined && this.isObject) return { error: `recursion limit exceeded at ${this.tooDeep}` };
    return { bytes: this.spaced ? compact(bytes) : bytes };
  }

  /** Location of byte `k` of the value in the whole payload. */
  private locate(bytes: Buffer, k: number): string {
    let lines = 0;
    let lastNewline = -1;
    for (let i = 0; i < k; i++) {
      if (bytes[i] === NEWLINE) {
        lines++;
        lastNewline = i;
      }
    }
    return lines === 0
      ? `line ${this.startLine} column ${this.startColumn + k + 1}`
      : `line ${this.startLine + lines} column ${k - lastNewline}`;
  }

  /** Moves a position relative to the value's text to the whole payload. */
  private shift(message: string): string {
    const m = / at line (\d+) column (\d+)$/.exec(message);
    if (m === null) return message;
    const line = Number(m[1]);
    const column = Number(m[2]);
    const where =
      line === 1 ? `line ${this.startLine} column ${this.startColumn + column}` : `line ${this.startLine + line - 1} column ${column}`;
    return `${message.slice(0, m.index)} at ${where}`;
  }
}

/** Drops the whitespace between tokens so a document fits on one NDJSON line. */
function compact(bytes: Buffer): Buffer {
  const out = Buffer.allocUnsafe(bytes.length);
  let n = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      out[n++] = b;
      if (escaped) escaped = false;
      else if (b === BACKSLASH) escaped = true;
      else if (b === QUOTE) inString = false;
    } else if (!isJsonWhitespace(b)) {
      out[n++] = b;
      if (b === QUOTE) inString = true;
    }
  }
  return out.subarray(0, n);
}
