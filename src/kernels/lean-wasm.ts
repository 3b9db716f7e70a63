/**
 * Compiling a WebAssembly module without its large data segments, which are then read from the
 * file straight into the instance's memory. A module that embeds data (lindera's 40 MB of
 * compressed dictionaries) otherwise holds it twice for its whole life: in the compiled module,
 * which keeps its wire bytes, and in the linear memory instantiation copies it to; plus, while
 * loading, the file read whole into a buffer. Here the file is read in pieces, the compiled module
 * keeps every segment under `minBytes` and an empty segment in place of each larger one (segment
 * indexes unchanged), and `install` writes the large ones where instantiation would have.
 *
 * Only active segments of memory 0 at an `i32.const` offset are moved (the form a linker emits);
 * any other is kept. `install` must run right after instantiation, before the module's code runs
 * (a module with a start function, which runs during instantiation, must not be loaded this way).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { WasmMemory } from './arena.js';
import type { WasmModule } from './module.js';

/** lib ES2023 and @types/node do not declare the WebAssembly API (as in module.ts). */
const { Module } = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => WasmModule } }).WebAssembly;

export interface LeanModule {
  readonly module: WasmModule;
  /** Writes the moved segments into `memory`, the instance's (memory 0). */
  install(memory: WasmMemory): void;
}

interface MovedSegment {
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

export function compileLean(file: string, minBytes = 1 << 20): LeanModule {
  const moved: MovedSegment[] = [];
  const fd = openSync(file, 'r');
  try {
    const reader = new FileReader(fd);
    const out: Uint8Array[] = [reader.bytes(0, 8)];
    for (let at = 8; at < reader.size; ) {
      const id = reader.bytes(at, 1)[0]!;
      const { value: size, next: start } = reader.leb(at + 1);
      if (id === DATA_SECTION) out.push(leanDataSection(reader, start, size, minBytes, moved));
      else out.push(reader.bytes(at, start + size - at));
      at = start + size;
    }
    return { module: new Module(concat(out)), install: (memory) => install(file, moved, memory) };
  } finally {
    closeSync(fd);
  }
}

/** The data section (id and size included) with each large movable segment emptied. */
function leanDataSection(reader: FileReader, start: number, size: number, minBytes: number, moved: MovedSegment[]): Uint8Array {
  const body: Uint8Array[] = [];
  const { value: count, next } = reader.leb(start);
  body.push(reader.bytes(start, next - start));
  let at = next;
  for (let i = 0; i < count; i++) {
    const segmentStart = at;
    const head = reader.bytes(at, Math.min(32, start + size - at));
    const offset = constantOffset(head);
    if (offset === null) {
      at = skipSegment(reader, at);
      body.push(reader.bytes(segmentStart, at - segmentStart));
      continue;
    }
    const { value: length, next: dataStart } = reader.leb(segmentStart + offset.end);
    at = dataStart + length;
    if (length < minBytes) {
      body.push(reader.bytes(segmentStart, at - segmentStart));
    } else {
      moved.push({ offset: offset.value, position: dataStart, length });
      body.push(reader.bytes(segmentStart, offset.end), Uint8Array.of(0));
    }
  }
  const content = concat(body);
  return concat([Uint8Array.of(DATA_SECTION), encodeLeb(content.length), content]);
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

/** The end of a segment kept as it is: its flags, then memory index and offset expression or nothing, then its bytes. */
function skipSegment(reader: FileReader, at: number): number {
  const { value: flags, next } = reader.leb(at);
  let cursor = next;
  if (flags === 2) cursor = reader.leb(cursor).next;
  if (flags !== 1) cursor = reader.endOfExpression(cursor);
  const { value: length, next: dataStart } = reader.leb(cursor);
  return dataStart + length;
}

function install(file: string, moved: readonly MovedSegment[], memory: WasmMemory): void {
  const fd = openSync(file, 'r');
  try {
    const reader = new FileReader(fd);
    for (const { offset, position, length } of moved) {
      if (reader.readInto(new Uint8Array(memory.buffer, offset, length), position) < length) throw new Error(`${file} ended inside a data segment`);
    }
  } finally {
    closeSync(fd);
  }
}

/** Reads a file by position, a small window at a time. */
class FileReader {
  readonly size: number;
  constructor(private readonly fd: number) {
    this.size = fstatSync(fd).size;
  }

  /** Up to `length` bytes from `position` (fewer at the file's end). */
  bytes(position: number, length: number): Uint8Array {
    const bytes = new Uint8Array(length);
    return bytes.subarray(0, this.readInto(bytes, position));
  }

  /** Fills `target` from `position`; the count read (less only at the file's end). */
  readInto(target: Uint8Array, position: number): number {
    let done = 0;
    for (let read; done < target.length && (read = readSync(this.fd, target, done, target.length - done, position + done)) > 0; ) done += read;
    return done;
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

function encodeLeb(value: number): Uint8Array {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return Uint8Array.from(out);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
