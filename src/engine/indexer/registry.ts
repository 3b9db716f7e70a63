/**
 * Every IndexUpdater of the engine, in the order they run. Adding a derived structure to an
 * index means adding its updater here.
 */
import type { IndexUpdater } from './updaters.js';

export const INDEX_UPDATERS: IndexUpdater[] = [];
