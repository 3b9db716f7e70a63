/**
 * Errors of the Rhai interpreter, worded as Rhai words them (rhai `types/parse_error.rs`,
 * `types/error.rs`): a message followed by ` (line L, position P)` (positions: position.ts).
 */
import { NO_POS, columnOf, lineOf, type Pos } from './position.js';
import type { Value } from './values.js';

function withPosition(description: string, pos: Pos): string {
  return pos === NO_POS ? description : `${description} (line ${lineOf(pos)}, position ${columnOf(pos)})`;
}

/** A script that does not compile. `message` is Rhai's `ParseError` display. */
export class RhaiParseError extends Error {
  constructor(
    readonly description: string,
    readonly pos: Pos,
  ) {
    super(withPosition(description, pos));
    this.name = 'RhaiParseError';
  }
}

/**
 * A script that fails while running. System errors (engine limits) cannot be caught by
 * `try`/`catch` and pass through function calls unwrapped, as in Rhai.
 */
export class RhaiRuntimeError extends Error {
  constructor(
    readonly description: string,
    readonly pos: Pos,
    readonly system = false,
    /** the value of a `throw` statement, handed to `catch (err)` */
    readonly thrown: Value | undefined = undefined,
  ) {
    super(withPosition(description, pos));
    this.name = 'RhaiRuntimeError';
  }

  /** Rhai's `ErrorInFunctionCall`: the inner error, then the call it happened in. */
  inCall(fnName: string | null, pos: Pos): RhaiRuntimeError {
    if (this.system) return new RhaiRuntimeError(this.description, pos, true);
    const where = fnName === null ? 'in closure call' : `in call to function '${fnName}'`;
    return new RhaiRuntimeError(`${this.message}\n${where}`, pos);
  }
}

export const tooManyOperations = (pos: Pos) => new RhaiRuntimeError('Too many operations', pos, true);
export const stackOverflow = (pos: Pos) => new RhaiRuntimeError('Stack overflow', pos, true);
export const dataTooLarge = (what: 'Size of array' | 'Size of object map' | 'Length of string', pos: Pos) =>
  new RhaiRuntimeError(`${what} too large`, pos, true);
