/**
 * `text/csv` document payloads. Used by `payload.ts`. The first record is the header (typed
 * columns `name:number|boolean|string`), every other record becomes one object with every
 * header field, in header order (a repeated name keeps its first place and its last column's
 * value). Errors are Meilisearch's, in its order: field count, then UTF-8, then cell values.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { CsvReader, type CsvRecord } from './csv-reader.js';
import { cellJson, parseHeader, type ColumnType } from './csv-values.js';
import { malformedCsv, type EmitDocument, type PayloadParser } from './parser.js';
import { firstInvalidUtf8 } from './utf8.js';
import { MAX_FIELD_PATH_BYTES } from '../../../types/json-paths.js';

interface Columns {
  types: ColumnType[];
  /** Index in `keys` of each column's field. */
  slots: number[];
  /** `"name":` of each distinct field, in order of first appearance. */
  keys: string[];
}

export class CsvParser implements PayloadParser {
  private readonly reader: CsvReader;
  private columns: Columns | undefined;
  /** Data records read so far: the `line` of Meilisearch's cell errors. */
  private line = 0;

  constructor(
    delimiter: string,
    private readonly emit: EmitDocument,
  ) {
    this.reader = new CsvReader(delimiter.charCodeAt(0), (record) => this.record(record));
  }

  write(chunk: Buffer): void {
    this.reader.write(chunk);
  }

  end(): void {
    this.reader.end();
  }

  private record(record: CsvRecord): void {
    if (this.columns === undefined) {
      this.columns = header(fields(record));
      return;
    }
    const { types, slots, keys } = this.columns;
    if (record.ends.length !== types.length) {
      throw malformedCsv(
        `CSV error: record ${record.index} (line: ${record.line}, byte: ${record.byte}): found record with ${record.ends.length} fields, but the previous record has ${types.length} fields`,
      );
    }
    const values = fields(record);
    this.line++;
    const json: string[] = new Array<string>(keys.length);
    for (let i = 0; i < values.length; i++) {
      const cell = cellJson(types[i]!, values[i]!, this.line);
      if ('error' in cell) throw malformedCsv(cell.error);
      json[slots[i]!] = cell.json;
    }
    let document = '{';
    for (let k = 0; k < keys.length; k++) document += `${k === 0 ? '' : ','}${keys[k]}${json[k]}`;
    this.emit(Buffer.from(`${document}}`));
  }
}

function header(names: string[]): Columns {
  const types: ColumnType[] = [];
  const slots: number[] = [];
  const keys: string[] = [];
  const slotOf = new Map<string, number>();
  for (const [column, raw] of names.entries()) {
    const { name, type } = parseHeader(raw);
    let slot = slotOf.get(name);
    if (slot === undefined) {
      const key = JSON.stringify(name);
      // a field path as its JSON text writes it, checked before the map of names (types/json-paths.ts)
      if (Buffer.byteLength(key) - 2 > MAX_FIELD_PATH_BYTES) throw malformedCsv(`the header's field ${column} is longer than ${MAX_FIELD_PATH_BYTES} bytes`);
      slot = keys.push(`${key}:`) - 1;
      slotOf.set(name, slot);
    }
    types.push(type);
    slots.push(slot);
  }
  return { types, slots, keys };
}

/** The record's fields as strings; invalid UTF-8 is the `csv` crate's error. */
function fields(record: CsvRecord): string[] {
  const { bytes, ends } = record;
  // Each field must be valid on its own: a sequence may not straddle two fields.
  const ascii = isAscii(bytes.subarray(0, ends[ends.length - 1]));
  const out: string[] = [];
  let start = 0;
  for (let f = 0; f < ends.length; f++) {
    const end = ends[f]!;
    if (!ascii && !isUtf8(bytes.subarray(start, end))) {
      throw malformedCsv(
        `CSV parse error: record ${record.index} (line ${record.line}, field: ${f}, byte: ${record.byte}): invalid utf-8: invalid UTF-8 in field ${f} near byte index ${firstInvalidUtf8(bytes, start, end) - start}`,
      );
    }
    out.push(bytes.toString('utf8', start, end));
    start = end;
  }
  return out;
}
