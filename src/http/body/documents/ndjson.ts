/**
 * `application/x-ndjson` document payloads. Used by `payload.ts`. Like Meilisearch (a serde_json
 * stream deserializer over the whole body), values are separated by any whitespace, not
 * strictly by newlines: blank lines, `\r\n`, several objects on a line and an object spread over
 * several lines are all accepted, and error positions count lines of the whole payload.
 * The common line, one compact object, is taken whole (`wholeLine`): native newline search and
 * the JSON line kernel's check (indexes/payload-lines.ts) instead of the byte-by-byte cutter,
 * which handles everything else, including a document nested too deep (the scan shared with
 * json-array.ts: json-value-stream.ts).
 */
import { isCompactObjectLine } from '../../../indexes/payload-lines.js';
import { isJsonWhitespace, SKIMMED_DOCUMENT } from './json-cutter.js';
import { JsonValueStream } from './json-value-stream.js';
import type { EmitDocument } from './parser.js';

export class NdjsonParser extends JsonValueStream {
  constructor(emit: EmitDocument) {
    super('ndjson', emit);
  }

  end(): void {
    // Only a token (number, literal) can end with the input; the rest reports its truncation.
    if (this.cutting) this.finishValue();
  }

  /** A whole compact line taken at once, or the first byte of a value, which the cutter then reads. */
  protected between(chunk: Buffer, i: number, base: number): number {
    const b = chunk[i]!;
    if (b === 0x7b) {
      const nl = chunk.indexOf(0x0a, i);
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
