/**
 * The wiremock OpenAI server of Meilisearch's crates/meilisearch/tests/vector/openai.rs
 * (`create_mock_with_template`), rebuilt on node:http over loopback: it checks the API key as
 * OpenAI does (its 401 bodies), answers the embeddings OpenAI gave for the test's texts (the
 * test's own recorded answers, test/fixtures/openai), one recorded embedding for the tokens of
 * the test's long text, OpenAI's context-length 400 for that text sent whole, and can fail 3 calls
 * out of 4 with a 503 (`fallible`) and wait a second before answering (`slow`).
 */
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ModelDimensions = 'large' | 'small' | 'ada' | 'large_512';

const fixture = (name: string) => gunzipSync(readFileSync(new URL(`../fixtures/openai/${name}`, import.meta.url))).toString('utf8');
const RESPONSES = JSON.parse(fixture('openai_responses.json.gz')) as Record<string, Partial<Record<ModelDimensions, number[]>>>;
const TOKENIZED = JSON.parse(fixture('openai_tokenized_responses.json.gz')) as { tokens: number[]; embedding: number[] };

/** The test's long text (`long_text`): three times the Intel text, over OpenAI's context length. */
export const LONG_TEXT = fixture('intel_gen.txt.gz').repeat(3);

const API_KEY = 'my-api-key';

const MODELS: Record<ModelDimensions, string> = {
  large: 'text-embedding-3-large',
  large_512: 'text-embedding-3-large',
  small: 'text-embedding-3-small',
  ada: 'text-embedding-ada-002',
};

/** The model and dimensions a request asks for (`ModelDimensions::from_request`), or null. */
function requested(body: { model?: unknown; dimensions?: unknown }): ModelDimensions | null {
  if (body.dimensions !== undefined) return body.dimensions === 512 && body.model === MODELS.large ? 'large_512' : null;
  return (Object.keys(MODELS) as ModelDimensions[]).find((key) => key !== 'large_512' && MODELS[key] === body.model) ?? null;
}

const openAiError = (message: string, code: string | null = null) => ({ error: { message, type: 'invalid_request_error', param: null, code } });

export interface OpenAiMock {
  readonly url: string;
  /** the embedder settings the Rust helper returns for this mock */
  readonly setting: Record<string, unknown>;
  close(): Promise<void>;
}

/** `create_mock_with_template`: an OpenAI stand-in for `model`, and the embedder settings pointing at it. */
export async function openAiMock(documentTemplate: string, model: ModelDimensions, options: { fallible?: boolean; slow?: boolean } = {}): Promise<OpenAiMock> {
  let attempt = 0;
  const answer = async (auth: string | undefined, raw: string): Promise<[number, unknown]> => {
    if (options.slow === true) await new Promise((resolve) => setTimeout(resolve, 1000));
    if (options.fallible === true && [0, 1, 3].includes(attempt++ % 4)) return [503, { error: { message: 'come back later', type: 'come_back_later' } }];
    if (auth === undefined) {
      return [
        401,
        openAiError(
          "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
        ),
      ];
    }
    if (auth !== `Bearer ${API_KEY}`) {
      return [401, openAiError(`Incorrect API key provided: ${auth}. You can find your API key at https://platform.openai.com/account/api-keys.`, 'invalid_api_key')];
    }
    let query: { model?: unknown; dimensions?: unknown; input?: unknown };
    try {
      query = JSON.parse(raw);
    } catch {
      return [400, openAiError('We could not parse the JSON body of your request.')];
    }
    // the Rust mock panics on another model, which wiremock answers with a 500
    if (requested(query) !== model || !Array.isArray(query.input)) return [500, { error: `expected ${model}` }];
    const inputs = query.input as unknown[];
    let embeddings: number[][];
    if (inputs.length === TOKENIZED.tokens.length && inputs.every((token, i) => token === TOKENIZED.tokens[i])) embeddings = [TOKENIZED.embedding];
    else {
      embeddings = [];
      for (const input of inputs) {
        if (typeof input !== 'string') return [400, { error: { message: 'Unexpected `input` value', type: 'test_response', query } }];
        if (input === LONG_TEXT) {
          return [
            400,
            openAiError(
              "This model's maximum context length is 8192 tokens, however you requested 10554 tokens (10554 in your prompt; 0 for the completion). Please reduce your prompt; or completion length.",
            ),
          ];
        }
        const embedding = RESPONSES[input]?.[model];
        if (embedding === undefined) return [404, { error: { message: 'Could not find embedding for text', text: input, type: 'add_to_openai_responses_json_please', query } }];
        embeddings.push(embedding);
      }
    }
    const data = embeddings.map((embedding, index) => ({ object: 'embedding', index, embedding }));
    return [200, { object: 'list', data, model: MODELS[model], usage: { prompt_tokens: '[prompt_tokens]', total_tokens: '[total_tokens]' } }];
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void answer(req.headers.authorization, Buffer.concat(chunks).toString('utf8')).then(([status, body]) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const setting: Record<string, unknown> = { source: 'openAi', url, apiKey: API_KEY, documentTemplate, documentTemplateMaxBytes: 8000000, model: MODELS[model] };
  if (model === 'large_512') setting.dimensions = 512;
  return {
    url,
    setting,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
