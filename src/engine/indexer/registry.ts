/**
 * Every IndexUpdater of the engine, in the order they run. Adding a derived structure to an
 * index means adding its updater here.
 */
import { facetUpdater } from '../facets/updater.js';
import { vectorUpdater } from '../vectors/updater.js';
import { wordIndexUpdater } from '../words/word-index.js';
import type { IndexUpdater } from '../updater.js';
import type { AheadParts } from '../words/ahead-parts.js';

export const INDEX_UPDATERS: IndexUpdater<AheadParts>[] = [facetUpdater, wordIndexUpdater, vectorUpdater];

/**
 * Updaters a settings write always runs: they compare what they derived with the settings
 * themselves (the vector store with the embedders), which the settings diff does not look at.
 */
export const RECONCILING_UPDATERS: ReadonlySet<string> = new Set([vectorUpdater.name]);
