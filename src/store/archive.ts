/**
 * Gzip-compressed tar archives of a directory, as dumps and snapshots are: packed from a folder
 * built on disk (`tarballOf` streams one, to a file or to S3) and unpacked to one, streaming, so an
 * archive never sits in memory.
 *
 * `packDirectory` writes `<target>.tmp` and renames it only once the archive is complete and
 * synced: a crash (or a kill -9) mid-way never leaves a partial archive under the final name.
 * `extractArchive` takes archives from other producers too (dumps-snapshots-upgrade.md §3.1):
 * `./`-prefixed or bare names, PAX headers, AppleDouble `._name` files (skipped), and refuses any
 * entry that would land outside the target folder.
 */
import { createReadStream, createWriteStream, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Pack } from 'tar-stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

/** tar-stream, loaded with the first archive: the server's start does not pay for it. */
async function tarStream() {
  return (await import('tar-stream')).default;
}

/** Entries of `dir`, parents before children, paths relative to it with `/` separators. */
function* walk(dir: string, prefix = ''): Generator<{ name: string; full: string; isDir: boolean }> {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    const name = `${prefix}${entry.name}`;
    if (entry.isDirectory()) {
      yield { name: `${name}/`, full, isDir: true };
      yield* walk(full, `${name}/`);
    } else if (entry.isFile()) {
      yield { name, full, isDir: false };
    }
  }
}

/**
 * The content of `dir` as a gzip tar stream at gzip `level` (zlib's default unless given), rooted
 * at `./` as Meilisearch's archives are, read from disk only as fast as the stream is read.
 * `signal` aborts between entries: the stream then fails with its reason.
 */
export function tarballOf(dir: string, signal?: AbortSignal, level?: number): Readable {
  const gzip = createGzip(level === undefined ? {} : { level });
  void (async () => {
    let pack: Pack;
    try {
      pack = (await tarStream()).pack();
    } catch (err) {
      gzip.destroy(err as Error);
      return;
    }
    const packed = pipeline(pack, gzip);
    try {
      const mtime = new Date();
      pack.entry({ name: './', type: 'directory', mode: 0o755, mtime });
      for (const entry of walk(dir)) {
        signal?.throwIfAborted();
        if (entry.isDir) {
          pack.entry({ name: `./${entry.name}`, type: 'directory', mode: 0o755, mtime });
          continue;
        }
        const sink = pack.entry({ name: `./${entry.name}`, type: 'file', mode: 0o644, size: statSync(entry.full).size, mtime });
        await pipeline(createReadStream(entry.full), sink);
      }
      pack.finalize();
      await packed;
    } catch (err) {
      pack.destroy();
      gzip.destroy(err as Error);
      await packed.catch(() => {});
    }
  })();
  return gzip;
}

/**
 * Packs the content of `dir` into the gzip tar `target` (`tarballOf`). `signal` aborts between
 * entries (the partial `.tmp` file is removed).
 */
export async function packDirectory(dir: string, target: string, signal?: AbortSignal): Promise<void> {
  const tmp = `${target}.tmp`;
  try {
    await pipeline(tarballOf(dir, signal), createWriteStream(tmp));
    const handle = await open(tmp, 'r+');
    await handle.sync();
    await handle.close();
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  await rename(tmp, target);
}

/** The path of an archive entry inside the target, or null for entries to skip. */
function entryPath(name: string): string | null {
  const parts = name.split('/').filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.includes('..') || parts.at(-1)!.startsWith('._')) return null;
  return parts.join(path.sep);
}

/** Unpacks the gzip tar `file` into `dir` (created if needed); `onRead` counts the archive's bytes as they are read. */
export async function extractArchive(file: string, dir: string, onRead?: (bytes: number) => void): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const extract = (await tarStream()).extract();
  const source = createReadStream(file);
  if (onRead !== undefined) source.on('data', (chunk) => onRead(chunk.length));
  const read = pipeline(source, createGunzip(), extract);
  // A cut or corrupt archive fails `read` (gunzip's error) while the loop below awaits a file's
  // write: observed only at the end, that rejection would be unhandled and end the process.
  read.catch(() => {});
  try {
    for await (const entry of extract) {
      const relative = entryPath(entry.header.name);
      if (relative === null || (entry.header.type !== 'file' && entry.header.type !== 'directory')) {
        entry.resume();
        continue;
      }
      const target = path.join(dir, relative);
      if (entry.header.type === 'directory') {
        mkdirSync(target, { recursive: true });
        entry.resume();
      } else {
        mkdirSync(path.dirname(target), { recursive: true });
        await pipeline(entry, createWriteStream(target));
      }
    }
  } catch (err) {
    extract.destroy();
    // the archive's own error says more than the write it interrupted (a premature close)
    throw await read.then(
      () => err,
      (readError: unknown) => readError,
    );
  }
  await read;
}
