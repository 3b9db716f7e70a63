/**
 * jieba's dictionary (dict.txt) as jieba-wasm 2.4.0 carries it, read from the module file without
 * instantiating the module, so that nothing is copied into this repository. jieba-rs embeds it
 * with include-flate, which deflates it at build time (raw DEFLATE, libflate's encoder) into a byte
 * string of the module's read-only data, a large active data segment, and inflates it on first
 * use. No header says where that string starts, but the code that inflates it loads its address as
 * a constant. So the candidates are the `i32.const` operands in the code section that point into a
 * large data segment, tried in increasing order: the first whose bytes inflate to lines of
 * `word frequency tag` is the dictionary. The code section is scanned a window at a time; a
 * candidate's first PROBE_BYTES are inflated, then the dictionary whole (2 MB deflated, 5 MB of
 * text, both garbage once the words are read).
 */
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { constants, inflateRawSync } from 'node:zlib';
import { largeDataSegments, moduleSection, readFully, type DataSegment } from '../wasm-file.js';

const CODE_SECTION = 10;
const I32_CONST = 0x41;
/** Data segments smaller than this hold no dictionary. */
const MIN_SEGMENT = 1 << 16;
/** Bytes of the code section scanned at a time. */
const SCAN_WINDOW = 1 << 16;
/** The most bytes an `i32.const` operand takes. */
const MAX_OPERAND = 5;
/** Lines a candidate's first PROBE_BYTES must inflate to. */
const PROBE_LINES = 64;
const PROBE_BYTES = 1 << 12;
/** A line of dict.txt as jieba ships it: word, frequency, part-of-speech tag. */
const ENTRY = /^\S+ \d+ [a-z]+$/u;

/** The module file jieba-wasm's Node.js build instantiates. */
export function jiebaModuleFile(): string {
  return join(dirname(createRequire(import.meta.url).resolve('jieba-wasm')), 'jieba_rs_wasm_bg.wasm');
}

/**
 * Finds dict.txt in `file` and runs `read` with its text, inflated. Throws if no candidate inflates
 * to dict.txt's lines.
 */
export function withEmbeddedJiebaDictionary<T>(read: (text: Uint8Array) => T, file = jiebaModuleFile()): T {
  const segments = largeDataSegments(file, MIN_SEGMENT);
  const fd = openSync(file, 'r');
  try {
    for (const address of addressesInto(fd, segments)) {
      const segment = segments.find(({ offset, length }) => address >= offset && address < offset + length)!;
      const position = segment.position + address - segment.offset;
      const end = segment.position + segment.length;
      // The deflated text ends inside its segment: inflating stops at its end.
      if (readsAsDictionary(readBytes(fd, position, Math.min(PROBE_BYTES, end - position)))) return read(inflateRawSync(readBytes(fd, position, end - position)));
    }
  } finally {
    closeSync(fd);
  }
  throw new Error(`${file}: found no deflated jieba dictionary (lines of "word frequency tag") in its data segments`);
}

function readBytes(fd: number, position: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  return bytes.subarray(0, readFully(fd, bytes, position));
}

/** The distinct `i32.const` operands of the code section that fall in one of `segments`, in increasing order. */
function addressesInto(fd: number, segments: readonly DataSegment[]): number[] {
  // Scans bytes, not instructions: a 0x41 that is no opcode only adds a candidate the probe rejects.
  const code = moduleSection(fd, CODE_SECTION);
  if (code === null) throw new Error('the jieba module has no code section');
  const { position, size } = code;
  const window = Buffer.allocUnsafe(SCAN_WINDOW);
  const found = new Set<number>();
  for (let at = position; at < position + size; ) {
    const length = readFully(fd, window, at, Math.min(SCAN_WINDOW, position + size - at));
    // Operands may run past this window but for the last: those go with the next one.
    const scanned = at + length < position + size ? length - MAX_OPERAND : length;
    for (let opcode = window.indexOf(I32_CONST); opcode >= 0 && opcode < scanned; opcode = window.indexOf(I32_CONST, opcode + 1)) {
      let value = 0;
      let shift = 0;
      let byte = 0x80;
      for (let next = opcode + 1; (byte & 0x80) !== 0 && shift < 35 && next < length; shift += 7) {
        byte = window[next++]!;
        value |= (byte & 0x7f) << shift;
      }
      if (shift < 32 && (byte & 0x40) !== 0) value |= -1 << shift;
      for (const { offset, length: bytes } of segments) if (value >= offset && value < offset + bytes) found.add(value);
    }
    at += scanned;
  }
  return [...found].sort((a, b) => a - b);
}

/** Whether `deflated`, the start of a candidate, inflates to PROBE_LINES lines of dict.txt. */
function readsAsDictionary(deflated: Uint8Array): boolean {
  try {
    const output = inflateRawSync(deflated, { finishFlush: constants.Z_SYNC_FLUSH });
    let end = 0;
    for (let line = 0; line < PROBE_LINES; line++) if ((end = output.indexOf(0x0a, end) + 1) === 0) return false;
    return new TextDecoder('utf-8', { fatal: true }).decode(output.subarray(0, end - 1)).split('\n').every((line) => ENTRY.test(line));
  } catch {
    // Not DEFLATE, or not UTF-8.
    return false;
  }
}
