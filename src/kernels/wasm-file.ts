/**
 * A WebAssembly module file read without compiling or instantiating it: where its sections and its
 * large active data segments lie, and bytes at a position. The dictionaries in dictionaries/ read
 * the data jieba-wasm's and lindera-wasm's modules embed (jieba's dict.txt, lindera's IPADIC and
 * ko-dic) from there, a window at a time, rather than instantiating those modules, whose memories
 * would hold every dictionary they carry, inflated, for the process's life.
 *
 * Only active segments of memory 0 at an `i32.const` offset are listed (the form a linker emits).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** A large active data segment of a module file. */
export interface DataSegment {
  /** where in linear memory */
  readonly offset: number;
  /** where in the file */
  readonly position: number;
  readonly length: number;
}

const DATA_SECTION = 11;
const I32_CONST = 0x41;
const I64_CONST = 0x42;
const GLOBAL_GET = 0x23;
/** i32.add/sub/mul, i64.add/sub/mul: the extended constant expressions. */
const INTEGER_ARITHMETIC = new Set([0x6a, 0x6b, 0x6c, 0x7c, 0x7d, 0x7e]);
const END = 0x0b;
const WINDOW = 1 << 16;

/** Where the body of the module's first section with id `id` lies in the file `fd`, and its size; null if it has none. */
export function moduleSection(fd: number, id: number): { position: number; size: number } | null {
  const reader = new FileReader(fd);
  for (let at = 8; at < reader.size; ) {
    const sectionId = reader.bytes(at, 1)[0]!;
    const { value: size, next: start } = reader.leb(at + 1);
    if (sectionId === id) return { position: start, size };
    at = start + size;
  }
  return null;
}

/** Reads `length` bytes at `position` of the file `fd` into `target`; the count read (less only at the file's end). */
export function readFully(fd: number, target: Uint8Array, position: number, length = target.length): number {
  let done = 0;
  for (let read; done < length && (read = readSync(fd, target, done, length - done, position + done)) > 0; ) done += read;
  return done;
}

/**
 * The active data segments of memory 0 of at least `minBytes` in `file`:
 * where each sits in linear memory and in the file. Readers of data a module embeds (the
 * dictionaries in src/kernels/dictionaries/) find it there without instantiating the module.
 */
export function largeDataSegments(file: string, minBytes = 1 << 20): DataSegment[] {
  const fd = openSync(file, 'r');
  try {
    const section = moduleSection(fd, DATA_SECTION);
    const segments: DataSegment[] = [];
    if (section !== null) collectSegments(new FileReader(fd), section.position, section.size, minBytes, segments);
    return segments;
  } finally {
    closeSync(fd);
  }
}

/** Appends to `segments` the segments of the data section at `start` that are active at a constant offset and of at least `minBytes`. */
function collectSegments(reader: FileReader, start: number, size: number, minBytes: number, segments: DataSegment[]): void {
  const { value: count, next } = reader.leb(start);
  let at = next;
  for (let i = 0; i < count; i++) {
    const segmentStart = at;
    const offset = constantOffset(reader.bytes(at, Math.min(32, start + size - at)));
    if (offset === null) {
      at = skipSegment(reader, at);
      continue;
    }
    const { value: length, next: dataStart } = reader.leb(segmentStart + offset.end);
    at = dataStart + length;
    if (length >= minBytes) segments.push({ offset: offset.value, position: dataStart, length });
  }
}

/** A segment `flags 0, i32.const N, end`: N and where its length starts in `head`; else null. */
function constantOffset(head: Uint8Array): { value: number; end: number } | null {
  if (head[0] !== 0 || head[1] !== I32_CONST) return null;
  let value = 0;
  let shift = 0;
  let at = 2;
  let byte: number;
  do {
    byte = head[at++]!;
    value |= (byte & 0x7f) << shift;
    shift += 7;
  } while ((byte & 0x80) !== 0 && at < head.length);
  if (shift < 32 && (byte & 0x40) !== 0) value |= -1 << shift;
  if (head[at] !== END || value < 0) return null;
  return { value, end: at + 1 };
}

/** The end of a segment that is not listed: its flags, then memory index and offset expression or nothing, then its bytes. */
function skipSegment(reader: FileReader, at: number): number {
  const { value: flags, next } = reader.leb(at);
  let cursor = next;
  if (flags === 2) cursor = reader.leb(cursor).next;
  if (flags !== 1) cursor = reader.endOfExpression(cursor);
  const { value: length, next: dataStart } = reader.leb(cursor);
  return dataStart + length;
}

/**
 * Reads a file by position through one window of WINDOW bytes: a module's sections and segment
 * heads are read a few bytes at a time, thousands of them in lindera's module.
 */
class FileReader {
  readonly size: number;
  private readonly window = new Uint8Array(WINDOW);
  private windowStart = 0;
  private windowLength = 0;

  constructor(private readonly fd: number) {
    this.size = fstatSync(fd).size;
  }

  /** Up to `length` (at most WINDOW) bytes from `position`, fewer at the file's end; valid until the next read. */
  bytes(position: number, length: number): Uint8Array {
    if (position < this.windowStart || position + length > this.windowStart + this.windowLength) {
      this.windowStart = position;
      this.windowLength = readFully(this.fd, this.window, position);
    }
    const from = position - this.windowStart;
    return this.window.subarray(from, Math.min(from + length, this.windowLength));
  }

  /** An unsigned LEB128 at `position` (of at most `maxBytes`) and the position after it. */
  leb(position: number, maxBytes = 5): { value: number; next: number } {
    const head = this.bytes(position, maxBytes);
    let value = 0;
    for (let i = 0; i < head.length; i++) {
      value += (head[i]! & 0x7f) * 2 ** (7 * i);
      if ((head[i]! & 0x80) === 0) return { value, next: position + i + 1 };
    }
    throw new Error(`bad LEB128 at byte ${position}`);
  }

  /** The position after a constant expression's `end` (constants, global.get, integer add/sub/mul). */
  endOfExpression(position: number): number {
    for (let at = position; ; ) {
      const opcode = this.bytes(at, 1)[0];
      at += 1;
      if (opcode === END) return at;
      if (opcode === I32_CONST || opcode === I64_CONST || opcode === GLOBAL_GET) at = this.leb(at, 10).next;
      else if (opcode === undefined || !INTEGER_ARITHMETIC.has(opcode)) throw new Error(`unsupported data segment offset at byte ${at - 1}`);
    }
  }
}
