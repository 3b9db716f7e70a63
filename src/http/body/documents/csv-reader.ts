/**
 * A streaming CSV record reader with the behaviour of the Rust `csv` crate that Meilisearch uses
 * (the csv-core state machine, default options): `"` quoting with `""` escapes, quotes special
 * only at the start of a field (`a"b` and `"a"b` are kept as read), `\r`, `\n` and `\r\n` each
 * end a record, empty lines are skipped, a leading UTF-8 BOM is dropped, and nothing is ever an
 * error (an unterminated quote runs to the end of the input). Used by `csv.ts`.
 * Each record carries the position the crate prints in its errors: the record index (header =
 * 0) and the line and byte where reading it began, i.e. just past the previous record's
 * terminator byte (after a `\r\n`, past the `\r` only: the crate's own quirk).
 */

export interface CsvRecord {
  /** The unescaped fields back to back; valid only during the callback. */
  bytes: Buffer;
  /** End offset in `bytes` of each field; field k starts where field k-1 ends. */
  ends: readonly number[];
  index: number;
  line: number;
  byte: number;
}

const enum State {
  StartRecord,
  StartField,
  InField,
  InQuoted,
  /** A `"` inside a quoted field: a closing quote or the first half of `""`. */
  QuoteInQuoted,
  /** After a `\r` terminator: a following `\n` belongs to it. */
  AfterCr,
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export class CsvReader {
  private state = State.StartRecord;
  private bytes = Buffer.allocUnsafe(64 * 1024);
  private length = 0;
  private ends: number[] = [];
  /** Absolute offset of the next byte. */
  private offset = 0;
  private line = 1;
  private record = { index: 0, line: 1, byte: 0 };
  /** How many bytes of a leading BOM have been seen; -1 once the start is settled. */
  private bom = 0;

  constructor(
    private readonly delimiter: number,
    private readonly onRecord: (record: CsvRecord) => void,
  ) {}

  write(chunk: Buffer): void {
    let i = 0;
    while (this.bom >= 0 && i < chunk.length) {
      if (chunk[i] === BOM[this.bom]) {
        i++;
        if (++this.bom === BOM.length) {
          this.bom = -1;
          this.offset += BOM.length;
        }
      } else {
        const held = BOM.subarray(0, this.bom);
        this.bom = -1;
        this.feed(held, 0);
      }
    }
    this.feed(chunk, i);
  }

  end(): void {
    if (this.bom > 0) this.feed(BOM.subarray(0, this.bom), 0);
    if (this.state !== State.StartRecord && this.state !== State.AfterCr) {
      this.ends.push(this.length);
      this.emit(this.offset);
    }
  }

  private feed(chunk: Buffer, from: number): void {
    const delimiter = this.delimiter;
    let state = this.state;
    let bytes = this.bytes;
    let length = this.length;
    const base = this.offset - from;
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === LF) this.line++;
      if (state === State.AfterCr) {
        state = State.StartRecord;
        if (b === LF) continue;
      }
      if (state === State.StartRecord) {
        if (b === CR || b === LF) continue; // empty line
        state = State.StartField;
      }
      // The order of the tests is the crate's: it decides when the delimiter is `"`, `\r` or `\n`.
      let copy = false;
      let endField = false;
      switch (state) {
        case State.StartField:
          if (b === QUOTE) state = State.InQuoted;
          else if (b === delimiter) endField = true;
          else if (b === CR || b === LF) endField = true;
          else {
            copy = true;
            state = State.InField;
          }
          break;
        case State.InField:
          if (b === delimiter || b === CR || b === LF) endField = true;
          else copy = true;
          break;
        case State.InQuoted:
          if (b === QUOTE) state = State.QuoteInQuoted;
          else copy = true;
          break;
        case State.QuoteInQuoted:
          if (b === QUOTE) {
            copy = true;
            state = State.InQuoted;
          } else if (b === delimiter || b === CR || b === LF) endField = true;
          else {
            copy = true;
            state = State.InField;
          }
          break;
      }
      if (copy) {
        // Copy at once the run of bytes the state ignores (a `\n` is left for the line count).
        let j = i + 1;
        if (state === State.InField) {
          for (let c = chunk[j]; j < chunk.length && c !== delimiter && c !== CR && c !== LF; c = chunk[++j]);
        } else if (state === State.InQuoted) {
          for (let c = chunk[j]; j < chunk.length && c !== QUOTE && c !== LF; c = chunk[++j]);
        }
        if (length + (j - i) > bytes.length) {
          const grown = Buffer.allocUnsafe(Math.max(bytes.length * 2, length + (j - i)));
          bytes.copy(grown, 0, 0, length);
          bytes = this.bytes = grown;
        }
        length += chunk.copy(bytes, length, i, j);
        i = j - 1;
      } else if (endField) {
        this.ends.push(length);
        if (b === delimiter) state = State.StartField;
        else {
          this.length = length;
          this.emit(base + i + 1);
          length = 0;
          state = b === CR ? State.AfterCr : State.StartRecord;
        }
      }
    }
    this.state = state;
    this.length = length;
    this.offset = base + chunk.length;
  }

  /** Hands the record over; `next` is the offset just past its terminator. */
  private emit(next: number): void {
    this.onRecord({ bytes: this.bytes, ends: this.ends, ...this.record });
    this.record = { index: this.record.index + 1, line: this.line, byte: next };
    this.ends = [];
    this.length = 0;
  }
}
