/**
 * The `chatCompletions` experimental feature gates every `/chats` route (chats.md §1–§2): off, a
 * route answers 400 `feature_not_enabled` with its own action words.
 */
import type { ExperimentalFeatures } from '../features/experimental-features.js';

/** Throws ``<action> requires enabling the `chat completions` experimental feature…`` unless the feature is on. */
export function requireChatCompletions(features: Pick<ExperimentalFeatures, 'require'>, action: string): void {
  features.require('chatCompletions', action, 'chat completions', 'https://github.com/orgs/meilisearch/discussions/835');
}
