/** Statistics → public JSON, with sizes raw (bytes) or human (`9.77 KiB`) as `sizeFormat` asks. Pure. */
import { humanBinarySize, type IndexStats, type InstanceStats } from '../../indexes/stats.js';
import { formatRfc3339 } from '../../types/dates.js';

export type SizeFormat = 'raw' | 'human';

const size = (bytes: number, format: SizeFormat): number | string => (format === 'raw' ? bytes : humanBinarySize(bytes));

export function indexStatsView(stats: IndexStats, format: SizeFormat) {
  return {
    numberOfDocuments: stats.numberOfDocuments,
    rawDocumentDbSize: size(stats.rawDocumentDbSize, format),
    avgDocumentSize: size(stats.avgDocumentSize, format),
    isIndexing: stats.isIndexing,
    ...(stats.internalDatabaseSizes === undefined
      ? {}
      : {
          internalDatabaseSizes: Object.fromEntries(
            Object.entries(stats.internalDatabaseSizes).map(([name, bytes]) => [name, size(bytes, format)]),
          ),
        }),
    numberOfEmbeddings: stats.numberOfEmbeddings,
    numberOfEmbeddedDocuments: stats.numberOfEmbeddedDocuments,
    fieldDistribution: stats.fieldDistribution,
  };
}

export function instanceStatsView(stats: InstanceStats, format: SizeFormat) {
  return {
    databaseSize: size(stats.databaseSize, format),
    usedDatabaseSize: size(stats.usedDatabaseSize, format),
    lastUpdate: stats.lastUpdate === null ? null : formatRfc3339(stats.lastUpdate),
    indexes: Object.fromEntries(Object.entries(stats.indexes).map(([uid, s]) => [uid, indexStatsView(s, format)])),
  };
}
