/**
 * The bundle decodes its compact postings and word records on every read
 * (src/engine/bundle/codec.ts), and a search as you type reads the same ones keystroke after
 * keystroke: a query's first letters (the largest prefix postings) and the words already typed.
 * This keeps the decoded bytes of the values read last in those databases, up to a byte budget,
 * least recently used first out. A bundle never changes, so a kept value is the stored one.
 */
import type { IndexReadEnv, ReadDb } from '../src/engine/index-read-env.js';

/** The databases whose values the bundle decodes on read. */
const DECODED = ['wordDocids', 'prefixDocids', 'postingBlocks', 'docWords'] as const;

/** Decoded values, most recently used last, within `budget` bytes. */
class DecodedValues {
  private readonly values = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly budget: number) {}

  read(id: string, decode: () => Buffer | undefined): Buffer | undefined {
    const kept = this.values.get(id);
    if (kept !== undefined) {
      this.values.delete(id);
      this.values.set(id, kept);
      return kept;
    }
    const value = decode();
    // a value of more than a quarter of the budget would push out most of the others
    if (value === undefined || value.length > this.budget / 4) return value;
    this.values.set(id, value);
    this.bytes += value.length;
    for (const [oldest, old] of this.values) {
      if (this.bytes <= this.budget) break;
      this.values.delete(oldest);
      this.bytes -= old.length;
    }
    return value;
  }
}

function keptReads<V, K>(db: ReadDb<V, K>, name: string, values: DecodedValues): ReadDb<V, K> {
  const id = (key: K): string => `${name}\0${key instanceof Uint8Array ? Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1') : String(key)}`;
  const read = (key: K): Buffer | undefined => values.read(id(key), () => db.getBinary(key));
  return {
    get: (key) => db.get(key),
    getBinary: read,
    getBinaryFast: read,
    getRange: (range) => db.getRange(range),
    getKeys: (range) => db.getKeys(range),
    getCount: () => db.getCount(),
  };
}

/** `env` with the decoded values of its posting and word-record databases kept, within `budget` bytes. */
export function withDecodedValuesKept(env: IndexReadEnv, budget: number): IndexReadEnv {
  const values = new DecodedValues(budget);
  const kept: Partial<Record<(typeof DECODED)[number], unknown>> = {};
  for (const name of DECODED) kept[name] = keptReads(env[name] as ReadDb<unknown, unknown>, name, values);
  return { ...env, ...kept } as IndexReadEnv;
}
