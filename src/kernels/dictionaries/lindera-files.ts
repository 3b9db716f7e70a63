/**
 * The dictionary files lindera-wasm's module embeds, found and inflated straight from its file,
 * without instantiating the module.
 *
 * lindera-wasm 1.1.0 (lindera 1.2.0) compiles IPADIC, ko-dic and CC-CEDICT into its one large data
 * segment: per dictionary, 7 files one right after the other, in the order of `FILE_NAMES` (that
 * of lindera-ipadic's and lindera-ko-dic's embedded.rs), other static data lying between
 * dictionaries. Each file is a bincode (legacy config) `CompressedData { algorithm: u32, data:
 * Vec<u8> }`: algorithm 0 is raw Deflate, the vector a u64 length then its bytes. Instantiated, the
 * module inflates every file of a dictionary into its memory, the 33 to 40 MB of word details of
 * dict.words included, and never gives that memory back; reading only the files segmentation needs
 * costs only them.
 *
 * A dictionary is found as a chain of 7 such headers, each file starting where the previous one
 * ends. The segment is scanned byte by byte for a plausible header (algorithm 0, a length that is
 * not 0 and fits), the chain checked from there, and a chain found is skipped whole: only the
 * bytes before and between dictionaries are scanned (about 17 KB of 40 MB), a few reads in all.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { constants, inflateRawSync } from 'node:zlib';

import { largeDataSegments } from '../wasm-data-segments.js';

/** A dictionary's files, in the order they are embedded. */
export const FILE_NAMES = ['char_def.bin', 'matrix.mtx', 'dict.da', 'dict.vals', 'unk.bin', 'dict.wordsidx', 'dict.words'] as const;

export type FileName = (typeof FILE_NAMES)[number];

/** A file's compressed bytes: where they lie in the module file. */
export interface CompressedFile {
  readonly position: number;
  readonly length: number;
}

/** One embedded dictionary: each of its files, by name. */
export type DictionaryFiles = Readonly<Record<FileName, CompressedFile>>;

/** bincode's `CompressedData` header: the u32 algorithm, then the data's u64 length. */
const HEADER_BYTES = 12;
const DEFLATE = 0;
/** Bytes of the segment read at a time while scanning. */
const SCAN_WINDOW = 1 << 16;
/** Compressed bytes first inflated for a file's head. */
const HEAD_BYTES = 1 << 12;
/** zlib's output chunk for a whole file: larger than any read. */
const LARGE_CHUNK = 1 << 26;

const MODULE_FILE = createRequire(import.meta.url).resolve('lindera-wasm/lindera_wasm_bg.wasm');

let found: readonly DictionaryFiles[] | undefined;

/** Every dictionary embedded in lindera-wasm's module, in the order they lie there. */
export function embeddedDictionaries(): readonly DictionaryFiles[] {
  if (found === undefined) {
    const fd = openSync(MODULE_FILE, 'r');
    try {
      found = largeDataSegments(MODULE_FILE).flatMap(({ position, length }) => scanSegment(fd, position, position + length));
    } finally {
      closeSync(fd);
    }
    if (found.length === 0) throw new Error(`${MODULE_FILE}: no embedded lindera dictionary found (a chain of ${FILE_NAMES.length} Deflate-compressed files)`);
  }
  return found;
}

/**
 * Reads and inflates embedded files, their compressed bytes read into one buffer kept for the
 * reader's life (a reader reads some files of a dictionary, then is closed and dropped).
 */
export class EmbeddedFileReader {
  private readonly fd = openSync(MODULE_FILE, 'r');
  private input: Buffer;

  /** `capacity`: the largest compressed length to be read, for the buffer to be allocated once. */
  constructor(capacity: number) {
    this.input = Buffer.allocUnsafeSlow(capacity);
  }

  /** The start of `file` inflated: at least `count` bytes unless the file is shorter. */
  head(file: CompressedFile, count: number): Buffer {
    let compressed = Math.min(file.length, HEAD_BYTES);
    for (;;) {
      const head = inflateRawSync(this.read(file, compressed), { finishFlush: constants.Z_SYNC_FLUSH });
      if (head.length >= count || compressed === file.length) return head;
      compressed = Math.min(file.length, compressed * 2);
    }
  }

  /**
   * `file` inflated, for bytes read once and dropped. The output goes into one zlib chunk larger
   * than any file, which the allocator maps (it is above glibc's largest mmap threshold, 32 MiB),
   * of which only the pages written become resident, and which is unmapped whole when collected;
   * zlib's default 16 KiB chunks, joined at the end, would stay behind in the heap.
   */
  inflate(file: CompressedFile): Buffer {
    return inflateRawSync(this.read(file, file.length), { chunkSize: LARGE_CHUNK });
  }

  /**
   * `file` inflated into a buffer of exactly its size, for bytes kept. `size`, if given, is the size
   * it inflates to: the output then goes straight into such a buffer; else it is copied out of
   * `inflate`'s.
   */
  inflateToKeep(file: CompressedFile, size?: number): Buffer {
    if (size !== undefined) return inflateRawSync(this.read(file, file.length), { chunkSize: Math.max(size, constants.Z_MIN_CHUNK) });
    const output = this.inflate(file);
    const exact = Buffer.allocUnsafeSlow(output.length);
    output.copy(exact);
    return exact;
  }

  close(): void {
    closeSync(this.fd);
  }

  /** The first `length` compressed bytes of `file`. */
  private read(file: CompressedFile, length: number): Buffer {
    if (this.input.length < length) this.input = Buffer.allocUnsafeSlow(length);
    const input = this.input.subarray(0, length);
    if (readFully(this.fd, input, file.position) < length) throw new Error(`${MODULE_FILE} ended inside an embedded dictionary file`);
    return input;
  }
}

/** The dictionaries in the segment [from, to) of the file. */
function scanSegment(fd: number, from: number, to: number): DictionaryFiles[] {
  const dictionaries: DictionaryFiles[] = [];
  const window = Buffer.allocUnsafe(SCAN_WINDOW);
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  const readHeader = (at: number): number => (readFully(fd, header, at, HEADER_BYTES) === HEADER_BYTES ? dataLength(header, 0, at, to) : 0);
  let at = from;
  while (at + HEADER_BYTES <= to) {
    const read = readFully(fd, window, at, Math.min(SCAN_WINDOW, to - at));
    if (read < HEADER_BYTES) throw new Error(`${MODULE_FILE} ended inside its data segment`);
    // Positions whose whole header is in the window; the next window starts at the first other one.
    const last = read - HEADER_BYTES;
    let next = at + last + 1;
    for (let offset = 0; offset <= last; offset++) {
      if (dataLength(window, offset, at + offset, to) === 0) continue;
      const chain = chainFrom(at + offset, readHeader);
      if (chain !== undefined) {
        dictionaries.push(chain.files);
        next = chain.end;
        break;
      }
    }
    at = next;
  }
  return dictionaries;
}

/** The 7 files of a dictionary whose first header is at `at`, and where the last one ends; undefined if the chain breaks. */
function chainFrom(at: number, readHeader: (at: number) => number): { files: DictionaryFiles; end: number } | undefined {
  const files = {} as Record<FileName, CompressedFile>;
  let position = at;
  for (const name of FILE_NAMES) {
    const length = readHeader(position);
    if (length === 0) return undefined;
    files[name] = { position: position + HEADER_BYTES, length };
    position += HEADER_BYTES + length;
  }
  return { files, end: position };
}

/** The data length of a plausible Deflate file header at `bytes[offset]` (file position `at`), else 0. */
function dataLength(bytes: Buffer, offset: number, at: number, segmentEnd: number): number {
  if (bytes.readUInt32LE(offset) !== DEFLATE || bytes.readUInt32LE(offset + 8) !== 0) return 0;
  const length = bytes.readUInt32LE(offset + 4);
  return at + HEADER_BYTES + length <= segmentEnd ? length : 0;
}

/** Reads `length` bytes at `position` into `target`; the count read (less only at the file's end). */
function readFully(fd: number, target: Uint8Array, position: number, length = target.length): number {
  let done = 0;
  for (let read; done < length && (read = readSync(fd, target, done, length - done, position + done)) > 0; ) done += read;
  return done;
}
