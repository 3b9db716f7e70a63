// Where a workspace's provider is called, with which headers and system role, and how its error
// answers read (chats.md §4.2, §4.3).
import { describe, expect, it } from 'vitest';
import { completionsUrl, providerError, providerHeaders, systemRole } from '../../../src/chats/provider.js';
import { defaultWorkspaceSettings, type ChatWorkspaceSettings } from '../../../src/chats/workspace-settings.js';

const base: ChatWorkspaceSettings = { ...defaultWorkspaceSettings(), apiKey: 'sk-1' };

describe('provider calls', () => {
  it('builds each source\'s URL as v1.50 concatenates it', () => {
    expect(completionsUrl(base)).toBe('https://api.openai.com/v1//chat/completions');
    expect(completionsUrl({ ...base, source: 'mistral' })).toBe('https://api.mistral.ai/v1//chat/completions');
    expect(completionsUrl({ ...base, source: 'vLlm', baseUrl: 'http://h:1/v1' })).toBe('http://h:1/v1/chat/completions');
    expect(completionsUrl({ ...base, source: 'azureOpenAi', baseUrl: 'https://a.example', deploymentId: 'dep', apiVersion: '2024-10-21' })).toBe(
      'https://a.example/openai/deployments/dep/chat/completions?api-version=2024-10-21',
    );
  });

  it('sends the key as a bearer token (Azure: api-key) and the organisation and project headers', () => {
    expect(providerHeaders({ ...base, orgId: 'org', projectId: 'proj' })).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer sk-1',
      'openai-organization': 'org',
      'openai-project': 'proj',
      'openai-beta': 'assistants=v2',
    });
    expect(providerHeaders({ ...base, source: 'azureOpenAi' })).toEqual({ 'content-type': 'application/json', 'api-key': 'sk-1' });
    expect(providerHeaders({ ...base, apiKey: null }, { OPENAI_API_KEY: 'from-env' }).authorization).toBe('Bearer from-env');
    expect(providerHeaders({ ...base, apiKey: null }, {}).authorization).toBe('Bearer ');
  });

  it('gives old OpenAI models a system message and newer ones a developer message; Mistral and vLLM always system', () => {
    for (const model of ['gpt-4o', 'gpt-4o-mini', 'gpt-3.5-turbo', 'gpt-4', 'chatgpt-4o-latest', 'gpt-4.1-nano']) expect(systemRole(base, model)).toBe('system');
    for (const model of ['gpt-5', 'o3-mini', 'gpt-4oo', 'gpt-4.2']) expect(systemRole(base, model)).toBe('developer');
    expect(systemRole({ ...base, source: 'azureOpenAi' }, 'o3')).toBe('developer');
    expect(systemRole({ ...base, source: 'mistral' }, 'o3')).toBe('system');
    expect(systemRole({ ...base, source: 'vLlm' }, 'gpt-5')).toBe('system');
  });

  it('reads the OpenAI error shape for every source but Mistral, whose shape is flat, and says when an answer is not the one expected', () => {
    const openAi = Buffer.from('{"error":{"message":"bad key","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}');
    const mistral = Buffer.from('{"object":"error","message":"slow down","type":"rate_limited","param":"model","code":"1300"}');
    for (const source of ['openAi', 'azureOpenAi', 'vLlm'] as const) {
      expect(providerError(openAi, source)).toEqual({ type: 'invalid_request_error', code: 'invalid_api_key', message: 'bad key', param: null });
      expect(providerError(mistral, source)).toMatchObject({ type: 'reqwest_error', code: null, message: 'error decoding response body: missing field `error`' });
    }
    expect(providerError(mistral, 'mistral')).toEqual({ type: 'rate_limited', code: '1300', message: 'slow down', param: 'model' });
    expect(providerError(openAi, 'mistral')).toMatchObject({ type: 'reqwest_error', message: 'error decoding response body: missing field `message`' });
    // v1.50 reads codes as strings: a numeric one is no error it can read
    expect(providerError(Buffer.from('{"error":{"message":"m","type":"t","code":429}}'), 'openAi')).toMatchObject({ type: 'reqwest_error', message: 'error decoding response body: invalid type for `code`: expected a string' });
    expect(providerError(Buffer.from('<html>502</html>'), 'openAi')).toMatchObject({ type: 'reqwest_error', code: null, param: null });
  });
});
