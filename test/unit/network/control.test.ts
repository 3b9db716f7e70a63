/**
 * `POST /network/control` bodies as v1.50's serde reads them: odd JSON (wrong shapes, wrong types,
 * unknown variants) is a 400 `bad_request` with serde's words, never a crash.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { parseControl } from '../../../src/network/control.js';

const origin = { remoteName: 'r0', taskUid: 3 };

function refusal(body: unknown): { code: string; message: string } {
  try {
    parseControl(body);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return { code: (err as ApiError).code, message: (err as ApiError).message };
  }
  throw new Error('the body was accepted');
}

describe('parseControl', () => {
  it('reads each message, the network version defaulting to the nil UUID', () => {
    expect(parseControl({ origin, message: { type: 'statusChangeForRemote', remote: 'r1', status: 'unavailable' } })).toEqual({
      origin: { ...origin, networkVersion: '00000000-0000-0000-0000-000000000000' },
      message: { type: 'statusChangeForRemote', remote: 'r1', status: 'unavailable' },
    });
  });

  it('refuses odd JSON shapes with bad_request', () => {
    for (const body of [null, [], 'x', 7, { message: {} }, { origin: [], message: {} }, { origin, message: null }, { origin, message: {} }]) {
      expect(refusal(body).code).toBe('bad_request');
    }
  });

  it('refuses wrong field types and unknown variants with serde’s words', () => {
    expect(refusal({ origin: { remoteName: 'r0', taskUid: 1.5 }, message: { type: 'exportNoIndexForRemote', remote: 'r1' } }).message).toBe(
      'Json deserialize error: invalid type: 1.5, expected u32',
    );
    expect(refusal({ origin, message: { type: { nested: [] }, remote: 'r1' } }).message).toMatch(/^Json deserialize error: unknown variant/);
    expect(refusal({ origin, message: { type: 'statusChangeForRemote', remote: 'r1', status: 'gone' } }).message).toBe(
      'Json deserialize error: unknown variant `gone`, expected `available` or `unavailable`',
    );
    expect(refusal({ origin, message: { type: 'importFinishedForRemote', remote: 'r1', successful: 'yes' } }).message).toBe(
      'Json deserialize error: invalid type: "yes", expected a boolean',
    );
  });
});
