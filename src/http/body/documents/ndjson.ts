/**
 * `application/x-ndjson` document payloads. Used by `payload.ts`. Like Meilisearch (a serde_json
 * stream deserializer over the whole body), values are separated by any whitespace, not
 * strictly by newlines: blank lines, `\r\n`, several objects on a line and an object spread over
 * several lines are all accepted, and error positions count lines of the whole payload.
 */
import { cannotStartValue, isJsonWhitespace, Position, ValueCutter } from './json-cutter.js';
import { malformedJson, NOT_DOCUMENTS, type EmitDocument, type PayloadParser } from './parser.js';

export class NdjsonParser implements PayloadParser {
  private readonly pos = new Position();
  private readonly cutter = new ValueCutter();
  private inValue = false;

  constructor(private readonly emit: EmitDocument) {}

  write(chunk: Buffer): void {
    const pos = this.pos;
    const base = pos.offset;
    let i = 0;
    while (i < chunk.length) {
      if (this.inValue) {
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
      if (cannotStartValue(b)) {
        throw malformedJson('ndjson', `expected value at ${pos.at(base + i)}`);
      }
      this.cutter.begin(b, base + i, pos);
      this.inValue = true;
    }
    pos.offset = base + chunk.length;
  }

  end(): void {
    // Only a token (number, literal) can end with the input; the rest reports its truncation.
    if (this.inValue) this.finishValue();
  }

  private finishValue(): void {
    this.inValue = false;
    const isObject = this.cutter.isObject;
    const value = this.cutter.take();
    if ('error' in value) throw malformedJson('ndjson', value.error);
    if (!isObject) throw malformedJson('ndjson', NOT_DOCUMENTS);
    this.emit(value.bytes);
  }
}
