// StatsService reads each index's statistics as stored at commit and opens no index environment
// for them; an index no batch wrote since is measured from its environment once, and one nothing
// opened yet counts as empty without being created on disk.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexEnvs } from '../../../src/engine/index-env.js';
import { IndexRegistry, type IndexRecord } from '../../../src/indexes/registry.js';
import { StatsService } from '../../../src/indexes/stats.js';
import { IndexStatsStore, type MeasuredIndex } from '../../../src/indexes/stats-store.js';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';

let dir: string;
let store: InstanceStore;
let envs: IndexEnvs;
let registry: IndexRegistry;
let service: StatsService;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-stats-service-'));
  store = openInstanceStore(dir, '0.1.0');
  envs = new IndexEnvs(dir, 2);
  registry = new IndexRegistry(store);
  service = new StatsService(store, registry, envs, () => new Set(['busy']));
});

afterEach(async () => {
  await envs.closeAll();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function index(uid: string): IndexRecord {
  const record = registry.newRecord(uid, 'id', 1_000n);
  registry.put(record);
  return record;
}

const STORED: MeasuredIndex = {
  numberOfDocuments: 3,
  rawDocumentDbSize: 300,
  fieldDistribution: { id: 3 },
  internalDatabaseSizes: { documents: 8192, main: 4096 },
  databaseSize: 40_960,
  usedDatabaseSize: 20_480,
};

describe('StatsService', () => {
  it('answers the stored statistics without opening the index environment', () => {
    const record = index('busy');
    new IndexStatsStore(store).put(record.uuid, STORED);
    expect(service.index(record, true)).toEqual({
      numberOfDocuments: 3,
      rawDocumentDbSize: 300,
      avgDocumentSize: 92,
      isIndexing: true,
      internalDatabaseSizes: { documents: 8192, main: 4096 },
      numberOfEmbeddings: 0,
      numberOfEmbeddedDocuments: 0,
      fieldDistribution: { id: 3 },
    });
    const instance = service.instance(() => true);
    expect(instance.databaseSize).toBeGreaterThanOrEqual(STORED.databaseSize);
    expect(instance.indexes).toHaveProperty('busy');
    expect(existsSync(envs.folderOf(record.uuid))).toBe(false);
  });

  it('counts an index nothing opened yet as empty, with nothing on disk, without creating its environment', () => {
    const record = index('fresh');
    expect(service.index(record, true)).toMatchObject({ numberOfDocuments: 0, isIndexing: false, fieldDistribution: {}, internalDatabaseSizes: { main: expect.any(Number) } });
    expect(service.instance(() => true).indexes.fresh).toMatchObject({ numberOfDocuments: 0 });
    expect(existsSync(envs.folderOf(record.uuid))).toBe(false);
  });

  it('measures an index without stored statistics from its environment, and the stored ones once there', () => {
    const record = index('opened');
    envs.get(record.uuid).documents.putSync(0, { id: 1 });
    expect(service.index(record)).toMatchObject({ numberOfDocuments: 1, isIndexing: false });
    new IndexStatsStore(store).put(record.uuid, STORED);
    expect(service.index(record).numberOfDocuments).toBe(3);
  });
});
