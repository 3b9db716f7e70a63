/**
 * Facet counts whose keys reach an HTTP answer in the order they were given. A JavaScript object
 * lists integer-like keys first and ascending, whatever their insertion order, so a distribution
 * of numbers sorted by count, or sorted as text ("10" before "9", as v1.50 sorts a small one),
 * was written in numeric order: JavaScript clients parse it back that way anyway, but Python's,
 * PHP's or Go's ordered maps keep the order of the text, which v1.50 sets.
 * The record is an ordinary one for every reader in the process. When its order differs from
 * its keys' own, it carries a `toJSON` (not enumerable) by which `stringifyReply`, the HTTP
 * answers' serializer (reply-text.ts), writes its entries in order; any other serialization (and
 * a copy) gets the plain record.
 */
import { ownRecord } from './own-record.js';
import { written } from './reply-text.js';

const KEYS = Symbol('keys in order');

/**
 * The counts of `entries` as a record, in their order for an HTTP answer; a key given twice keeps
 * its first place and its last count.
 */
export function orderedCounts(entries: Iterable<readonly [string, number]>): Record<string, number> {
  const record = ownRecord<number>();
  const keys: string[] = [];
  for (const [key, count] of entries) {
    if (!Object.hasOwn(record, key)) keys.push(key);
    record[key] = count;
  }
  const own = Object.keys(record);
  // a key named `toJSON` is a count like any other: the record is written as the object lists it
  if (!Object.hasOwn(record, 'toJSON') && own.some((key, i) => key !== keys[i])) {
    Object.defineProperty(record, KEYS, { value: keys });
    Object.defineProperty(record, 'toJSON', { value: orderedJson });
  }
  return record;
}

function orderedJson(this: Record<string, number> & { [KEYS]: string[] }): unknown {
  return written(() => `{${this[KEYS].map((key) => `${JSON.stringify(key)}:${JSON.stringify(this[key])}`).join(',')}}`) ?? { ...this };
}
