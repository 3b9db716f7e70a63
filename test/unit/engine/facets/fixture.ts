/**
 * A real index environment in a temp dir for facet and filter unit tests: documents written
 * through the document store and the facet updater inside one write transaction, as the
 * document processor does, and settings written directly (no settings route needed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import type { JsonObject } from '../../../../src/engine/document-id.js';
import { evaluateFilter } from '../../../../src/engine/filter/evaluate.js';
import { parseFilter } from '../../../../src/engine/filter-parser/index.js';
import { facetUpdater } from '../../../../src/engine/facets/updater.js';
import { IndexEnvs, type IndexEnv } from '../../../../src/engine/index-env.js';
import { readSettings, writeSettings } from '../../../../src/engine/index-settings.js';
import { vectorFilter } from '../../../../src/engine/vectors/index.js';
import type { DocSet } from '../../../../src/engine/docset.js';
import type { IndexSettings } from '../../../../src/types/settings.js';

export class TestIndex {
  readonly store: DocumentStore;

  private constructor(
    private readonly dir: string,
    private readonly envs: IndexEnvs,
    readonly env: IndexEnv,
  ) {
    this.store = new DocumentStore(env);
  }

  static create(settings: Partial<IndexSettings> = {}, uuid = 'index'): TestIndex {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-facets-'));
    const envs = new IndexEnvs(dir);
    const index = new TestIndex(dir, envs, envs.get(uuid));
    index.env.root.transactionSync(() => writeSettings(index.env, { ...readSettings(index.env), ...settings }));
    return index;
  }

  get settings(): IndexSettings {
    return readSettings(this.env);
  }

  /** Adds, replaces (object) or deletes (null) documents by their `id`, as one batch. */
  write(docs: readonly (JsonObject | { delete: string | number })[]): void {
    const changes = new Map<string, JsonObject | null>();
    for (const doc of docs) {
      if ('delete' in doc && Object.keys(doc).length === 1) changes.set(String(doc.delete), null);
      else changes.set(String((doc as JsonObject).id), doc as JsonObject);
    }
    this.env.root.transactionSync(() => {
      const applied = this.store.apply(changes, false);
      facetUpdater.apply(this.env, this.settings, applied);
    });
  }

  /** Changes settings and rebuilds the facet data from the stored documents. */
  configure(settings: Partial<IndexSettings>): void {
    this.env.root.transactionSync(() => {
      writeSettings(this.env, { ...readSettings(this.env), ...settings });
      this.rebuildNow();
    });
  }

  rebuild(): void {
    this.env.root.transactionSync(() => this.rebuildNow());
  }

  private rebuildNow(): void {
    const documents = [...this.env.documents.getRange()].map(({ key, value }) => ({ docid: key, doc: value }));
    facetUpdater.rebuild(this.env, this.settings, documents);
  }

  /** Every facet key and value, geo point and `_geojson` shape, hex encoded, for comparing two derivations. */
  dump(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const { key, value } of this.env.facetDocids.getRange()) out[`f:${key.toString('hex')}`] = value.toString('hex');
    for (const { key, value } of this.env.geoPoints.getRange()) out[`g:${key}`] = value.toString('hex');
    for (const { key, value } of this.env.geojsonShapes.getRange()) out[`s:${key}`] = value.toString('hex');
    out.universe = Buffer.from(this.env.main.get('documents-ids') as Uint8Array).toString('hex');
    return out;
  }

  docsOf(docids: DocSet): JsonObject[] {
    return [...docids].map((docid) => this.env.documents.get(docid)!);
  }

  idsOf(docids: DocSet): unknown[] {
    return this.docsOf(docids).map((doc) => doc.id);
  }

  /** Evaluates a filter (string or array form) and returns the matching ids, in docid order. */
  filter(filter: unknown): unknown[] {
    const ast = parseFilter(filter);
    if (ast === null) throw new Error('empty filter');
    return this.idsOf(evaluateFilter(this.env, this.settings, ast, { vectors: vectorFilter(this.env, this.settings) }));
  }

  /** The error message a filter evaluation throws. */
  filterError(filter: unknown): string {
    try {
      this.filter(filter);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error(`no error for ${JSON.stringify(filter)}`);
  }

  async close(): Promise<void> {
    await this.envs.closeAll();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
