import { expect } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import type { ErrorCode } from '../../../src/errors/codes.js';

/** Runs `fn` and returns the `ApiError` it must throw, as `{ code, message }`. */
export function apiErrorOf(fn: () => unknown): { code: ErrorCode; message: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const { code, message } = error as ApiError;
    return { code, message };
  }
  throw new Error('expected an ApiError, nothing was thrown');
}
