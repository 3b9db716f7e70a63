/**
 * The meilisearch client's per-setting methods of an index (`getSynonyms`, `updateSynonyms`,
 * `resetSynonyms`, …), each the sub-route `/indexes/{uid}/settings/<setting>` the client calls, with
 * the verb the settings catalogue gives it (PUT, or PATCH for the object settings). Index
 * (index-handle.ts) extends this class.
 */
import { settingByRoute } from '../settings/catalogue.js';
import type { LibraryRoutes } from './routes.js';
import type { EnqueuedTaskPromise, TaskClient } from './tasks.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type SettingValue = any;

export abstract class IndexSettings {
  protected constructor(
    protected readonly routes: LibraryRoutes,
    readonly tasks: TaskClient,
    readonly uid: string,
  ) {}

  private async getSetting(setting: string): Promise<SettingValue> {
    return this.routes.call('GET /indexes/:indexUid/settings/:setting', { params: { indexUid: this.uid, setting } });
  }

  private updateSetting(setting: string, value: SettingValue): EnqueuedTaskPromise {
    const route = settingByRoute(setting)!.verb === 'PUT' ? 'PUT /indexes/:indexUid/settings/:setting' : 'PATCH /indexes/:indexUid/settings/:setting';
    return this.tasks.enqueued(this.routes.call(route, { params: { indexUid: this.uid, setting }, body: value }));
  }

  private resetSetting(setting: string): EnqueuedTaskPromise {
    return this.tasks.enqueued(this.routes.call('DELETE /indexes/:indexUid/settings/:setting', { params: { indexUid: this.uid, setting } }));
  }

  getPagination(): Promise<SettingValue> {
    return this.getSetting('pagination');
  }

  updatePagination(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('pagination', value);
  }

  resetPagination(): EnqueuedTaskPromise {
    return this.resetSetting('pagination');
  }

  getSynonyms(): Promise<SettingValue> {
    return this.getSetting('synonyms');
  }

  updateSynonyms(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('synonyms', value);
  }

  resetSynonyms(): EnqueuedTaskPromise {
    return this.resetSetting('synonyms');
  }

  getStopWords(): Promise<SettingValue> {
    return this.getSetting('stop-words');
  }

  updateStopWords(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('stop-words', value);
  }

  resetStopWords(): EnqueuedTaskPromise {
    return this.resetSetting('stop-words');
  }

  getRankingRules(): Promise<SettingValue> {
    return this.getSetting('ranking-rules');
  }

  updateRankingRules(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('ranking-rules', value);
  }

  resetRankingRules(): EnqueuedTaskPromise {
    return this.resetSetting('ranking-rules');
  }

  getDistinctAttribute(): Promise<SettingValue> {
    return this.getSetting('distinct-attribute');
  }

  updateDistinctAttribute(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('distinct-attribute', value);
  }

  resetDistinctAttribute(): EnqueuedTaskPromise {
    return this.resetSetting('distinct-attribute');
  }

  getFilterableAttributes(): Promise<SettingValue> {
    return this.getSetting('filterable-attributes');
  }

  updateFilterableAttributes(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('filterable-attributes', value);
  }

  resetFilterableAttributes(): EnqueuedTaskPromise {
    return this.resetSetting('filterable-attributes');
  }

  getSortableAttributes(): Promise<SettingValue> {
    return this.getSetting('sortable-attributes');
  }

  updateSortableAttributes(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('sortable-attributes', value);
  }

  resetSortableAttributes(): EnqueuedTaskPromise {
    return this.resetSetting('sortable-attributes');
  }

  getSearchableAttributes(): Promise<SettingValue> {
    return this.getSetting('searchable-attributes');
  }

  updateSearchableAttributes(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('searchable-attributes', value);
  }

  resetSearchableAttributes(): EnqueuedTaskPromise {
    return this.resetSetting('searchable-attributes');
  }

  getDisplayedAttributes(): Promise<SettingValue> {
    return this.getSetting('displayed-attributes');
  }

  updateDisplayedAttributes(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('displayed-attributes', value);
  }

  resetDisplayedAttributes(): EnqueuedTaskPromise {
    return this.resetSetting('displayed-attributes');
  }

  getTypoTolerance(): Promise<SettingValue> {
    return this.getSetting('typo-tolerance');
  }

  updateTypoTolerance(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('typo-tolerance', value);
  }

  resetTypoTolerance(): EnqueuedTaskPromise {
    return this.resetSetting('typo-tolerance');
  }

  getFaceting(): Promise<SettingValue> {
    return this.getSetting('faceting');
  }

  updateFaceting(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('faceting', value);
  }

  resetFaceting(): EnqueuedTaskPromise {
    return this.resetSetting('faceting');
  }

  getSeparatorTokens(): Promise<SettingValue> {
    return this.getSetting('separator-tokens');
  }

  updateSeparatorTokens(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('separator-tokens', value);
  }

  resetSeparatorTokens(): EnqueuedTaskPromise {
    return this.resetSetting('separator-tokens');
  }

  getNonSeparatorTokens(): Promise<SettingValue> {
    return this.getSetting('non-separator-tokens');
  }

  updateNonSeparatorTokens(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('non-separator-tokens', value);
  }

  resetNonSeparatorTokens(): EnqueuedTaskPromise {
    return this.resetSetting('non-separator-tokens');
  }

  getDictionary(): Promise<SettingValue> {
    return this.getSetting('dictionary');
  }

  updateDictionary(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('dictionary', value);
  }

  resetDictionary(): EnqueuedTaskPromise {
    return this.resetSetting('dictionary');
  }

  getProximityPrecision(): Promise<SettingValue> {
    return this.getSetting('proximity-precision');
  }

  updateProximityPrecision(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('proximity-precision', value);
  }

  resetProximityPrecision(): EnqueuedTaskPromise {
    return this.resetSetting('proximity-precision');
  }

  getEmbedders(): Promise<SettingValue> {
    return this.getSetting('embedders');
  }

  updateEmbedders(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('embedders', value);
  }

  resetEmbedders(): EnqueuedTaskPromise {
    return this.resetSetting('embedders');
  }

  getSearchCutoffMs(): Promise<SettingValue> {
    return this.getSetting('search-cutoff-ms');
  }

  updateSearchCutoffMs(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('search-cutoff-ms', value);
  }

  resetSearchCutoffMs(): EnqueuedTaskPromise {
    return this.resetSetting('search-cutoff-ms');
  }

  getLocalizedAttributes(): Promise<SettingValue> {
    return this.getSetting('localized-attributes');
  }

  updateLocalizedAttributes(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('localized-attributes', value);
  }

  resetLocalizedAttributes(): EnqueuedTaskPromise {
    return this.resetSetting('localized-attributes');
  }

  getForeignKeys(): Promise<SettingValue> {
    return this.getSetting('foreign-keys');
  }

  updateForeignKeys(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('foreign-keys', value);
  }

  resetForeignKeys(): EnqueuedTaskPromise {
    return this.resetSetting('foreign-keys');
  }

  getFacetSearch(): Promise<SettingValue> {
    return this.getSetting('facet-search');
  }

  updateFacetSearch(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('facet-search', value);
  }

  resetFacetSearch(): EnqueuedTaskPromise {
    return this.resetSetting('facet-search');
  }

  getPrefixSearch(): Promise<SettingValue> {
    return this.getSetting('prefix-search');
  }

  updatePrefixSearch(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('prefix-search', value);
  }

  resetPrefixSearch(): EnqueuedTaskPromise {
    return this.resetSetting('prefix-search');
  }

  getChat(): Promise<SettingValue> {
    return this.getSetting('chat');
  }

  updateChat(value: SettingValue): EnqueuedTaskPromise {
    return this.updateSetting('chat', value);
  }
}
