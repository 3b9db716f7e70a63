/**
 * OpenAI's embedding models as v1.50 knows them (milli's `openai::EmbeddingModel`): native
 * dimensions, whether `dimensions` may lower them, and the default model. Shared by the embedder
 * and by the settings checks.
 */

export const OPENAI_MODELS: Readonly<Record<string, { readonly dimensions: number; readonly overridable: boolean }>> = {
  'text-embedding-ada-002': { dimensions: 1536, overridable: false },
  'text-embedding-3-small': { dimensions: 1536, overridable: true },
  'text-embedding-3-large': { dimensions: 3072, overridable: true },
};

export const DEFAULT_OPENAI_MODEL = 'text-embedding-3-small';
