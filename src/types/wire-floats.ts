/**
 * Floats as v1.50 writes them in its answers: an f64 (or an f32 widened into a JSON value) goes
 * through serde_json's ryu writer, which writes `1.0` where JavaScript writes `1`, and `1e-6` where
 * it writes `0.000001` (types/ryu.ts). The same value for a JavaScript client, but not for a typed
 * one: the Dart SDK casts `_rankingScore` and every score detail's `score` `as double`, which the
 * integer `jsonDecode` makes of `1` fails on the Dart VM.
 * A holder's float members, or a vector's items, are written so by `stringifyReply`
 * (reply-text.ts); for every other reader the holder stays a plain object (or array) with plain
 * numbers.
 */
import { written } from './reply-text.js';
import { ryu } from './ryu.js';

const MEMBERS = Symbol('float members');

/** Whether ryu writes `value` otherwise than JavaScript: an integer, or below 1e-5 (ryu's exponent form). */
function writtenOtherwise(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && (Number.isInteger(value) || Math.abs(value) < 1e-5);
}

/** `holder`, whose `members` an HTTP answer writes as floats (a holder with a `toJSON` of its own is left as it is). */
export function withFloatMembers<T extends object>(holder: T, members: readonly string[]): T {
  if (Object.hasOwn(holder, 'toJSON')) return holder;
  Object.defineProperty(holder, MEMBERS, { value: members });
  Object.defineProperty(holder, 'toJSON', { value: floatsJson });
  return holder;
}

/** `vector`, whose items an HTTP answer writes as floats (an embedding: f32 widened, as v1.50's `_vectors` and `queryVector`). */
export function withFloatItems(vector: number[]): number[] {
  if (!Object.hasOwn(vector, 'toJSON')) Object.defineProperty(vector, 'toJSON', { value: itemsJson });
  return vector;
}

function itemsJson(this: number[]): unknown {
  if (!this.some(writtenOtherwise)) return this;
  return written(() => `[${this.map((value) => (writtenOtherwise(value) ? ryu(value) : Number.isFinite(value) ? String(value) : 'null')).join(',')}]`) ?? this;
}

function floatsJson(this: Record<string, unknown> & { [MEMBERS]: readonly string[] }): unknown {
  let copy: Record<string, unknown> | null = null;
  for (const member of this[MEMBERS]) {
    const value = this[member];
    if (!writtenOtherwise(value)) continue;
    const marker = written(() => ryu(value));
    if (marker === null) return this;
    // a copy of the members in their order, the float standing as its marker
    copy ??= { ...this };
    copy[member] = marker;
  }
  return copy ?? this;
}
