/**
 * `application/json` document payloads, parsed incrementally: an array of objects (each element
 * is cut out, validated and emitted alone) or a single object. Used by `payload.ts`.
 * Mirrors Meilisearch's `read_json` (serde_json `deserialize_seq`, then a fallback to one
 * object): bytes after the closing `]` are ignored, bytes after a single object are
 * `trailing characters`, any other top-level value is `data are neither an object nor a list
 * of objects`, and syntax errors carry serde_json's wording and payload-wide positions, as do
 * documents nested too deep (json-cutter.ts's depth limits) or with a field path past its bound
 * (types/json-paths.ts).
 * The scan itself (whitespace, values cut across chunks) is json-value-stream.ts's. Elements that
 * are compact objects within a chunk, each followed at once by its comma, are taken together as
 * NDJSON lines (`CompactRuns`, the JSON line kernel); any other object within a chunk, spaced out
 * or pretty-printed (Python's `json.dumps` writes `{"id": 1}`), is written compact by the kernel
 * (`SpacedObjects`); each as the cutter would have emitted it.
 */
import { CompactRuns, SpacedObjects } from '../../../indexes/payload-lines.js';
import { SKIMMED_DOCUMENT, WHOLE_DOCUMENT } from './json-cutter.js';
import { JsonValueStream } from './json-value-stream.js';
import { linesHoldLongPath, longPathAt } from '../../../types/json-paths.js';
import type { EmitDocument, EmitLines } from './parser.js';

const COMMA = 0x2c;
const NEWLINE = 0x0a;

const enum Phase {
  /** Before the top-level value. */
  Start,
  /** After `[`: an element or `]`. */
  ArrayOpen,
  /** After `,`: an element. */
  ArrayComma,
  /** After an element: `,` or `]`. */
  ArrayElement,
  /** After a top-level object: only whitespace may follow. */
  AfterObject,
  /** After the closing `]`: the rest is not read, as in Meilisearch. */
  Done,
}

export class JsonArrayParser extends JsonValueStream {
  private phase = Phase.Start;
  /** Whether the value being cut is the whole payload rather than an array element. */
  private topLevel = false;
  private readonly objects = new SpacedObjects();
  private readonly runs = new CompactRuns();

  constructor(emit: EmitDocument, emitLines: EmitLines) {
    super('json', emit, emitLines);
  }

  end(): void {
    if (this.cutting) {
      // A token may end with the input, but it is no document; anything else is unfinished.
      this.finishValue();
      return;
    }
    switch (this.phase) {
      case Phase.Start:
      case Phase.ArrayComma:
        throw this.malformed(`EOF while parsing a value at ${this.pos.eof()}`);
      case Phase.ArrayOpen:
      case Phase.ArrayElement:
        throw this.malformed(`EOF while parsing a list at ${this.pos.eof()}`);
      case Phase.AfterObject:
      case Phase.Done:
        return;
    }
  }

  /** A structural byte, or the first byte of a value, which the cutter then reads. */
  protected between(chunk: Buffer, i: number, base: number): number {
    const b = chunk[i]!;
    const at = base + i;
    switch (this.phase) {
      case Phase.Start:
        if (b === 0x5b) {
          this.phase = Phase.ArrayOpen;
          return i + 1;
        }
        return this.startValue(b, at, i, true);
      case Phase.ArrayOpen:
        if (b === 0x5d) {
          this.done();
          return i + 1;
        }
        return this.element(chunk, b, at, i);
      case Phase.ArrayComma:
        if (b === 0x5d) throw this.malformed(`trailing comma at ${this.pos.at(at)}`);
        return this.element(chunk, b, at, i);
      case Phase.ArrayElement:
        if (b === 0x2c) this.phase = Phase.ArrayComma;
        else if (b === 0x5d) this.done();
        else throw this.malformed(`expected \`,\` or \`]\` at ${this.pos.at(at)}`);
        return i + 1;
      default: // Phase.AfterObject: Done never gets here
        throw this.malformed(`trailing characters at ${this.pos.at(at)}`);
    }
  }

  protected override afterDocument(): void {
    this.phase = this.topLevel ? Phase.AfterObject : Phase.ArrayElement;
  }

  /** Array elements: compact objects and their commas, an object written compact, anything else through the cutter. */
  private element(chunk: Buffer, b: number, at: number, i: number): number {
    if (b === 0x7b) {
      // a compact object holds no newline, so the line count for error positions stays right
      const run = this.runs.runIn(chunk, i, SKIMMED_DOCUMENT.max, COMMA, true);
      // a document with a field path past the bound is left to the cutter, which locates the error
      if (run.count > 0 && !run.pieces.some(({ lines }) => linesHoldLongPath(Buffer.from(lines.buffer, lines.byteOffset, lines.byteLength)))) {
        this.topLevel = false;
        for (const { lines, count } of run.pieces) this.emitLines(lines, count);
        // past the run's last comma: an element must follow
        this.phase = Phase.ArrayComma;
        return run.end;
      }
      const found = this.objects.objectIn(chunk, i, SKIMMED_DOCUMENT.max);
      if (found !== null && longPathAt(found.compact) === -1) {
        this.topLevel = false;
        this.emit(found.compact);
        if (found.newlines > 0) this.pos.lines(found.newlines, at - i + chunk.lastIndexOf(NEWLINE, found.end - 1) + 1);
        this.afterDocument();
        return found.end;
      }
    }
    return this.startValue(b, at, i, false);
  }

  private startValue(b: number, at: number, i: number, topLevel: boolean): number {
    this.beginValue(b, at, topLevel ? WHOLE_DOCUMENT : SKIMMED_DOCUMENT);
    this.topLevel = topLevel;
    return i;
  }

  private done(): void {
    this.phase = Phase.Done;
    this.ignoresRest = true;
  }
}
