/**
 * A lindera dictionary (IPADIC or ko-dic) as segmentation reads it, from the files lindera-wasm
 * embeds (lindera-files.ts), in the formats lindera-dictionary 1.2.0 writes them. Only the 5 files
 * segmentation reads are inflated (not the word details of dict.wordsidx and dict.words), and they
 * are held as typed arrays: the double array as a view over the inflated file, the connection
 * costs with each different row once (ko-dic's 3822 right ids have 1902 different rows of 2693
 * costs, IPADIC's 1316 have 1281 of 1316), the word entries as columns (their word ids, which only
 * name a word's details, dropped). IPADIC so takes about 11 MB, ko-dic about 30 MB (14 MB of it
 * its double array, 10 MB its connection costs).
 *
 * node:zlib inflates a file whole, with no way to stream it synchronously, so the inflated
 * connection costs and dict.vals are garbage once their rows and columns are copied out (3.5 and
 * 3.9 MB for IPADIC, 21 and 8 MB for ko-dic) until V8 collects them: each file's zlib chunk
 * (lindera-files.ts) counts as 64 MiB of external memory, which has V8 start a collection during
 * the load.
 *
 * The build writes these arrays once to build/dictionaries/ (compiled.ts), and `readDictionary`
 * opens that copy when it was compiled from this lindera-wasm: none of the above happens then, and
 * the double array, the word entries and the connection costs are read in a page at a time as
 * segmentation reaches them (dictionary-pages.ts), the rest at once.
 *
 * Which embedded dictionary is which is told by its character categories: IPADIC's char.def has
 * KANJINUMERIC, ko-dic's HANGUL (CC-CEDICT's has neither). Every file is checked against what
 * reading it assumes, so a different build of lindera-wasm fails here, clearly, rather than
 * segmenting wrongly.
 */
import { endianness } from 'node:os';

import { compiledDictionaryPath, moduleSource, openCompiledDictionary, partArray, partNames, partNumber, type DictionaryParts } from './compiled.js';
import { DictionaryPages } from './dictionary-pages.js';
import { EmbeddedFileReader, embeddedDictionaries, LINDERA_MODULE_FILE, type DictionaryFiles, type FileName } from './lindera-files.js';

export type DictionaryName = 'ipadic' | 'ko-dic';

/** Word entries as columns: a word's left and right context ids and its cost. */
export interface WordEntries {
  readonly leftIds: Uint16Array;
  readonly rightIds: Uint16Array;
  readonly costs: Int16Array;
}

/** char_def.bin: the character categories and which of them each code point is in. */
export interface CharacterDefinition {
  readonly names: readonly string[];
  /** Per category: 1 if an unknown word is made even where a dictionary word starts. */
  readonly invoke: Uint8Array;
  /** Per category: 1 if an unknown word runs over the following characters of the category. */
  readonly group: Uint8Array;
  /** Code points where the category list changes, from 0, increasing. */
  readonly boundaries: Uint32Array;
  /** The categories of code points from `boundaries[i]`: `categories[listStarts[i] .. listStarts[i + 1]]`. */
  readonly listStarts: Uint32Array;
  readonly categories: Uint8Array;
  /** The longest list's length. */
  readonly maxCategories: number;
}

export interface LinderaDictionary {
  readonly characters: CharacterDefinition;
  /** yada's double array over the UTF-8 of the words (dict.da), as 32-bit units. */
  readonly units: Uint32Array;
  /** dict.vals: a double array value `v` names entries `v >>> 5` to `(v >>> 5) + (v & 31)` here. */
  readonly words: WordEntries;
  /** unk.bin: per category, its unknown-word entries, `unknown[unknownIds[unknownStarts[c] .. unknownStarts[c + 1]]]`. */
  readonly unknownStarts: Uint32Array;
  readonly unknownIds: Uint32Array;
  readonly unknown: WordEntries;
  /** matrix.mtx, each different row once: the cost of a word of right id `r` followed by one of left id `l` is `rows[rowOf[r] * backwardSize + l]`. */
  readonly backwardSize: number;
  readonly rowOf: Uint16Array;
  readonly rows: Int16Array;
  /** Reads in `units`, `words` and `rows` as they are reached (the rest is read at once). */
  readonly pages: DictionaryPages;
}

/** matrix.mtx as read: what the dictionary keeps of it, and its forward (right id) size. */
type Matrix = Pick<LinderaDictionary, 'backwardSize' | 'rowOf' | 'rows'> & { readonly forwardSize: number };

/** The category only the dictionary's char.def has. */
const SIGNATURE: Record<DictionaryName, string> = { ipadic: 'KANJINUMERIC', 'ko-dic': 'HANGUL' };
/** WordEntry::SERIALIZED_LEN in dict.vals: u32 word id, i16 cost, u16 left id, u16 right id. */
const VALUE_BYTES = 10;
/** yada builds its double array in blocks of 256 units of 4 bytes. */
const BLOCK_BYTES = 1024;
const LEAF = 0x80000000;
const MATRIX_HEADER_BYTES = 4;
/** The files segmentation reads besides char_def.bin. */
const READ: readonly FileName[] = ['matrix.mtx', 'dict.da', 'dict.vals', 'unk.bin'];

/**
 * Dictionary `name`: the build's compiled copy (compiled.ts) when it is there and compiled from
 * this lindera-wasm, else read from lindera-wasm's module.
 */
export function readDictionary(name: DictionaryName): LinderaDictionary {
  const compiled = openCompiledDictionary(compiledDictionaryPath(name), linderaSource());
  return compiled === undefined ? readPackagedDictionary(name) : fromParts(compiled.parts, compiled.pages);
}

/** What the compiled dictionaries are compiled from: lindera-wasm's module file. */
export function linderaSource(): string {
  return moduleSource(LINDERA_MODULE_FILE);
}

/** `dictionary`'s arrays and numbers, for a compiled dictionary file. */
export function toParts(dictionary: LinderaDictionary): DictionaryParts {
  const { characters, units, words, unknownStarts, unknownIds, unknown, backwardSize, rowOf, rows } = dictionary;
  for (const array of [units, words.leftIds, words.rightIds, words.costs, rows]) dictionary.pages.ensureAll(array);
  return {
    arrays: {
      invoke: characters.invoke,
      group: characters.group,
      boundaries: characters.boundaries,
      listStarts: characters.listStarts,
      categories: characters.categories,
      units,
      wordLeftIds: words.leftIds,
      wordRightIds: words.rightIds,
      wordCosts: words.costs,
      unknownStarts,
      unknownIds,
      unknownLeftIds: unknown.leftIds,
      unknownRightIds: unknown.rightIds,
      unknownCosts: unknown.costs,
      rowOf,
      rows,
    },
    values: { names: characters.names, maxCategories: characters.maxCategories, backwardSize },
  };
}

/** The dictionary `toParts` gave, its arrays read in by `pages`: the small ones at once. */
function fromParts(parts: DictionaryParts, pages: DictionaryPages): LinderaDictionary {
  const resident = <T extends Parameters<DictionaryPages['ensureAll']>[0]>(array: T): T => (pages.ensureAll(array), array);
  const entries = (prefix: string, read: <T extends Uint16Array | Int16Array>(array: T) => T): WordEntries => ({
    leftIds: read(partArray(parts, `${prefix}LeftIds`, Uint16Array)),
    rightIds: read(partArray(parts, `${prefix}RightIds`, Uint16Array)),
    costs: read(partArray(parts, `${prefix}Costs`, Int16Array)),
  });
  return {
    characters: {
      names: partNames(parts, 'names'),
      invoke: resident(partArray(parts, 'invoke', Uint8Array)),
      group: resident(partArray(parts, 'group', Uint8Array)),
      boundaries: resident(partArray(parts, 'boundaries', Uint32Array)),
      listStarts: resident(partArray(parts, 'listStarts', Uint32Array)),
      categories: resident(partArray(parts, 'categories', Uint8Array)),
      maxCategories: partNumber(parts, 'maxCategories'),
    },
    units: partArray(parts, 'units', Uint32Array),
    words: entries('word', (array) => array),
    unknownStarts: resident(partArray(parts, 'unknownStarts', Uint32Array)),
    unknownIds: resident(partArray(parts, 'unknownIds', Uint32Array)),
    unknown: entries('unknown', resident),
    backwardSize: partNumber(parts, 'backwardSize'),
    rowOf: resident(partArray(parts, 'rowOf', Uint16Array)),
    rows: partArray(parts, 'rows', Int16Array),
    pages,
  };
}

/** Reads dictionary `name` from lindera-wasm's module, as the compiled dictionaries are made from. */
export function readPackagedDictionary(name: DictionaryName): LinderaDictionary {
  if (endianness() !== 'LE') throw new Error('lindera dictionaries are read as little-endian typed arrays: this platform is big-endian');
  const matches = identify(name);
  if (matches.length !== 1) throw new Error(`lindera-wasm embeds ${matches.length} dictionaries with a ${SIGNATURE[name]} category, not 1 (${name})`);
  const { files, characters } = matches[0]!;
  const reader = new EmbeddedFileReader(Math.max(...READ.map((file) => files[file].length)));
  try {
    const { forwardSize, backwardSize, rowOf, rows } = parseMatrix(file('matrix.mtx', reader.inflate(files['matrix.mtx'])));
    const checkIds = (entries: WordEntries, from: FileName): WordEntries => {
      for (let i = 0; i < entries.costs.length; i++) {
        if (entries.leftIds[i]! >= backwardSize || entries.rightIds[i]! >= forwardSize) throw new Error(`lindera ${from}: entry ${i} has context ids outside the ${forwardSize} × ${backwardSize} matrix`);
      }
      return entries;
    };
    const words = checkIds(parseValues(file('dict.vals', reader.inflate(files['dict.vals']))), 'dict.vals');
    const units = parseDoubleArray(file('dict.da', reader.inflate(files['dict.da'])), words.costs.length);
    const { starts: unknownStarts, ids: unknownIds, entries } = parseUnknown(file('unk.bin', reader.inflate(files['unk.bin'])), characters.names.length);
    return { characters, units, words, unknownStarts, unknownIds, unknown: checkIds(entries, 'unk.bin'), backwardSize, rowOf, rows, pages: DictionaryPages.resident() };
  } finally {
    reader.close();
  }
}

/** The embedded dictionaries whose char.def has the signature category of `name`, their character definitions read. */
function identify(name: DictionaryName): { files: DictionaryFiles; characters: CharacterDefinition }[] {
  const dictionaries = embeddedDictionaries();
  const reader = new EmbeddedFileReader(Math.max(...dictionaries.map((files) => files['char_def.bin'].length)));
  try {
    return dictionaries
      .map((files) => ({ files, characters: parseCharacterDefinition(file('char_def.bin', reader.inflate(files['char_def.bin']))) }))
      .filter(({ characters }) => characters.names.includes(SIGNATURE[name]));
  } finally {
    reader.close();
  }
}

function file(name: FileName, bytes: Buffer): FileBytes {
  return { name, bytes };
}

interface FileBytes {
  readonly name: FileName;
  readonly bytes: Buffer;
}

function parseCharacterDefinition(file: FileBytes): CharacterDefinition {
  const reader = new BincodeReader(file);
  const count = reader.length(6);
  const invoke = new Uint8Array(count);
  const group = new Uint8Array(count);
  for (let c = 0; c < count; c++) {
    invoke[c] = reader.bool();
    group[c] = reader.bool();
    reader.u32(); // length: lindera 1.2.0 does not use it
  }
  const names = Array.from({ length: reader.length(8) }, () => reader.string());
  const boundaries = new Uint32Array(reader.length(4));
  for (let i = 0; i < boundaries.length; i++) {
    boundaries[i] = reader.u32();
    if (i === 0 ? boundaries[i] !== 0 : boundaries[i]! <= boundaries[i - 1]!) reader.fail('boundaries do not increase from 0');
  }
  if (reader.length(8) !== boundaries.length || names.length !== count || count > 256) reader.fail('counts disagree');
  const listStarts = new Uint32Array(boundaries.length + 1);
  const lists: number[] = [];
  let maxCategories = 0;
  for (let i = 0; i < boundaries.length; i++) {
    const length = reader.length(8);
    for (let k = 0; k < length; k++) lists.push(reader.index(count));
    listStarts[i + 1] = lists.length;
    maxCategories = Math.max(maxCategories, length);
  }
  reader.end();
  return { names, invoke, group, boundaries, listStarts, categories: Uint8Array.from(lists), maxCategories };
}

function parseUnknown(file: FileBytes, categoryCount: number): { starts: Uint32Array; ids: Uint32Array; entries: WordEntries } {
  const reader = new BincodeReader(file);
  if (reader.length(8) !== categoryCount) reader.fail('not one list per category');
  const starts = new Uint32Array(categoryCount + 1);
  const ids: number[] = [];
  for (let c = 0; c < categoryCount; c++) {
    const length = reader.length(4);
    for (let k = 0; k < length; k++) ids.push(reader.u32());
    starts[c + 1] = ids.length;
  }
  // WordEntry through serde: u32 word id, bool is_system, i16 cost, u16 left id, u16 right id.
  const count = reader.length(11);
  const entries = { leftIds: new Uint16Array(count), rightIds: new Uint16Array(count), costs: new Int16Array(count) };
  for (let i = 0; i < count; i++) {
    reader.u32();
    reader.bool();
    entries.costs[i] = reader.i16();
    entries.leftIds[i] = reader.u16();
    entries.rightIds[i] = reader.u16();
  }
  reader.end();
  if (ids.some((id) => id >= count)) reader.fail('a category names a missing entry');
  return { starts, ids: Uint32Array.from(ids), entries };
}

/**
 * matrix.mtx: its forward and backward sizes (i16), then its costs, a row per right id, each
 * different row kept once: a row is looked up by its hash among the different rows before it, and
 * compared whole with those of the same hash.
 */
function parseMatrix({ name, bytes }: FileBytes): Matrix {
  const [forwardSize, backwardSize] = bytes.length >= MATRIX_HEADER_BYTES ? [bytes.readInt16LE(0), bytes.readInt16LE(2)] : [0, 0];
  if (forwardSize <= 0 || backwardSize <= 0 || bytes.length !== MATRIX_HEADER_BYTES + 2 * forwardSize * backwardSize) {
    throw new Error(`lindera ${name}: ${bytes.length} bytes are not a ${forwardSize} × ${backwardSize} matrix of i16 after its ${MATRIX_HEADER_BYTES}-byte header`);
  }
  const costs = aligned(bytes, MATRIX_HEADER_BYTES, Int16Array, forwardSize * backwardSize);
  const rowBytes = 2 * backwardSize;
  const rowOf = new Uint16Array(forwardSize);
  // The first right id of each different row, and those rows by hash.
  const firsts: number[] = [];
  const byHash = new Map<number, number[]>();
  for (let r = 0; r < forwardSize; r++) {
    const start = MATRIX_HEADER_BYTES + r * rowBytes;
    const hash = rowHash(costs, r * backwardSize, backwardSize);
    let sameHash = byHash.get(hash);
    if (sameHash === undefined) byHash.set(hash, (sameHash = []));
    let row = sameHash.find((other) => bytes.compare(bytes, MATRIX_HEADER_BYTES + firsts[other]! * rowBytes, MATRIX_HEADER_BYTES + (firsts[other]! + 1) * rowBytes, start, start + rowBytes) === 0);
    if (row === undefined) sameHash.push((row = firsts.push(r) - 1));
    rowOf[r] = row;
  }
  const rows = new Int16Array(firsts.length * backwardSize);
  firsts.forEach((r, row) => rows.set(costs.subarray(r * backwardSize, (r + 1) * backwardSize), row * backwardSize));
  return { forwardSize, backwardSize, rowOf, rows };
}

/** A hash of `costs[from .. from + length]`, in two lanes for speed. */
function rowHash(costs: Int16Array, from: number, length: number): number {
  let even = 0x811c9dc5;
  let odd = 0;
  let k = from;
  for (const end = from + length - 1; k < end; k += 2) {
    even = Math.imul(even ^ costs[k]!, 0x01000193);
    odd = Math.imul(odd ^ costs[k + 1]!, 0x01000193);
  }
  if (k < from + length) even = Math.imul(even ^ costs[k]!, 0x01000193);
  return (even ^ Math.imul(odd, 0x9e3779b1)) | 0;
}

/** dict.vals as columns (the word ids dropped). */
function parseValues({ name, bytes }: FileBytes): WordEntries {
  if (bytes.length % VALUE_BYTES !== 0) throw new Error(`lindera ${name}: ${bytes.length} bytes are not entries of ${VALUE_BYTES}`);
  const count = bytes.length / VALUE_BYTES;
  // As 16-bit halves: entry i's cost, left id and right id are halves 5i + 2, 5i + 3 and 5i + 4.
  const halves = aligned(bytes, 0, Uint16Array, bytes.length / 2);
  const signed = new Int16Array(halves.buffer, halves.byteOffset, halves.length);
  const entries = { leftIds: new Uint16Array(count), rightIds: new Uint16Array(count), costs: new Int16Array(count) };
  for (let i = 0, at = 0; i < count; i++, at += VALUE_BYTES / 2) {
    entries.costs[i] = signed[at + 2]!;
    entries.leftIds[i] = halves[at + 3]!;
    entries.rightIds[i] = halves[at + 4]!;
  }
  return entries;
}

/** dict.da, its leaves checked to name entries that exist. */
function parseDoubleArray({ name, bytes }: FileBytes, entryCount: number): Uint32Array {
  if (bytes.length === 0 || bytes.length % BLOCK_BYTES !== 0) throw new Error(`lindera ${name}: ${bytes.length} bytes are not whole blocks of ${BLOCK_BYTES}`);
  const units = aligned(bytes, 0, Uint32Array, bytes.length / 4);
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    if (unit >= LEAF && ((unit & 0x7fffffff) >>> 5) + (unit & 31) > entryCount) throw new Error(`lindera ${name}: a leaf names entries past the ${entryCount} of dict.vals`);
  }
  return units;
}

/** A typed array over `bytes` from `offset`, copied only if the offset is not aligned for it. */
function aligned<T extends Int16Array | Uint16Array | Uint32Array>(bytes: Buffer, offset: number, type: { new (buffer: ArrayBuffer, offset: number, length: number): T; new (length: number): T; BYTES_PER_ELEMENT: number }, length: number): T {
  const at = bytes.byteOffset + offset;
  if (at % type.BYTES_PER_ELEMENT === 0) return new type(bytes.buffer as ArrayBuffer, at, length);
  const copy = new type(length);
  new Uint8Array(copy.buffer).set(bytes.subarray(offset, offset + length * type.BYTES_PER_ELEMENT));
  return copy;
}

/** bincode's legacy config: fixed-size little-endian integers, u64 lengths (usize), bool as a byte. */
class BincodeReader {
  private at = 0;
  constructor(private readonly file: FileBytes) {}

  u16(): number {
    return this.take(2).readUInt16LE(0);
  }

  i16(): number {
    return this.take(2).readInt16LE(0);
  }

  u32(): number {
    return this.take(4).readUInt32LE(0);
  }

  bool(): number {
    const value = this.take(1)[0]!;
    if (value > 1) this.fail(`${value} is not a bool`);
    return value;
  }

  /** A u64 below `limit`. */
  index(limit: number): number {
    const low = this.u32();
    if (this.u32() !== 0 || low >= limit) this.fail(`index ${low} is not below ${limit}`);
    return low;
  }

  /** A sequence length, of items of at least `itemBytes` that must fit in what is left. */
  length(itemBytes: number): number {
    const remaining = this.file.bytes.length - this.at - 8;
    return this.index(Math.floor(remaining / itemBytes) + 1);
  }

  string(): string {
    return this.take(this.length(1)).toString('utf8');
  }

  /** Fails unless every byte was read. */
  end(): void {
    if (this.at !== this.file.bytes.length) this.fail(`${this.file.bytes.length - this.at} bytes left over`);
  }

  fail(why: string): never {
    throw new Error(`lindera ${this.file.name} is not as lindera-dictionary 1.2.0 writes it (at byte ${this.at}): ${why}`);
  }

  private take(count: number): Buffer {
    if (this.at + count > this.file.bytes.length) this.fail('it ends early');
    const bytes = this.file.bytes.subarray(this.at, this.at + count);
    this.at += count;
    return bytes;
  }
}
