/**
 * Compiled dictionaries: a dictionary as segmentation holds it (its typed arrays and a few numbers
 * and names), written once by the build (`npm run build:dictionaries`, compile-dictionaries.ts) to
 * build/dictionaries/<name>.bin, and opened by reading its header: its arrays are read in a page
 * at a time as segmentation reaches them (dictionary-pages.ts).
 * Reading a dictionary from its package instead inflates and parses it on every first use: 70 to
 * 140 ms of CPU per dictionary, and inflated files that stay garbage in the heap until V8 collects
 * them (bench/RESULTS.md 2026-11-30).
 *
 * A file names what it was compiled from (`source`: the package, its version and the size of the
 * file it was read from); a file of another source, another format or a length other than its
 * header says is not used, and the dictionary is read from its package as before. So an upgraded
 * package is never served a stale dictionary, only more slowly until the next build.
 *
 * Layout: "QDICT" and the format byte, the header's length (u32 LE), the header (JSON: source,
 * the arrays' byte count, values, and per array its type, offset and length), then from the next
 * multiple of 8 the arrays' bytes, each at an offset from there that is a multiple of 8.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { findBuildDirectory } from '../build-directory.js';
import { readFully } from '../wasm-file.js';
import { DictionaryPages, type DictionaryArray } from './dictionary-pages.js';

export type { DictionaryArray };

const MAGIC = 'QDICT';
const FORMAT = 1;
const PREAMBLE_BYTES = MAGIC.length + 1 + 4;
const ALIGN = 8;

const ARRAY_TYPES = { Uint8Array, Uint16Array, Int16Array, Uint32Array, Int32Array, Float64Array } as const;
type ArrayTypeName = keyof typeof ARRAY_TYPES;

/** A dictionary in parts: its arrays, and its numbers and names. */
export interface DictionaryParts {
  readonly arrays: Readonly<Record<string, DictionaryArray>>;
  readonly values: Readonly<Record<string, number | readonly string[]>>;
}

interface Header {
  readonly source: string;
  readonly bytes: number;
  readonly values: DictionaryParts['values'];
  readonly arrays: Readonly<Record<string, { readonly type: ArrayTypeName; readonly offset: number; readonly length: number }>>;
}

/**
 * What a dictionary read from package module `file` is compiled from: the package's name and
 * version (its package.json, the nearest above the file), the file's name and its size.
 */
export function moduleSource(file: string): string {
  let dir = dirname(file);
  for (let manifest = join(dir, 'package.json'); ; manifest = join(dir, 'package.json')) {
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (name !== undefined && version !== undefined) return `${name}@${version} ${basename(file)} ${statSync(file).size}`;
    }
    if (dirname(dir) === dir) return `${basename(file)} ${statSync(file).size}`;
    dir = dirname(dir);
  }
}

/** Where the build keeps dictionary `name`, or undefined when no build/ directory is found. */
export function compiledDictionaryPath(name: string): string | undefined {
  const build = findBuildDirectory();
  return build === undefined ? undefined : join(build, 'dictionaries', `${name}.bin`);
}

/** Writes `parts` to `file` (through a temporary file, so a reader never sees half of it). */
export function writeCompiledDictionary(file: string, source: string, parts: DictionaryParts): void {
  const arrays: Record<string, Header['arrays'][string]> = {};
  let offset = 0;
  for (const [key, array] of Object.entries(parts.arrays)) {
    arrays[key] = { type: typeName(array), offset, length: array.length };
    offset = alignUp(offset + array.byteLength);
  }
  const header = Buffer.from(JSON.stringify({ source, bytes: offset, values: parts.values, arrays } satisfies Header));
  const base = alignUp(PREAMBLE_BYTES + header.length);
  const out = Buffer.alloc(base + offset);
  out.write(MAGIC, 0, 'latin1');
  out[MAGIC.length] = FORMAT;
  out.writeUInt32LE(header.length, MAGIC.length + 1);
  header.copy(out, PREAMBLE_BYTES);
  for (const [key, array] of Object.entries(parts.arrays)) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), base + arrays[key]!.offset);
  }
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, out);
  renameSync(temporary, file);
}

/** A compiled dictionary opened: its parts, whose arrays `pages` reads in as they are reached. */
export interface OpenedDictionary {
  readonly parts: DictionaryParts;
  readonly pages: DictionaryPages;
}

/**
 * Dictionary `file`, if it exists and was compiled from `source` in this format (else undefined),
 * its header read and its arrays left on disk until read through `pages`. A file that cannot be
 * read or does not hold together is not used either: the package is always there to read.
 */
export function openCompiledDictionary(file: string | undefined, source: string): OpenedDictionary | undefined {
  if (file === undefined || !existsSync(file)) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const opened = openedFrom(fd, fstatSync(fd).size, source);
    if (opened === undefined) closeSync(fd);
    return opened;
  } catch {
    if (fd !== undefined) closeSync(fd);
    return undefined;
  }
}

/** The dictionary in the open file `fd` of `size` bytes, `fd` then owned by its pages; undefined if it is not one of `source`. */
function openedFrom(fd: number, size: number, source: string): OpenedDictionary | undefined {
  const preamble = Buffer.alloc(PREAMBLE_BYTES);
  if (readFully(fd, preamble, 0) < PREAMBLE_BYTES || preamble.toString('latin1', 0, MAGIC.length) !== MAGIC || preamble[MAGIC.length] !== FORMAT) return undefined;
  const headerLength = preamble.readUInt32LE(MAGIC.length + 1);
  const base = alignUp(PREAMBLE_BYTES + headerLength);
  if (base > size) return undefined;
  const headerBytes = Buffer.alloc(headerLength);
  readFully(fd, headerBytes, PREAMBLE_BYTES);
  let header: Header;
  try {
    header = JSON.parse(headerBytes.toString('utf8')) as Header;
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null || typeof header.arrays !== 'object' || typeof header.values !== 'object') return undefined;
  if (header.source !== source || !Number.isSafeInteger(header.bytes) || base + header.bytes !== size) return undefined;
  // zero-filled and untouched: resident only as its pages are read in
  const data = new ArrayBuffer(header.bytes);
  const arrays: Record<string, DictionaryArray> = {};
  for (const [key, { type, offset, length }] of Object.entries(header.arrays)) {
    const Type = Object.hasOwn(ARRAY_TYPES, type) ? ARRAY_TYPES[type] : undefined;
    if (Type === undefined || !Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) return undefined;
    if (offset % ALIGN !== 0 || offset + length * Type.BYTES_PER_ELEMENT > header.bytes) return undefined;
    arrays[key] = new Type(data, offset, length);
  }
  return { parts: { arrays, values: header.values }, pages: new DictionaryPages(fd, data, base) };
}

/** The array `key` of `parts`, of type `type`; throws if the file lacks it (a compiler out of step with its reader). */
export function partArray<T extends DictionaryArray>(parts: DictionaryParts, key: string, type: abstract new (...args: never[]) => T): T {
  const array = parts.arrays[key];
  if (!(array instanceof type)) throw new Error(`compiled dictionary: no ${type.name} "${key}"`);
  return array;
}

/** The number `key` of `parts`; throws if the file lacks it. */
export function partNumber(parts: DictionaryParts, key: string): number {
  const value = parts.values[key];
  if (typeof value !== 'number') throw new Error(`compiled dictionary: no number "${key}"`);
  return value;
}

/** The names `key` of `parts`; throws if the file lacks them. */
export function partNames(parts: DictionaryParts, key: string): readonly string[] {
  const value = parts.values[key];
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) throw new Error(`compiled dictionary: no names "${key}"`);
  return value;
}

function typeName(array: DictionaryArray): ArrayTypeName {
  const name = array.constructor.name;
  if (!(name in ARRAY_TYPES)) throw new Error(`compiled dictionary: cannot store a ${name}`);
  return name as ArrayTypeName;
}

const alignUp = (n: number) => Math.ceil(n / ALIGN) * ALIGN;
