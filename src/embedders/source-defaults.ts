/**
 * The per-source defaults v1.50 applies: OpenAI's embedding models (milli's
 * `openai::EmbeddingModel`: native dimensions, whether `dimensions` may lower them) and default
 * model, and Hugging Face's default model and revision. Shared by the embedders and by the
 * settings checks and view.
 */

export const OPENAI_MODELS: Readonly<Record<string, { readonly dimensions: number; readonly overridable: boolean }>> = {
  'text-embedding-ada-002': { dimensions: 1536, overridable: false },
  'text-embedding-3-small': { dimensions: 1536, overridable: true },
  'text-embedding-3-large': { dimensions: 3072, overridable: true },
};

export const DEFAULT_OPENAI_MODEL = 'text-embedding-3-small';

export const DEFAULT_HUGGING_FACE_MODEL = 'BAAI/bge-base-en-v1.5';
/** The default model's revision, used only when no `model` is given at all. */
export const DEFAULT_HUGGING_FACE_REVISION = '617ca489d9e86b49b8167676d8220688b99db36e';
