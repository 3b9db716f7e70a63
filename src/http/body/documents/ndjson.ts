/**
 * `application/x-ndjson` document payloads. Used by `payload.ts`. Like Meilisearch (a serde_json
 * stream deserializer over the whole body), values are separated by any whitespace, not
 * strictly by newlines: blank lines, `\r\n`, several objects on a line and an object spread over
 * several lines are all accepted, and error positions count lines of the whole payload.
 * The common line, one compact object and its newline, is taken with the lines after it that are
 * the same, as they are (`CompactRuns`, the JSON line kernel: indexes/payload-lines.ts); a
 * compact object followed by other whitespace, alone (`wholeLine`); everything else by the
 * byte-by-byte cutter, including a document nested too deep (the scan shared with json-array.ts:
 * json-value-stream.ts).
 */
import { CompactRuns, isCompactObjectLine } from '../../../indexes/payload-lines.js';
import { isJsonWhitespace, SKIMMED_DOCUMENT } from './json-cutter.js';
import { JsonValueStream } from './json-value-stream.js';
import type { EmitDocument, EmitLines } from './parser.js';

const NEWLINE = 0x0a;

export class NdjsonParser extends JsonValueStream {
  private readonly runs = new CompactRuns();

  constructor(emit: EmitDocument, emitLines: EmitLines) {
    super('ndjson', emit, emitLines);
  }

  end(): void {
    // Only a token (number, literal) can end with the input; the rest reports its truncation.
    if (this.cutting) this.finishValue();
  }

  /** Whole compact lines taken at once, or the first byte of a value, which the cutter then reads. */
  protected between(chunk: Buffer, i: number, base: number): number {
    const b = chunk[i]!;
    if (b === 0x7b) {
      const run = this.runs.runIn(chunk, i, SKIMMED_DOCUMENT.max, NEWLINE, false);
      if (run.count > 0) {
        this.emitLines(chunk.subarray(i, run.end), run.count);
        this.pos.lines(run.count, base + run.end);
        return run.end;
      }
      const nl = chunk.indexOf(NEWLINE, i);
      const end = nl === -1 ? -1 : wholeLine(chunk, i, nl);
      if (end !== -1) {
        this.emit(chunk.subarray(i, end));
        this.pos.newline(base + nl);
        return nl + 1;
      }
    }
    this.beginValue(b, base + i, SKIMMED_DOCUMENT);
    return i;
  }
}

/**
 * Where the object starting at `start` ends when the line up to `nl` is exactly one compact JSON
 * object within the depth limit, followed by whitespace only, else -1 (the cutter then reads it,
 * and compacts or reports it).
 */
function wholeLine(chunk: Buffer, start: number, nl: number): number {
  let end = nl;
  while (end > start && isJsonWhitespace(chunk[end - 1]!)) end--;
  if (chunk[end - 1] !== 0x7d) return -1;
  return isCompactObjectLine(chunk.subarray(start, end), SKIMMED_DOCUMENT.max) ? end : -1;
}
