/**
 * Floats as v1.50 writes them: an f64 (or an f32 widened into a JSON value) goes through
 * serde_json's ryu writer, which writes `1.0` where JavaScript writes `1`, and `1e-6` where it
 * writes `0.000001` (types/ryu.ts). The same value for a JavaScript client, but not for a typed
 * one: the Dart SDK casts `_rankingScore` and every score detail's `score` `as double`, which the
 * integer `jsonDecode` makes of `1` fails on the Dart VM; Python reads `9` as an int.
 * A holder (object or array) carries the names (or indices) of its float members, which
 * `stringifyReply` (reply-text.ts) writes so: the answers' scores (search/answer-floats.ts),
 * embeddings, and the numbers a stored document wrote as floats (written-floats.ts). For every
 * other reader the holder stays a plain object (or array) with plain numbers; a copy carries the
 * marks only through `withFloatsOf` / `withFloatMember`.
 */
import { written } from './reply-text.js';
import { ryu } from './ryu.js';

/** a holder's float members: names for an object, indices for an array, or every item of a vector */
const MEMBERS = Symbol('float members');

type Members = Set<string | number> | 'all';
type Holder = object & { [MEMBERS]?: Members };

/** Whether ryu writes `value` otherwise than JavaScript: an integer, or below 1e-5 (ryu's exponent form). */
export function writtenOtherwise(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && (Number.isInteger(value) || Math.abs(value) < 1e-5);
}

/** The marks of `holder`, created with its `toJSON` when it has none (a holder with a `toJSON` of its own gets none: null). */
function marksOf(holder: Holder): Members | null {
  const members = holder[MEMBERS];
  if (members !== undefined) return members;
  if (Object.hasOwn(holder, 'toJSON')) return null;
  const created = new Set<string | number>();
  Object.defineProperty(holder, MEMBERS, { value: created, writable: true });
  Object.defineProperty(holder, 'toJSON', { value: Array.isArray(holder) ? itemsJson : floatsJson });
  return created;
}

/** `holder`, whose `members` an HTTP answer writes as floats. */
export function withFloatMembers<T extends object>(holder: T, members: readonly string[]): T {
  const marks = marksOf(holder);
  if (marks !== null && marks !== 'all') for (const member of members) marks.add(member);
  return holder;
}

/** Marks `holder[member]` (an object's key, an array's index) as a float. */
export function withFloatMember(holder: object, member: string | number): void {
  const marks = marksOf(holder);
  if (marks !== null && marks !== 'all') marks.add(Array.isArray(holder) ? Number(member) : String(member));
}

/** `vector`, whose items an HTTP answer writes as floats (an embedding: f32 widened, as v1.50's `_vectors` and `queryVector`). */
export function withFloatItems(vector: number[]): number[] {
  if (marksOf(vector) !== null) (vector as Holder)[MEMBERS] = 'all';
  return vector;
}

/** Whether `holder[member]` is marked as a float. */
export function isFloatMember(holder: object, member: string | number): boolean {
  const members = (holder as Holder)[MEMBERS];
  if (members === undefined) return false;
  return members === 'all' || members.has(Array.isArray(holder) ? Number(member) : String(member));
}

/**
 * `to`, with the float marks of `from` for the members `to` holds (a copy, a projection, a
 * spread), but for those `except` holds: what a merge took from another source.
 */
export function withFloatsOf<T extends object>(from: object, to: T, except?: object): T {
  const members = (from as Holder)[MEMBERS];
  if (members === undefined) return to;
  if (members === 'all') {
    if (Array.isArray(to)) withFloatItems(to);
    return to;
  }
  for (const member of members) {
    if (!Object.hasOwn(to, member) || (except !== undefined && Object.hasOwn(except, member))) continue;
    withFloatMember(to, member);
  }
  return to;
}

function itemsJson(this: unknown[] & Holder): unknown {
  const members = this[MEMBERS]!;
  if (members === 'all') {
    // a vector: numbers only, written as one text
    if (!this.some(writtenOtherwise)) return this;
    return written(() => `[${this.map((value) => (writtenOtherwise(value) ? ryu(value) : Number.isFinite(value) ? String(value) : 'null')).join(',')}]`) ?? this;
  }
  let copy: unknown[] | null = null;
  for (const i of members as Set<number>) {
    const value = this[i];
    if (!writtenOtherwise(value)) continue;
    const marker = written(() => ryu(value));
    if (marker === null) return this;
    // a plain copy of the items, the float standing as its marker
    copy ??= this.slice();
    copy[i] = marker;
  }
  return copy ?? this;
}

function floatsJson(this: Record<string, unknown> & Holder): unknown {
  let copy: Record<string, unknown> | null = null;
  for (const member of this[MEMBERS] as Set<string>) {
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
