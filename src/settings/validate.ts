/**
 * The request-time checks that follow deserialization (Meilisearch's `validate_settings`): the
 * experimental gates, the embedder rules a request alone decides, and the ranking-rule mix.
 * They run after the body matched its schema and the index uid was checked, and throw the one
 * `ApiError` Meilisearch would answer (400, no task created).
 */
import { ApiError } from '../errors/api-error.js';
import type { FeatureName } from '../types/features.js';
import { embedderRequestProblem } from './embedders.js';
import { MIXED_ATTRIBUTE_RULES, mixesAttributeRules } from './messages.js';
import type { SettingsPatch } from './patch.js';

/** The experimental flags' check (features/experimental-features.ts `require`). */
interface Gate {
  require(name: FeatureName, action: string, featureWords: string, link: string): void;
}

interface Feature {
  name: FeatureName;
  words: string;
  link: string;
}

const COMPOSITE: Feature = { name: 'compositeEmbedders', words: 'composite embedders', link: 'https://github.com/orgs/meilisearch/discussions/816' };
const MULTIMODAL: Feature = { name: 'multimodal', words: 'multimodal', link: 'https://github.com/orgs/meilisearch/discussions/846' };
const FOREIGN_KEYS: Feature = { name: 'foreignKeys', words: 'foreign_keys', link: 'https://github.com/orgs/meilisearch/discussions/873' };
const CHAT: Feature = { name: 'chatCompletions', words: 'chat completions', link: 'https://github.com/orgs/meilisearch/discussions/835' };

const isSet = (value: unknown): boolean => value !== undefined && value !== null;

function checkEmbedderGates(patch: SettingsPatch, features: Gate): void {
  const require = (feature: Feature, action: string) => features.require(feature.name, action, feature.words, feature.link);
  for (const embedder of Object.values(patch.embedders ?? {})) {
    if (embedder === null) continue;
    if (embedder.source === 'composite') require(COMPOSITE, 'using `"composite"` as source');
    for (const field of ['searchEmbedder', 'indexingEmbedder']) if (isSet(embedder[field])) require(COMPOSITE, `setting \`${field}\``);
    for (const field of ['indexingFragments', 'searchFragments']) if (isSet(embedder[field])) require(MULTIMODAL, `setting \`${field}\``);
  }
}

/** Throws the first problem of a canonical patch, in Meilisearch's order. */
export function checkPatch(patch: SettingsPatch, features: Gate): void {
  checkEmbedderGates(patch, features);
  // Resetting an experimental setting is always allowed; only giving it a value is gated.
  // v1.50 `validate_settings`: chat, then foreign keys; then `Settings::validate`: the ranking
  // rules, then the embedders
  for (const [key, feature] of [['chat', CHAT], ['foreignKeys', FOREIGN_KEYS]] as const) {
    if (isSet(patch[key])) features.require(feature.name, `setting \`${key}\` in the index settings`, feature.words, feature.link);
  }
  if (isSet(patch.rankingRules) && mixesAttributeRules(patch.rankingRules!)) {
    throw new ApiError('invalid_settings_ranking_rules', MIXED_ATTRIBUTE_RULES);
  }
  for (const [name, embedder] of Object.entries(patch.embedders ?? {})) {
    const problem = embedder === null ? undefined : embedderRequestProblem(name, embedder);
    if (problem !== undefined) throw new ApiError(problem.code, problem.message);
  }
}
