/**
 * Converts one index environment from an older storage format to the current one (store/env.ts
 * lists the formats), in one transaction that also records its new format, so an environment is
 * either wholly converted or untouched. The caller converts a copy of the index (tasks/process/
 * upgrade.ts), never the environment searches read.
 *   1 → 2: postings of more than BLOCK_ENTRIES documents, stored whole, are split into blocks
 *          (posting-blocks.ts), for words and prefixes.
 *   2 → 3: every posting and block still in the columns layout is packed (words/postings.ts).
 *   3 → 4: every document stored as msgpack is stored as its JSON text (documents/store.ts).
 */
import { STORE_FORMAT_VERSION } from '../store/env.js';
import { INDEX_MAIN_KEYS } from './index-read-env.js';
import { type IndexEnv } from './index-env.js';
import { storeAsJson } from './documents/store.js';
import { packColumnPostings, prefixPostings, splitOversizedPostings, wordPostings } from './words/posting-blocks.js';

/** The format the environment records, or `fallback` (its instance's) when it records none. */
export function indexFormat(env: IndexEnv, fallback: number): number {
  const recorded = env.main.get(INDEX_MAIN_KEYS.format);
  return typeof recorded === 'number' ? recorded : fallback;
}

/** Records the current format in an environment being written (inside the write's transaction). */
export function stampIndexFormat(env: IndexEnv): void {
  if (env.main.get(INDEX_MAIN_KEYS.format) !== STORE_FORMAT_VERSION) env.main.putSync(INDEX_MAIN_KEYS.format, STORE_FORMAT_VERSION);
}

/** What `upgradeIndexEnv` converted. */
export interface IndexUpgrade {
  /** postings stored whole that it split into blocks */
  split: number;
  /** values (postings and blocks) it packed */
  packed: number;
  /** documents it stored as their JSON text */
  documents: number;
}

/** Converts `env` from format `from`. `checkpoint` throws to interrupt (nothing is then written). */
export function upgradeIndexEnv(env: IndexEnv, from: number, checkpoint: () => void): IndexUpgrade {
  return env.root.transactionSync(() => {
    let split = 0;
    let packed = 0;
    let documents = 0;
    if (from < 2) split += splitOversizedPostings(wordPostings(env), checkpoint) + splitOversizedPostings(prefixPostings(env), checkpoint);
    if (from < 3) packed += packColumnPostings(env.wordDocids, checkpoint) + packColumnPostings(env.prefixDocids, checkpoint) + packColumnPostings(env.postingBlocks, checkpoint);
    if (from < 4) documents += storeAsJson(env, checkpoint);
    stampIndexFormat(env);
    return { split, packed, documents };
  });
}
