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
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateRawSync } from 'node:zlib';

import { ResizableArrayBuffer } from '../resizable-buffer.js';
import { largeDataSegments, readFully } from '../wasm-file.js';

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
/**
 * zlib's output chunk: larger than any file, so a file is inflated into one chunk, never joined
 * from zlib's default 16 KiB chunks (which would stay behind in the heap), and above glibc's
 * largest mmap threshold (32 MiB), so the allocator maps it: only the pages written become
 * resident, and it is unmapped whole when collected.
 */
const LARGE_CHUNK = 1 << 26;

export const LINDERA_MODULE_FILE = createRequire(import.meta.url).resolve('lindera-wasm/lindera_wasm_bg.wasm');

let found: readonly DictionaryFiles[] | undefined;

/** Every dictionary embedded in lindera-wasm's module, in the order they lie there. */
export function embeddedDictionaries(): readonly DictionaryFiles[] {
  if (found === undefined) {
    const fd = openSync(LINDERA_MODULE_FILE, 'r');
    try {
      found = largeDataSegments(LINDERA_MODULE_FILE).flatMap(({ position, length }) => scanSegment(fd, position, position + length));
    } finally {
      closeSync(fd);
    }
    if (found.length === 0) throw new Error(`${LINDERA_MODULE_FILE}: no embedded lindera dictionary found (a chain of ${FILE_NAMES.length} Deflate-compressed files)`);
  }
  return found;
}

/**
 * Reads and inflates embedded files. A file's compressed bytes are read into a resizable buffer,
 * shrunk to nothing once the file is inflated, which gives its pages back at once rather than
 * leave them to V8's next collection; the one buffer serves every file the reader reads. (zlib's
 * output cannot be given back early: only detaching it would, by a transfer on a closed message
 * port, and once any buffer of a thread is detached V8's optimized code checks every typed array
 * access for it there: segmenting ran 7% slower.)
 */
export class EmbeddedFileReader {
  private readonly fd = openSync(LINDERA_MODULE_FILE, 'r');
  private readonly input: ResizableArrayBuffer;

  /** `capacity`: the largest compressed length to be read. */
  constructor(capacity: number) {
    this.input = new ResizableArrayBuffer(0, { maxByteLength: capacity });
  }

  /**
   * `file` inflated, in a zlib chunk of `LARGE_CHUNK` bytes of which only the file's pages are
   * resident: bytes kept as they are (dict.da) stay there, with no copy into a buffer of their
   * size, which would hold them twice until collected.
   */
  inflate(file: CompressedFile): Buffer {
    this.input.resize(file.length);
    try {
      const input = new Uint8Array(this.input, 0, file.length);
      if (readFully(this.fd, input, file.position) < file.length) throw new Error(`${LINDERA_MODULE_FILE} ended inside an embedded dictionary file`);
      return inflateRawSync(input, { chunkSize: LARGE_CHUNK });
    } finally {
      this.input.resize(0);
    }
  }

  close(): void {
    closeSync(this.fd);
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
    if (read < HEADER_BYTES) throw new Error(`${LINDERA_MODULE_FILE} ended inside its data segment`);
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
