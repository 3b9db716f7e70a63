import { expect } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import type { ErrorCode } from '../../../src/errors/codes.js';

/** Awaits `fn` and returns the `ApiError` it must reject with, as `{ code, message }`. */
export async function rejection(fn: () => Promise<unknown>): Promise<{ code: ErrorCode; message: string }> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const { code, message } = error as ApiError;
    return { code, message };
  }
  throw new Error('expected an ApiError, nothing was thrown');
}
