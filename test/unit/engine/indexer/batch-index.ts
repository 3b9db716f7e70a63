/**
 * A real index environment in a temp dir for the document batch tests (indexer/, shards/): the
 * index `index` with its filterable attributes set, and its removal after the test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IndexEnvs, type IndexEnv } from '../../../../src/engine/index-env.js';
import { writeSettings } from '../../../../src/engine/index-settings.js';
import { defaultSettings } from '../../../../src/types/settings.js';

export interface BatchIndex {
  /** the temp dir, where tests also write their payload files */
  readonly dir: string;
  readonly envs: IndexEnvs;
  readonly env: IndexEnv;
}

/** A fresh temp dir holding the index `index`, default settings but `filterableAttributes`. */
export function openBatchIndex(prefix: string, filterableAttributes: string[]): BatchIndex {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const envs = new IndexEnvs(dir);
  const env = envs.get('index');
  env.root.transactionSync(() => writeSettings(env, { ...defaultSettings(), filterableAttributes }));
  return { dir, envs, env };
}

/** Closes every environment of `index` and removes its temp dir. */
export async function closeBatchIndex(index: Pick<BatchIndex, 'dir' | 'envs'>): Promise<void> {
  await index.envs.closeAll();
  rmSync(index.dir, { recursive: true, force: true });
}
