// The embedder settings v1.50 refuses (milli's validate_embedding_settings): at the route, in its
// order (template byte limit and Liquid parse, zero dimensions, URL, REST templates, then the
// fields of the given source and a composite's sub-embedders), and in the task once merged.
import { describe, expect, it } from 'vitest';
import { normalizeExactWords } from '../../../src/engine/exact-words.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { ExperimentalFeatures } from '../../../src/features/experimental-features.js';
import { compileBody } from '../../../src/validation/index.js';
import { applyPatch, mergedSettingsProblem } from '../../../src/settings/merge.js';
import { canonicalPatch } from '../../../src/settings/patch.js';
import { settingsBodySchema } from '../../../src/settings/schemas.js';
import { checkPatch } from '../../../src/settings/validate.js';
import type { InstanceStore } from '../../../src/store/env.js';
import type { FeatureName } from '../../../src/types/features.js';
import { defaultSettings } from '../../../src/types/settings.js';

const body = (() => {
  const { schema, codes, checks } = settingsBodySchema();
  return compileBody<Record<string, unknown>>(schema, codes, { validators: checks });
})();

function features(...on: FeatureName[]): ExperimentalFeatures {
  const store = { main: { get: () => undefined, putSync: () => undefined } } as unknown as InstanceStore;
  return new ExperimentalFeatures(store, on);
}

/** The route's answer to `embedders`: undefined when accepted. */
function atRoute(embedders: Record<string, unknown>, ...on: FeatureName[]): { code: string; message: string } | undefined {
  try {
    checkPatch(canonicalPatch(body({ embedders })), features(...on));
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, message: error.message };
    throw error;
  }
}

/** The task's answer once `embedders` is merged into default settings. */
function inTask(embedders: Record<string, unknown>) {
  const before = defaultSettings();
  const problem = mergedSettingsProblem(before, applyPatch(before, canonicalPatch(body({ embedders })), normalizeExactWords));
  return problem === undefined ? undefined : { code: problem.code, message: problem.message };
}

const settingsError = (message: string) => ({ code: 'invalid_settings_embedders', message });
const REST = { source: 'rest', url: 'http://localhost:1/embed', request: { input: '{{text}}' }, response: { embedding: '{{embedding}}' } };

describe('document templates', () => {
  it('refuses a zero byte limit only next to a template', () => {
    expect(atRoute({ x: { documentTemplate: '{{doc.a}}', documentTemplateMaxBytes: 0 } })).toEqual(
      settingsError('`.embedders.x.documentTemplateMaxBytes`: `documentTemplateMaxBytes` cannot be zero'),
    );
    expect(atRoute({ x: { documentTemplateMaxBytes: 0 } })).toBeUndefined();
  });

  it('refuses a template Liquid cannot parse', () => {
    const error = atRoute({ x: { documentTemplate: '{{ doc.name' } });
    expect(error?.code).toBe('invalid_settings_embedders');
    expect(error?.message).toMatch(/^`\.embedders\.x\.documentTemplate`: Invalid template: user error: cannot parse template: liquid: {2}--> 1:\d+\n[\s\S]*\n\.$/);
  });

  it('checks the template of an indexing embedder too', () => {
    const composite = { source: 'composite', searchEmbedder: { source: 'openAi' }, indexingEmbedder: { source: 'openAi', documentTemplate: '{% if %}' } };
    expect(atRoute({ c: composite }, 'compositeEmbedders')?.message).toMatch(/^`\.embedders\.c\.documentTemplate`: Invalid template: /);
  });
});

describe('REST templates', () => {
  const restError = (request: unknown, response: unknown = { embedding: '{{embedding}}' }) => atRoute({ r: { ...REST, request, response } });
  const NOTE = '\n  - Note: this template is using a document template, and so expects to contain the placeholder "{{text}}" rather than "{{fragment}}"';

  it('refuses a request without {{text}} with code vector_embedding_error', () => {
    expect(restError({ input: 'x' })).toEqual({
      code: 'vector_embedding_error',
      message: `Error while generating embeddings: user error: in \`request\`: "{{text}}" not found${NOTE}`,
    });
  });

  it('refuses misplaced repeat markers and doubled placeholders', () => {
    expect(restError({ input: ['{{text}}', 'a', '{{..}}'] })?.message).toBe(
      `Error while generating embeddings: user error: in \`request.input\`: "{{..}}" expected at position #1, but found at position #2${NOTE}`,
    );
    expect(restError({ input: '{{..}}' })?.message).toBe(`Error while generating embeddings: user error: in \`request.input\`: "{{..}}" appears outside of an array${NOTE}`);
    expect(restError({ a: '{{text}}', b: '{{text}}' })?.message).toBe(
      `Error while generating embeddings: user error: in \`request.b\`: Found "{{text}}", but it was already present in \`request.a\`${NOTE}`,
    );
  });

  it('requires exactly one {{embedding}} in the response, repeated exactly when the request is', () => {
    expect(restError({ input: '{{text}}' }, { a: 'x' })?.message).toBe('Error while generating embeddings: user error: in `response`: "{{embedding}}" not found');
    expect(restError({ input: '{{text}}' }, { a: '{{embedding}}', b: '{{embedding}}' })?.message).toBe(
      'Error while generating embeddings: user error: in `response.b`: Found "{{embedding}}", but it was already present in `response.a`',
    );
    expect(restError({ input: ['{{text}}', '{{..}}'] }, { e: '{{embedding}}' })?.message).toBe(
      'Error while generating embeddings: user error: in `response`: `response` has a single embedding, but `request` has multiple texts to embed',
    );
    expect(restError({ input: '{{text}}' }, { e: ['{{embedding}}', '{{..}}'] })?.message).toBe(
      'Error while generating embeddings: user error: in `response`: `response` has multiple embeddings, but `request` has only one text to embed',
    );
    expect(restError({ input: ['{{text}}', '{{..}}'] }, { data: [{ e: '{{embedding}}' }, '{{..}}'] })).toBeUndefined();
  });
});

describe('fields per source', () => {
  it('requires model for ollama and dimensions for userProvided at the route when the source is given', () => {
    expect(atRoute({ o: { source: 'ollama' } })).toEqual(settingsError('`.embedders.o`: Missing field `model` (note: this field is mandatory for source `ollama`)'));
    expect(atRoute({ m: { source: 'userProvided' } })).toEqual(
      settingsError('`.embedders.m`: Missing field `dimensions` (note: this field is mandatory for source `userProvided`)'),
    );
  });

  it('requires them in the task once merged, when the request did not name the source', () => {
    expect(atRoute({ o: { model: 'x' } })).toBeUndefined();
    expect(inTask({ m: { source: 'userProvided', dimensions: 2 } })).toBeUndefined();
    expect(inTask({ r: { source: 'rest', url: 'http://x/e' } })).toEqual(
      settingsError('`.embedders.r`: Missing field `request` (note: this field is mandatory for source `rest`)'),
    );
  });

  it('refuses a field the source does not have, even as null', () => {
    expect(atRoute({ m: { source: 'userProvided', dimensions: 2, documentTemplate: null } })?.message).toBe(
      '`.embedders.m`: Field `documentTemplate` unavailable for source `userProvided`.\n' +
        '  - note: `documentTemplate` is available for sources: `openAi`, `huggingFace`, `ollama`, `rest`\n' +
        '  - note: available fields for source `userProvided`: `source`, `dimensions`, `distribution`, `binaryQuantized`',
    );
  });

  it('applies OpenAI model rules on the merged default model', () => {
    expect(atRoute({ x: { dimensions: 2048 } })).toBeUndefined();
    expect(inTask({ x: { dimensions: 2048 } })).toEqual(
      settingsError('`.embedders.x.dimensions`: Model `text-embedding-3-small` does not support overriding its dimensions to a value higher than 1536. Found 2048'),
    );
    expect(atRoute({ x: { source: 'openAi', model: 'text-embedding-ada-002', dimensions: 512 } })).toEqual(
      settingsError('`.embedders.x.dimensions`: Model `text-embedding-ada-002` does not support overriding its native dimensions of 1536. Found 512'),
    );
  });

  it('refuses an Ollama URL that ends neither in /api/embed nor /api/embeddings, in the task', () => {
    expect(atRoute({ o: { source: 'ollama', model: 'm', url: 'http://localhost:11434/v1/embeddings' } })).toBeUndefined();
    expect(inTask({ o: { source: 'ollama', model: 'm', url: 'http://localhost:11434/v1/embeddings' } })).toEqual({
      code: 'vector_embedding_error',
      message:
        'Error while generating embeddings: user error: unsupported Ollama URL.\n  - For `ollama` sources, the URL must end with `/api/embed` or `/api/embeddings`\n  - Got `http://localhost:11434/v1/embeddings`',
    });
    expect(inTask({ o: { source: 'ollama', model: 'm', url: 'http://localhost:11434/api/embed' } })).toBeUndefined();
  });
});

describe('composite sub-embedders', () => {
  const composite = (searchEmbedder: unknown, indexingEmbedder: unknown = { source: 'openAi' }) => ({ c: { source: 'composite', searchEmbedder, indexingEmbedder } });

  it("checks each nested embedder's source and fields", () => {
    expect(atRoute(composite({ model: 'x' }), 'compositeEmbedders')).toEqual(
      settingsError('`.embedders.c.searchEmbedder`: Missing field `source`.\n  - note: this field is mandatory for nested embedders'),
    );
    expect(atRoute(composite({ source: 'userProvided', dimensions: 2 }), 'compositeEmbedders')).toEqual(
      settingsError('`.embedders.c.searchEmbedder.source`: Source `userProvided` is not available in a nested embedder'),
    );
    expect(atRoute(composite({ source: 'huggingFace', documentTemplate: 'x' }), 'compositeEmbedders')).toEqual(
      settingsError(
        '`.embedders.c.searchEmbedder`: Field `documentTemplate` unavailable for source `huggingFace` for the search embedder.\n' +
          '  - note: available fields for source `huggingFace` for the search embedder: `source`, `model`, `revision`, `pooling`\n' +
          '  - note: `documentTemplate` is available when source `huggingFace` is not for the search embedder',
      ),
    );
  });

  it('names the fields no sub-embedder may set (v1.50 composite_checks): distribution, binaryQuantized, a nested composite', () => {
    const hf = { source: 'huggingFace', model: 'm' };
    const unavailable = (field: string) =>
      settingsError(
        `\`.embedders.c.searchEmbedder\`: Field \`${field}\` unavailable for source \`huggingFace\` for the search embedder.\n` +
          '  - note: available fields for source `huggingFace` for the search embedder: `source`, `model`, `revision`, `pooling`\n' +
          `  - note: \`${field}\` is available when source \`huggingFace\` is not for the search embedder`,
      );
    expect(atRoute(composite({ ...hf, distribution: { mean: 0.5, sigma: 0.2 } }, hf), 'compositeEmbedders')).toEqual(unavailable('distribution'));
    expect(atRoute(composite({ ...hf, binaryQuantized: true }, hf), 'compositeEmbedders')).toEqual(unavailable('binaryQuantized'));
    expect(atRoute(composite({ source: 'composite', searchEmbedder: hf, indexingEmbedder: hf }, hf), 'compositeEmbedders')).toEqual(
      settingsError('`.embedders.c.searchEmbedder.source`: Source `composite` is not available in a nested embedder'),
    );
    expect(() => body({ embedders: composite({ ...hf, bogus: 1 }, hf) })).toThrow(
      'Unknown field `bogus` inside `.embedders.c.searchEmbedder`: expected one of `source`, `model`, `revision`, `pooling`, `apiKey`, `dimensions`, ' +
        '`documentTemplate`, `documentTemplateMaxBytes`, `url`, `indexingFragments`, `searchFragments`, `request`, `response`, `headers`, ' +
        '`distribution`, `binaryQuantized`, `searchEmbedder`, `indexingEmbedder`',
    );
  });
});

describe('distribution and binary quantization', () => {
  it('refuses a distribution out of its ranges at deserialization', () => {
    expect(() => body({ embedders: { x: { distribution: { mean: 1.5, sigma: 0.1 } } } })).toThrow(
      'Invalid value at `.embedders.x.distribution`: the distribution mean must be in the range [0, 1], got 1.5',
    );
    expect(() => body({ embedders: { x: { distribution: { mean: 0.5, sigma: 0 } } } })).toThrow(
      'Invalid value at `.embedders.x.distribution`: the distribution sigma must be in the range ]0, 1], got 0',
    );
    expect(() => body({ embedders: { x: { distribution: { mean: 0.5, sigma: 1 } } } })).not.toThrow();
  });

  it('refuses to turn binary quantization off once on', () => {
    const before = applyPatch(defaultSettings(), canonicalPatch(body({ embedders: { m: { source: 'userProvided', dimensions: 2, binaryQuantized: true } } })), normalizeExactWords);
    const after = applyPatch(before, canonicalPatch(body({ embedders: { m: { binaryQuantized: false } } })), normalizeExactWords);
    expect(mergedSettingsProblem(before, after)?.message).toBe(
      '`.embedders.m.binaryQuantized`: Cannot disable the binary quantization.\n - Note: Binary quantization is a lossy operation that cannot be reverted.\n - Hint: Add a new embedder that is non-quantized and regenerate the vectors.',
    );
  });

  it('starts afresh when the source changes, dropping the old source fields', () => {
    const before = applyPatch(defaultSettings(), canonicalPatch(body({ embedders: { e: REST } })), normalizeExactWords);
    const after = applyPatch(before, canonicalPatch(body({ embedders: { e: { source: 'userProvided', dimensions: 3 } } })), normalizeExactWords);
    expect(after.embedders.e).toEqual({ source: 'userProvided', dimensions: 3 });
    expect(mergedSettingsProblem(before, after)).toBeUndefined();
  });
});

describe('multimodal fragments', () => {
  const FRAGMENTS = {
    ...REST,
    dimensions: 3,
    request: { input: '{{fragment}}' },
    indexingFragments: { basic: { value: '{{ doc.name }} is a dog' }, withBreed: { value: '{{ doc.name }} is a {{ doc.breed }}' } },
    searchFragments: { query: { value: '{{ q }}' } },
  };
  const embeddingError = (message: string) => ({ code: 'vector_embedding_error', message: `Error while generating embeddings: user error: ${message}` });

  it('needs the multimodal feature, even to remove a fragment', () => {
    expect(atRoute({ e: { indexingFragments: { basic: null } } })).toEqual({
      code: 'feature_not_enabled',
      message: 'setting `indexingFragments` requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846',
    });
    expect(atRoute({ e: FRAGMENTS }, 'multimodal')).toBeUndefined();
  });

  it('checks the indexing fragments, then the request with {{fragment}}, then the search fragments', () => {
    expect(atRoute({ e: { ...FRAGMENTS, indexingFragments: { b: { value: ['ok', '{% if %}'] } }, request: {} } }, 'multimodal')?.message).toMatch(
      /^Error while generating embeddings: user error: in ``\.indexingFragments\.b\[1\]``, error while parsing template: liquid: /,
    );
    expect(atRoute({ e: { ...FRAGMENTS, searchFragments: { s: { value: '{{' } }, request: {} } }, 'multimodal')).toEqual(
      embeddingError(
        'in `request`: "{{fragment}}" not found\n  - Note: this template is using fragments, and so expects to contain the placeholder "{{fragment}}" rathern than "{{text}}"',
      ),
    );
    expect(atRoute({ e: { ...FRAGMENTS, searchFragments: { s: { value: '{{' } } } }, 'multimodal')?.message).toMatch(
      /^Error while generating embeddings: user error: error while parsing template: liquid: /,
    );
  });

  it('accepts a request alone with either placeholder, as the fragments may be stored', () => {
    expect(atRoute({ e: { request: { input: '{{fragment}}' } } })).toBeUndefined();
    expect(atRoute({ e: { request: { input: '{{text}}' } } })).toBeUndefined();
  });

  it('refuses fragments on one side only once merged, naming at most three', () => {
    const search = { a: { value: '{{ q }}' }, b: { value: '{{ q }}' }, c: { value: '{{ q }}' }, d: { value: '{{ q }}' } };
    expect(inTask({ e: { ...FRAGMENTS, indexingFragments: undefined, searchFragments: search } })).toEqual(
      embeddingError(
        'inconsistent fragments: `indexingFragments` is empty, but `searchFragments` declares 4 fragments: a, b, c, ...\n  - Hint: declare at least one fragment in `indexingFragments` or remove fragments from `searchFragments` by setting them to `null`',
      ),
    );
  });

  it('merges fragments one by one: null removes one, an omitted one stays, none left is no fragments', () => {
    const before = applyPatch(defaultSettings(), canonicalPatch(body({ embedders: { e: FRAGMENTS } })), normalizeExactWords);
    const after = applyPatch(before, canonicalPatch(body({ embedders: { e: { indexingFragments: { basic: null, added: { value: 'x' } } } } })), normalizeExactWords);
    expect(after.embedders.e!.indexingFragments).toEqual({ added: { value: 'x' }, withBreed: FRAGMENTS.indexingFragments.withBreed });
    expect(after.embedders.e!.searchFragments).toEqual(FRAGMENTS.searchFragments);
    const emptied = applyPatch(after, canonicalPatch(body({ embedders: { e: { searchFragments: { query: null } } } })), normalizeExactWords);
    expect(emptied.embedders.e!.searchFragments).toBeUndefined();
  });
});
