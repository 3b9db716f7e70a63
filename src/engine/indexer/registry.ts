/**
 * Every IndexUpdater of the engine, in the order they run. Adding a derived structure to an
 * index means adding its updater here.
 */
import { facetUpdater } from '../facets/updater.js';
import { wordIndexUpdater } from '../search/word-index.js';
import type { IndexUpdater } from './updaters.js';

export const INDEX_UPDATERS: IndexUpdater[] = [facetUpdater, wordIndexUpdater];
