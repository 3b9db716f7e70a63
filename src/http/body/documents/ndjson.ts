/**
 * `application/x-ndjson` document payloads. Used by `payload.ts`. Like Meilisearch (a serde_json
 * stream deserializer over the whole body), values are separated by any whitespace, not
 * strictly by newlines: blank lines, `\r\n`, several objects on a line and an object spread over
 * several lines are all accepted, and error positions count lines of the whole payload.
 * The common line, one compact object and its newline, is taken with the lines after it that are
 * the same, as they are (`CompactRuns`, the JSON line kernel: indexes/payload-lines.ts); any
 * other object, spaced out, over several lines or followed by something else, is written compact
 * by the kernel (`SpacedObjects`); what the kernel does not take, by the byte-by-byte cutter,
 * which reports its error, including a document nested too deep or with a field path past its
 * bound (types/json-paths.ts; the scan shared with json-array.ts: json-value-stream.ts).
 */
import { CompactRuns, SpacedObjects } from '../../../indexes/payload-lines.js';
import { SKIMMED_DOCUMENT } from './json-cutter.js';
import { JsonValueStream } from './json-value-stream.js';
import { linesHoldLongPath, longPathAt } from '../../../types/json-paths.js';
import type { EmitDocument, EmitLines } from './parser.js';

const NEWLINE = 0x0a;

export class NdjsonParser extends JsonValueStream {
  private readonly runs = new CompactRuns();
  private readonly objects = new SpacedObjects();

  constructor(emit: EmitDocument, emitLines: EmitLines) {
    super('ndjson', emit, emitLines);
  }

  end(): void {
    // Only a token (number, literal) can end with the input; the rest reports its truncation.
    if (this.cutting) this.finishValue();
  }

  /** Whole compact lines taken at once, an object written compact, or the first byte of a value, which the cutter then reads. */
  protected between(chunk: Buffer, i: number, base: number): number {
    const b = chunk[i]!;
    if (b === 0x7b) {
      const run = this.runs.runIn(chunk, i, SKIMMED_DOCUMENT.max, NEWLINE, false);
      // a document with a field path past the bound is left to the cutter, which locates the error
      if (run.count > 0 && !linesHoldLongPath(chunk, i, run.end)) {
        this.emitLines(chunk.subarray(i, run.end), run.count);
        this.pos.lines(run.count, base + run.end);
        return run.end;
      }
      const found = this.objects.objectIn(chunk, i, SKIMMED_DOCUMENT.max);
      if (found !== null && longPathAt(found.compact) === -1) {
        this.emit(found.compact);
        if (found.newlines > 0) this.pos.lines(found.newlines, base + chunk.lastIndexOf(NEWLINE, found.end - 1) + 1);
        return found.end;
      }
    }
    this.beginValue(b, base + i, SKIMMED_DOCUMENT);
    return i;
  }
}
