/**
 * The scan the JSON and NDJSON payload parsers (json-array.ts, ndjson.ts) share: over each chunk,
 * whitespace between values (lines counted for error positions), values cut by the ValueCutter
 * across chunk boundaries and emitted when they are objects, and every other byte handed to the
 * format (`between`), which either consumes it or begins a value there.
 */
import type { ApiError } from '../../../errors/api-error.js';
import { cannotStartValue, isJsonWhitespace, Position, ValueCutter, type DepthLimit } from './json-cutter.js';
import { malformedJson, NOT_DOCUMENTS, type EmitDocument, type EmitLines, type PayloadParser } from './parser.js';

export abstract class JsonValueStream implements PayloadParser {
  protected readonly pos = new Position();
  private readonly cutter = new ValueCutter();
  /** Whether a value is being cut (then the input may only end inside a token). */
  protected cutting = false;
  /** Set when the rest of the payload is not to be read. */
  protected ignoresRest = false;

  constructor(
    private readonly format: 'json' | 'ndjson',
    protected readonly emit: EmitDocument,
    protected readonly emitLines: EmitLines,
  ) {}

  write(chunk: Buffer): void {
    const pos = this.pos;
    const base = pos.offset;
    let i = 0;
    while (i < chunk.length && !this.ignoresRest) {
      if (this.cutting) {
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
      i = this.between(chunk, i, base);
    }
    pos.offset = base + chunk.length;
  }

  abstract end(): void;

  /**
   * Handles the non-whitespace byte `chunk[i]` (payload offset `base + i`) outside any value:
   * answers where the scan goes on, `i` itself after `beginValue`.
   */
  protected abstract between(chunk: Buffer, i: number, base: number): number;

  /** Called after each document the cutter emitted. */
  protected afterDocument(): void {}

  /** Begins cutting the value whose first byte `b` is at payload offset `at`. */
  protected beginValue(b: number, at: number, limit: DepthLimit): void {
    if (cannotStartValue(b)) throw this.malformed(`expected value at ${this.pos.at(at)}`);
    this.cutter.begin(b, at, this.pos, limit);
    this.cutting = true;
  }

  /** Emits the value cut (or reports it): called when it ends, or with the input for a token. */
  protected finishValue(): void {
    this.cutting = false;
    const isObject = this.cutter.isObject;
    const value = this.cutter.take();
    if ('error' in value) throw this.malformed(value.error);
    if (!isObject) throw this.malformed(NOT_DOCUMENTS);
    this.emit(value.bytes);
    this.afterDocument();
  }

  protected malformed(detail: string): ApiError {
    return malformedJson(this.format, detail);
  }
}
