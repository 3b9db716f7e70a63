// A chat workspace's settings (chats.md §3): v1.50's default prompts, the PATCH merge (set, null
// resets, absent keeps, also inside `prompts`), the provider checks, the apiKey masking and how a
// dump's settings file is read.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as prompts from '../../../src/chats/default-prompts.js';
import {
  checkWorkspaceSettings,
  defaultChatPrompts,
  defaultWorkspaceSettings,
  maskedWorkspaceSettings,
  mergeWorkspaceSettings,
  workspaceSettingsFromDump,
  type ChatWorkspaceSettings,
} from '../../../src/chats/workspace-settings.js';
import { apiErrorOf } from '../validation/expect-api-error.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const configured = (): ChatWorkspaceSettings => ({
  source: 'mistral',
  orgId: 'org',
  projectId: 'project',
  apiVersion: 'v1',
  deploymentId: 'deployment',
  baseUrl: 'https://llm.example',
  apiKey: 'sk-secret',
  prompts: { ...defaultChatPrompts(), system: 'custom system', searchQParam: 'custom q' },
});

describe('the default prompts', () => {
  it('are byte for byte the DEFAULT_CHAT_* constants of v1.50 features.rs', () => {
    // sizes and digests of the Rust constants' values, computed from the v1.50.0 source
    expect(Object.fromEntries(Object.entries(prompts).map(([name, text]) => [name, [Buffer.byteLength(text), sha256(text)]]))).toEqual({
      DEFAULT_CHAT_SYSTEM_PROMPT: [1141, '2c5394078ee0b755c923b9836bade883fe4b66407fdc1dfb290b521d3a7fc756'],
      DEFAULT_CHAT_SEARCH_DESCRIPTION_PROMPT: [680, '223e23db1ff0314203ecb190f30ea2a7298692aa8105414d3188e0cb1c18eaf6'],
      DEFAULT_CHAT_SEARCH_Q_PARAM_PROMPT: [214, 'c5016f069ee17c95e6fcc546800dc1e1583c93d74e866d5e2f59b0cfce6caa86'],
      DEFAULT_CHAT_SEARCH_FILTER_PARAM_PROMPT: [388, 'ce4cd8bf5d9a065491e4eb931c8990df192af760df2c9086b91363f0bd56040e'],
      DEFAULT_CHAT_SEARCH_INDEX_UID_PARAM_PROMPT: [179, '0ebef228f336597201368ada404d5c1565dad5fda03b25f1b6476255921c3066'],
    });
    expect(prompts.DEFAULT_CHAT_SEARCH_Q_PARAM_PROMPT).toBe(
      'The search query string used to find relevant documents in the index. This should contain keywords or phrases that best represent what the user is looking for. More specific queries will yield more precise results.',
    );
    expect(prompts.DEFAULT_CHAT_SEARCH_FILTER_PARAM_PROMPT.endsWith('The following is a list of fields that can be filtered on: ')).toBe(true);
  });

  it('fill the default settings, every other field null and the source openAi, in the response key order', () => {
    const settings = defaultWorkspaceSettings();
    expect(Object.keys(settings)).toEqual(['source', 'orgId', 'projectId', 'apiVersion', 'deploymentId', 'baseUrl', 'apiKey', 'prompts']);
    expect(Object.keys(settings.prompts)).toEqual(['system', 'searchDescription', 'searchQParam', 'searchFilterParam', 'searchIndexUidParam']);
    expect(settings).toEqual({
      source: 'openAi',
      orgId: null,
      projectId: null,
      apiVersion: null,
      deploymentId: null,
      baseUrl: null,
      apiKey: null,
      prompts: {
        system: prompts.DEFAULT_CHAT_SYSTEM_PROMPT,
        searchDescription: prompts.DEFAULT_CHAT_SEARCH_DESCRIPTION_PROMPT,
        searchQParam: prompts.DEFAULT_CHAT_SEARCH_Q_PARAM_PROMPT,
        searchFilterParam: prompts.DEFAULT_CHAT_SEARCH_FILTER_PARAM_PROMPT,
        searchIndexUidParam: prompts.DEFAULT_CHAT_SEARCH_INDEX_UID_PARAM_PROMPT,
      },
    });
  });
});

describe('the PATCH merge', () => {
  it('sets the given values and keeps the absent ones', () => {
    expect(mergeWorkspaceSettings(configured(), { orgId: 'other org', prompts: { searchDescription: 'tool' } })).toEqual({
      ...configured(),
      orgId: 'other org',
      prompts: { ...configured().prompts, searchDescription: 'tool' },
    });
    expect(mergeWorkspaceSettings(configured(), {})).toEqual(configured());
    expect(mergeWorkspaceSettings(configured(), { prompts: {} })).toEqual(configured());
  });

  it('resets a null field to its default: source to openAi, the others to null', () => {
    const merged = mergeWorkspaceSettings(configured(), { source: null, orgId: null, projectId: null, apiVersion: null, deploymentId: null, baseUrl: null, apiKey: null });
    expect(merged).toEqual({ ...defaultWorkspaceSettings(), prompts: configured().prompts });
  });

  it('resets a null prompt to its default text, and every prompt when `prompts` is null', () => {
    const one = mergeWorkspaceSettings(configured(), { prompts: { system: null } });
    expect(one.prompts).toEqual({ ...configured().prompts, system: prompts.DEFAULT_CHAT_SYSTEM_PROMPT });
    expect(mergeWorkspaceSettings(configured(), { prompts: null }).prompts).toEqual(defaultChatPrompts());
  });

  it('leaves the current settings unchanged', () => {
    const current = configured();
    mergeWorkspaceSettings(current, { apiKey: 'new', prompts: { system: 'new' } });
    expect(current).toEqual(configured());
  });
});

describe('the provider checks', () => {
  const azure = { source: 'azureOpenAi' as const, baseUrl: 'https://azure.example', deploymentId: 'd', apiVersion: '2024-02-01' };
  const AZURE = 'azureOpenAi requires setting a valid `baseUrl`, `deploymentId`, and `apiVersion`';

  it('refuses azureOpenAi without any of baseUrl, deploymentId and apiVersion, with bad_request', () => {
    expect(mergeWorkspaceSettings(defaultWorkspaceSettings(), azure).source).toBe('azureOpenAi');
    for (const field of ['baseUrl', 'deploymentId', 'apiVersion'] as const) {
      expect(apiErrorOf(() => mergeWorkspaceSettings(defaultWorkspaceSettings(), { ...azure, [field]: null }))).toEqual({ code: 'bad_request', message: AZURE });
    }
  });

  it('refuses vLlm without a baseUrl, with bad_request', () => {
    expect(apiErrorOf(() => mergeWorkspaceSettings(defaultWorkspaceSettings(), { source: 'vLlm' }))).toEqual({
      code: 'bad_request',
      message: 'vLlm requires setting a valid `baseUrl`',
    });
    expect(mergeWorkspaceSettings(defaultWorkspaceSettings(), { source: 'vLlm', baseUrl: 'not even a URL' }).baseUrl).toBe('not even a URL');
  });

  it('checks the merged result, so a later PATCH cannot drop what the source needs', () => {
    const vllm = mergeWorkspaceSettings(defaultWorkspaceSettings(), { source: 'vLlm', baseUrl: 'http://llm' });
    expect(apiErrorOf(() => mergeWorkspaceSettings(vllm, { baseUrl: null })).message).toBe('vLlm requires setting a valid `baseUrl`');
    expect(mergeWorkspaceSettings(vllm, { source: 'openAi', baseUrl: null }).baseUrl).toBeNull();
  });

  it('accept openAi and mistral without any field', () => {
    expect(() => checkWorkspaceSettings(defaultWorkspaceSettings())).not.toThrow();
    expect(() => checkWorkspaceSettings({ ...defaultWorkspaceSettings(), source: 'mistral' })).not.toThrow();
  });
});

describe('the apiKey masking', () => {
  const masked = (apiKey: string | null) => maskedWorkspaceSettings({ ...defaultWorkspaceSettings(), apiKey }).apiKey;

  it('shows no character below 10, then 2, 3 and 5 first characters from 10, 20 and 30', () => {
    const key = (length: number) => 'abcdefghijklmnopqrstuvwxyz0123456789'.slice(0, length);
    expect(masked(key(9))).toBe('XXX...');
    expect(masked(key(10))).toBe('abXXXX...');
    expect(masked(key(19))).toBe('abXXXX...');
    expect(masked(key(20))).toBe('abcXXXXX...');
    expect(masked(key(29))).toBe('abcXXXXX...');
    expect(masked(key(30))).toBe('abcdeXXXXXX...');
    expect(masked('')).toBe('XXX...');
    expect(masked('sk-test-placeholder-api-key')).toBe('sk-XXXXX...');
  });

  it('keeps a null key null and changes nothing else', () => {
    expect(masked(null)).toBeNull();
    const settings = configured();
    expect(maskedWorkspaceSettings(settings)).toEqual({ ...settings, apiKey: 'XXX...' });
    expect(settings.apiKey).toBe('sk-secret');
  });
});

describe('a dump settings file', () => {
  it('reads back what a dump writes', () => {
    expect(workspaceSettingsFromDump(JSON.parse(JSON.stringify(configured())))).toEqual(configured());
  });

  it('needs a source; absent optional fields are null and an absent `prompts` is all defaults', () => {
    expect(workspaceSettingsFromDump({ source: 'vLlm', baseUrl: 'http://llm', unknown: 1 })).toEqual({ ...defaultWorkspaceSettings(), source: 'vLlm', baseUrl: 'http://llm' });
    expect(() => workspaceSettingsFromDump({ apiKey: 'k' })).toThrow('unknown `source`');
    expect(() => workspaceSettingsFromDump({ source: 'gemini' })).toThrow('unknown `source`');
  });

  it('reads an absent prompt as empty, but for searchFilterParam, which takes its default', () => {
    expect(workspaceSettingsFromDump({ source: 'openAi', prompts: { system: 's' } }).prompts).toEqual({
      system: 's',
      searchDescription: '',
      searchQParam: '',
      searchFilterParam: prompts.DEFAULT_CHAT_SEARCH_FILTER_PARAM_PROMPT,
      searchIndexUidParam: '',
    });
  });

  it('refuses values of the wrong type', () => {
    expect(() => workspaceSettingsFromDump([])).toThrow('not a JSON object');
    expect(() => workspaceSettingsFromDump({ source: 'openAi', apiKey: 1 })).toThrow('`apiKey` is not a string');
    expect(() => workspaceSettingsFromDump({ source: 'openAi', prompts: [] })).toThrow('`prompts` is not a JSON object');
    expect(() => workspaceSettingsFromDump({ source: 'openAi', prompts: { system: null } })).toThrow('`prompts.system` is not a string');
  });
});
