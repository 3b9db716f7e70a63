/**
 * A cheap look at an LMDB `data.mdb` before lmdb-js maps it: lmdb-js crashes the process
 * (SIGSEGV) on a file whose meta pages are not LMDB's, and a read of a page past the end of a cut
 * file is a SIGBUS, on this start and every later one. v1.50's LMDB answers MDB_INVALID instead.
 *
 * Read from the two meta pages (lmdb-js's LMDB: a 24-byte page header, data version 2), the
 * checks are: LMDB's magic and version, a page size LMDB could have chosen, a file of whole pages
 * holding both meta pages, and the roots of the free and main trees inside the file. The last
 * used page (`mm_last_pg`) is not held against the size: LMDB does not write a page freed in the
 * transaction that allocated it, so a sound file may end before it.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const MAGIC = 0xbeefc0de;
/** lmdb-js's MDB_DATA_VERSION (the low 16 bits of mm_version) */
const DATA_VERSION = 2;
/** MDB_page_header: pgno, txnid, pad, flags, lower/upper */
const PAGE_HEADER = 24;
/** Offsets inside MDB_meta (after the page header). */
const META = { magic: 0, version: 4, pageSize: 24, freeRoot: 64, mainRoot: 112, txnid: 128 } as const;
const META_BYTES = META.txnid + 8;
/** An empty tree's root (P_INVALID) */
const NO_ROOT = 0xffffffffffffffffn;
const MIN_PAGE = 512;
const MAX_PAGE = 0x10000;

interface Meta {
  pageSize: number;
  roots: bigint[];
  txnid: bigint;
}

function readMeta(fd: number, offset: number): Meta | string {
  const page = Buffer.alloc(PAGE_HEADER + META_BYTES);
  if (readSync(fd, page, 0, page.length, offset) !== page.length) return 'a meta page is cut';
  const meta = page.subarray(PAGE_HEADER);
  if (meta.readUInt32LE(META.magic) !== MAGIC) return 'File is not an LMDB file';
  const version = meta.readUInt32LE(META.version) & 0xffff;
  if (version !== DATA_VERSION) return `its data version is ${version}, not ${DATA_VERSION}`;
  const pageSize = meta.readUInt32LE(META.pageSize);
  if (pageSize < MIN_PAGE || pageSize > MAX_PAGE || (pageSize & (pageSize - 1)) !== 0) return `its page size ${pageSize} is no LMDB page size`;
  return { pageSize, roots: [meta.readBigUInt64LE(META.freeRoot), meta.readBigUInt64LE(META.mainRoot)], txnid: meta.readBigUInt64LE(META.txnid) };
}

/** Why the LMDB data file `file` cannot be opened safely, or null when it looks sound. */
export function lmdbFileProblem(file: string): string | null {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size < 2 * MIN_PAGE) return `MDB_INVALID: it holds ${size} bytes, less than LMDB's two meta pages`;
    const first = readMeta(fd, 0);
    if (typeof first === 'string') return `MDB_INVALID: ${first}`;
    const { pageSize } = first;
    if (size % pageSize !== 0 || size < 2 * pageSize) return `MDB_INVALID: it is cut (${size} bytes are not two or more whole ${pageSize}-byte pages)`;
    const second = readMeta(fd, pageSize);
    if (typeof second === 'string') return `MDB_INVALID: ${second}`;
    const pages = BigInt(size / pageSize);
    const newer = second.txnid > first.txnid ? second : first;
    if (newer.roots.some((root) => root !== NO_ROOT && root >= pages)) return `MDB_INVALID: it is cut (its trees start past its ${pages} pages)`;
    return null;
  } finally {
    closeSync(fd);
  }
}
