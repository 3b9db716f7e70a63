/**
 * `application/json` document payloads, parsed incrementally: an array of objects (each element
 * is cut out, validated and emitted alone) or a single object. Used by `payload.ts`.
 * Mirrors Meilisearch's `read_json` (serde_json `deserialize_seq`, then a fallback to one
 * object): bytes after the closing `]` are ignored, bytes after a single object are
 * `trailing characters`, any other top-level value is `data are neither an object nor a list
 * of objects`, and syntax errors carry serde_json's wording and payload-wide positions.
 */
import { cannotStartValue, isJsonWhitespace, Position, ValueCutter } from './json-cutter.js';
import { malformedJson, NOT_DOCUMENTS, type EmitDocument, type PayloadParser } from './parser.js';

const enum Phase {
  /** Before the top-level value. */
  Start,
  /** After `[`: an element or `]`. */
  ArrayOpen,
  /** After `,`: an element. */
  ArrayComma,
  /** After an element: `,` or `]`. */
  ArrayElement,
  /** Inside a value being cut. */
  Value,
  /** After a top-level object: only whitespace may follow. */
  AfterObject,
  /** After the closing `]`: the rest is not read, as in Meilisearch. */
  Done,
}

export class JsonArrayParser implements PayloadParser {
  private readonly pos = new Position();
  private readonly cutter = new ValueCutter();
  private phase = Phase.Start;
  /** Whether the value being cut is the whole payload rather than an array element. */
  private topLevel = false;

  constructor(private readonly emit: EmitDocument) {}

  write(chunk: Buffer): void {
    const pos = this.pos;
    const base = pos.offset;
    let i = 0;
    while (i < chunk.length && this.phase !== Phase.Done) {
      if (this.phase === Phase.Value) {
        const end = this.cutter.scan(chunk, i, base, pos);
        if (end === -1) break;
        this.finishValue();
        i = end;
        continue;
      }
      const b = chunk[i]!;
      if (isJsonWhitespace(b)) {
        if (b === 0x0a) pos.newline(base + i);
        i++;
        continue;
      }
      if (this.structural(b, base + i)) i++;
    }
    pos.offset = base + chunk.length;
  }

  end(): void {
    switch (this.phase) {
      case Phase.Start:
      case Phase.ArrayComma:
        throw malformedJson('json', `EOF while parsing a value at ${this.pos.eof()}`);
      case Phase.ArrayOpen:
      case Phase.ArrayElement:
        throw malformedJson('json', `EOF while parsing a list at ${this.pos.eof()}`);
      case Phase.Value:
        // A token may end with the input, but it is no document; anything else is unfinished.
        this.finishValue();
        return;
      case Phase.AfterObject:
      case Phase.Done:
        return;
    }
  }

  /**
   * Handles a non-whitespace byte outside any value. Returns false when a value starts at this
   * byte, which the cutter then reads.
   */
  private structural(b: number, at: number): boolean {
    switch (this.phase) {
      case Phase.Start:
        if (b === 0x5b) {
          this.phase = Phase.ArrayOpen;
          return true;
        }
        return this.startValue(b, at, true);
      case Phase.ArrayOpen:
        if (b === 0x5d) {
          this.phase = Phase.Done;
          return true;
        }
        return this.startValue(b, at, false);
      case Phase.ArrayComma:
        if (b === 0x5d) throw malformedJson('json', `trailing comma at ${this.pos.at(at)}`);
        return this.startValue(b, at, false);
      case Phase.ArrayElement:
        if (b === 0x2c) this.phase = Phase.ArrayComma;
        else if (b === 0x5d) this.phase = Phase.Done;
        else throw malformedJson('json', `expected \`,\` or \`]\` at ${this.pos.at(at)}`);
        return true;
      default: // Phase.AfterObject: Value and Done never get here
        throw malformedJson('json', `trailing characters at ${this.pos.at(at)}`);
    }
  }

  private startValue(b: number, at: number, topLevel: boolean): false {
    if (cannotStartValue(b)) throw malformedJson('json', `expected value at ${this.pos.at(at)}`);
    this.cutter.begin(b, at, this.pos);
    this.topLevel = topLevel;
    this.phase = Phase.Value;
    return false;
  }

  private finishValue(): void {
    const isObject = this.cutter.isObject;
    const value = this.cutter.take();
    if ('error' in value) throw malformedJson('json', value.error);
    if (!isObject) throw malformedJson('json', NOT_DOCUMENTS);
    this.emit(value.bytes);
    this.phase = this.topLevel ? Phase.AfterObject : Phase.ArrayElement;
  }
}
