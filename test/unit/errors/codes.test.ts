import { describe, expect, it } from 'vitest';
import { ERROR_CODES, errorLink, type ErrorCode } from '../../../src/errors/codes.js';

describe('error catalogue', () => {
  const entries = Object.entries(ERROR_CODES) as [ErrorCode, { status: number; type: string }][];

  it('names every code in snake_case, with digits only in the S3 codes', () => {
    for (const [code] of entries) {
      expect(code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
      if (/\d/.test(code)) expect(code).toMatch(/_s_3_/);
    }
  });

  it('gives every code an HTTP error status and one of the four types', () => {
    for (const [, info] of entries) {
      expect(info.status).toBeGreaterThanOrEqual(400);
      expect(info.status).toBeLessThan(600);
      expect(['invalid_request', 'internal', 'auth', 'system']).toContain(info.type);
    }
  });

  it('maps auth failures to 401/403 and the auth type', () => {
    expect(ERROR_CODES.missing_authorization_header).toEqual({ status: 401, type: 'auth' });
    expect(ERROR_CODES.invalid_api_key).toEqual({ status: 403, type: 'auth' });
    expect(ERROR_CODES.missing_master_key).toEqual({ status: 401, type: 'auth' });
  });

  it('derives the documentation link from the code', () => {
    expect(errorLink('index_not_found' as ErrorCode)).toBe('https://docs.meilisearch.com/errors#index_not_found');
  });
});
