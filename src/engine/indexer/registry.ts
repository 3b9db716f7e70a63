/**
 * Every IndexUpdater of the engine, in the order they run. Adding a derived structure to an
 * index means adding its updater here.
 */
import { facetUpdater } from '../facets/updater.js';
import { wordIndexUpdater } from '../words/word-index.js';
import type { IndexUpdater } from '../updater.js';
import type { PreparedWords } from '../words/prepared-words.js';

export const INDEX_UPDATERS: IndexUpdater<PreparedWords>[] = [facetUpdater, wordIndexUpdater];
