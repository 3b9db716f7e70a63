/**
 * The wiremock embedding servers of Meilisearch's crates/meilisearch/tests/vector/rest.rs and
 * tests/common/mod.rs (`fragment_mock_server`), rebuilt on the loopback mock embedder of
 * test/unit/embedders/mock-embedder.ts, with the embedder settings each `create_mock*` returns.
 * Their JSON answers are written as serde_json writes them (`0.0`, not `0`), and their 400s carry
 * serde's own deserialization messages, since the server's replies end up verbatim in error messages.
 * Also the task redaction the Rust harness's snapshots of these tests use.
 */
import { expect } from 'vitest';
import { DURATION, RFC3339 } from './api.js';
import { mockEmbedder, type Answer, type MockEmbedder, type Received } from '../unit/embedders/mock-embedder.js';

export type { MockEmbedder };

/** serde_json's text of a JSON value: floats (every number here is an f32) always with a fraction. */
export function rustJson(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(1) : String(value);
  if (Array.isArray(value)) return `[${value.map(rustJson).join(',')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([key, inner]) => `${JSON.stringify(key)}:${rustJson(inner)}`).join(',')}}`;
  return JSON.stringify(value);
}

const json = (body: unknown, status = 200): Answer => ({ status, text: rustJson(body) });

/** The two words rest.rs's mocks know; anything else embeds as [99, 99, 99]. */
const TEXT_TO_EMBEDDING: Record<string, number[]> = { kefir: [0, 0, 0], intel: [1, 1, 1] };
const embed = (text: string): number[] => TEXT_TO_EMBEDDING[text] ?? [99, 99, 99];

/**
 * serde_json's error deserializing a JSON string where a struct was expected. Every body sent here
 * is one line, so the error's column is the length of the string's JSON text.
 */
function notAStruct(raw: string, body: unknown, struct: string): string {
  return `Invalid request: invalid type: string ${JSON.stringify(body)}, expected struct ${struct} at line 1 column ${raw.length}`;
}

/** What a mock got, as raw text too (the mock embedder keeps only the parsed body). */
function rawBody(req: Received): string {
  return JSON.stringify(req.body);
}

/** `create_mock`: body a JSON string, answer `{"data": embedding}`. */
export async function createMock(): Promise<{ mock: MockEmbedder; setting: Record<string, unknown> }> {
  const mock = await mockEmbedder((req) => json({ data: embed(String(req.body)) }));
  return {
    mock,
    setting: { source: 'rest', url: mock.url, dimensions: 3, request: '{{text}}', response: { data: '{{embedding}}' }, documentTemplate: '{{doc.name}}' },
  };
}

/** `create_mock_default_template`: knows only `name: kefir\n`; a 404 naming any other text. */
export async function createMockDefaultTemplate(): Promise<{ mock: MockEmbedder; setting: Record<string, unknown> }> {
  const mock = await mockEmbedder((req) =>
    req.body === 'name: kefir\n' ? json({ data: [0, 0.1, 0.2] }) : json({ error: 'text not found', text: req.body }, 404),
  );
  return { mock, setting: { source: 'rest', url: mock.url, dimensions: 3, request: '{{text}}', response: { data: '{{embedding}}' } } };
}

/** `create_mock_multiple`: `{"input": [texts]}` → `{"output": [{"text", "embedding"}]}`; a 400 otherwise. */
export async function createMockMultiple(): Promise<{ mock: MockEmbedder; setting: Record<string, unknown> }> {
  const mock = await mockEmbedder((req) => {
    if (typeof req.body === 'string') return json({ error: notAStruct(rawBody(req), req.body, 'MultipleRequest') }, 400);
    const input = (req.body as { input: string[] }).input;
    return json({ output: input.map((text) => ({ text, embedding: embed(text) })) });
  });
  return {
    mock,
    setting: {
      source: 'rest',
      url: mock.url,
      dimensions: 3,
      request: { input: ['{{text}}', '{{..}}'] },
      response: { output: [{ embedding: '{{embedding}}' }, '{{..}}'] },
      documentTemplate: '{{doc.name}}',
    },
  };
}

/** `create_mock_single_response_in_array`: `{"input": text}` → `{"output": [{"text", "embedding"}]}`. */
export async function createMockSingleResponseInArray(): Promise<{ mock: MockEmbedder; setting: Record<string, unknown> }> {
  const mock = await mockEmbedder((req) => {
    if (typeof req.body === 'string') return json({ error: notAStruct(rawBody(req), req.body, 'SingleRequest') }, 400);
    const input = String((req.body as { input: string }).input);
    return json({ output: [{ text: input, embedding: embed(input) }] });
  });
  return {
    mock,
    setting: {
      source: 'rest',
      url: mock.url,
      dimensions: 3,
      request: { input: '{{text}}' },
      response: { output: [{ embedding: '{{embedding}}' }] },
      documentTemplate: '{{doc.name}}',
    },
  };
}

/** `create_mock_raw_with_custom_header`: 401 unless `my-nonstandard-auth: bearer of the ring`; answers the bare embedding. */
export async function createMockRawWithCustomHeader(): Promise<{ mock: MockEmbedder; setting: Record<string, unknown> }> {
  const mock = await mockEmbedder((req) => {
    const auth = req.headers['my-nonstandard-auth'];
    if (auth === undefined) return json({ error: "missing header 'my-nonstandard-auth'" }, 401);
    if (auth !== 'bearer of the ring') return json({ error: `thou shall not pass, ${String(auth)}` }, 401);
    return json(embed(String(req.body)));
  });
  return {
    mock,
    setting: {
      source: 'rest',
      url: mock.url,
      request: '{{text}}',
      response: '{{embedding}}',
      headers: { 'my-nonstandard-auth': 'bearer of the ring' },
      documentTemplate: '{{doc.name}}',
    },
  };
}

/** `create_mock_raw`: body a JSON string, answer the bare embedding. */
export async function createMockRaw(): Promise<{ mock: MockEmbedder; setting: Record<string, unknown> }> {
  const mock = await mockEmbedder((req) => json(embed(String(req.body))));
  return {
    mock,
    setting: { source: 'rest', url: mock.url, dimensions: 3, request: '{{text}}', response: '{{embedding}}', documentTemplate: '{{doc.name}}' },
  };
}

/**
 * `create_faulty_mock_raw`: a 500 `Service Unavailable` to every request; from the sixth on it
 * calls `onHang` and never answers (wiremock's `u64::MAX` delay; here a minute, longer than a test).
 */
export async function createFaultyMockRaw(onHang: () => void): Promise<{ mock: MockEmbedder; setting: Record<string, unknown> }> {
  const mock = await mockEmbedder((_req, n) => {
    if (n > 5) {
      onHang();
      return { status: 500, text: 'Service Unavailable', delayMs: 60_000 };
    }
    return { status: 500, text: 'Service Unavailable' };
  });
  return {
    mock,
    setting: { source: 'rest', url: mock.url, dimensions: 3, request: '{{text}}', response: '{{embedding}}', documentTemplate: '{{doc.name}}' },
  };
}

/**
 * `fragment_mock_server`: the embedding is the sum of the vectors of the words the raw body
 * contains (`{{ doc.` flags a template that did not render).
 */
export async function fragmentMockServer(): Promise<MockEmbedder> {
  const words: [string, number[]][] = [
    ['bulldog', [0, 0, 1]],
    ['dustin', [-0.5, 0.5, 0]],
    ['intel', [1, 1, 0]],
    ['kefir', [0.5, -0.5, 0]],
    ['labrador', [0, 0, -1]],
    ['{{ doc.', [-9999, -9999, -9999]],
  ];
  return mockEmbedder((req) => {
    const text = rawBody(req);
    const data = [0, 0, 0];
    for (const [word, vector] of words) if (text.includes(word)) vector.forEach((x, i) => (data[i]! += x));
    return json({ data });
  });
}

/** tests/common/mod.rs `init_fragments_index`'s embedder settings, pointing at `url`. */
export function fragmentsEmbedder(url: string): Record<string, unknown> {
  return {
    source: 'rest',
    url,
    dimensions: 3,
    request: '{{fragment}}',
    response: { data: '{{embedding}}' },
    indexingFragments: {
      withBreed: { value: '{{ doc.name }} is a {{ doc.breed }}' },
      basic: { value: '{{ doc.name }} is a dog' },
    },
    searchFragments: {
      justBreed: { value: "It's a {{ media.breed }}" },
      justName: { value: '{{ media.name }} is a dog' },
      query: { value: 'Some pre-prompt for query {{ q }}' },
    },
  };
}

/** tests/common/mod.rs `init_fragments_index`'s documents. */
export const FRAGMENTS_DOCUMENTS = [
  { id: 0, name: 'kefir' },
  { id: 1, name: 'echo', _vectors: { rest: [1, 1, 1] } },
  { id: 2, name: 'intel', breed: 'labrador' },
  { id: 3, name: 'dustin', breed: 'bulldog' },
];

/**
 * A finished task as the Rust harness's `Value` display redacts it: dates, uids and embedder urls,
 * and the test's index uid `uid` written `shown` (the Rust test's name or `[uuid]`), messages included.
 */
export function redactedTask(task: any, uid: string, shown: string): any {
  expect(task.enqueuedAt).toMatch(RFC3339);
  expect(task.startedAt).toMatch(RFC3339);
  expect(task.finishedAt).toMatch(RFC3339);
  expect(task.duration).toMatch(DURATION);
  const out: any = { ...task, uid: '[uid]', batchUid: '[batch_uid]', duration: '[duration]', enqueuedAt: '[date]', startedAt: '[date]', finishedAt: '[date]' };
  if (out.indexUid === uid) out.indexUid = shown;
  if (out.details?.embedders !== undefined && out.details.embedders !== null) {
    out.details = {
      ...out.details,
      embedders: Object.fromEntries(
        Object.entries(out.details.embedders).map(([name, setting]: [string, any]) => [
          name,
          setting !== null && typeof setting === 'object' && 'url' in setting ? { ...setting, url: '[url]' } : setting,
        ]),
      ),
    };
  }
  if (out.error?.message !== undefined) out.error = { ...out.error, message: out.error.message.replaceAll(`Index \`${uid}\``, `Index \`${shown}\``) };
  return out;
}
