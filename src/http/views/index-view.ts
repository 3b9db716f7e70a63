/** Index registry records → the public index object, keys in Meilisearch's order. Pure. */
import type { IndexRecord } from '../../indexes/registry.js';
import { formatRfc3339 } from '../../types/dates.js';

export interface IndexJson {
  uid: string;
  createdAt: string;
  updatedAt: string;
  primaryKey: string | null;
}

export function indexView(record: IndexRecord): IndexJson {
  return {
    uid: record.uid,
    createdAt: formatRfc3339(record.createdAt),
    updatedAt: formatRfc3339(record.updatedAt),
    primaryKey: record.primaryKey,
  };
}
