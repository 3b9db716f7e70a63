/**
 * Writes dump archives by hand, shaped as Meilisearch writes them (dumps-snapshots-upgrade.md §3.1):
 * a gzip tar whose root entry is `./` and whose names are `./`-prefixed. For import tests that
 * need a dump Quarry would not produce itself (another engine version, Meilisearch's own files).
 */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';

/** One compact JSON value a line, each line ended by `\n`, as in `.jsonl` files of a dump. */
export const jsonl = (values: unknown[]): string => values.map((value) => `${JSON.stringify(value)}\n`).join('');

/** `files` maps a path inside the dump to its content. */
export async function writeArchive(file: string, files: Record<string, string | Buffer>): Promise<void> {
  const pack = tar.pack();
  const done = pipeline(pack, createGzip(), createWriteStream(file));
  pack.entry({ name: './', type: 'directory' });
  for (const [name, content] of Object.entries(files)) pack.entry({ name: `./${name}` }, content);
  pack.finalize();
  await done;
}
