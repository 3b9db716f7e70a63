/**
 * An index's synonyms as queries look them up (milli's normalised `synonyms`, settings.md §5):
 * each key tokenised and normalised like a query (stop words dropped, the index's custom tokens
 * applied), its words joined → its values as normalised word lists, sorted and deduplicated.
 *
 * Built on the search thread at the first search after a change. A large table (100,000
 * synonyms: ~0.8 s) is built a slice at a time (`synonymTableBuild`), so the search layer can
 * give the event loop turns between slices; a caller that does not gets it built at once
 * (`synonymsOf`). A table is kept for later settings objects while the synonyms, stop words and
 * custom tokens stay the same: any other settings change makes a new settings object.
 */
import type { CustomTokens } from '../../kernels/custom-tokens.js';
import { tokenizeBatch, visitTokens } from '../../kernels/tokenizer.js';
import type { IndexSettings } from '../../types/settings.js';
import { stopWordSet, tokenizerRules } from '../settings-derived.js';

export type SynonymTable = ReadonlyMap<string, readonly (readonly string[])[]>;

/** Joins a key's words in the synonym table: no normalised word holds a control character. */
const KEY_JOINER = '\u0000';

/** Synonym keys tokenised per slice (~3 ms for one-word keys with two values each). */
const SLICE_KEYS = 1000;

/** Tables of fewer keys are built at once: a slice's worth. */
const SLICED_FROM_KEYS = SLICE_KEYS;

/** The table's key for a query's words. */
export function synonymKey(words: readonly string[]): string {
  return words.join(KEY_JOINER);
}

/**
 * Builds a table a slice of keys per `step`: keys and values tokenised in one kernel call per
 * slice, keys or values left without words dropped, keys normalising alike merged (their values
 * appended); the last steps sort and deduplicate each key's values, which milli stores so (the
 * order the per-word limits then apply in).
 */
export class SynonymBuild {
  private readonly merged = new Map<string, string[][]>();
  private at = 0;
  private finishing: [string, string[][]][] | undefined;
  private table: Map<string, string[][]> | undefined;

  /** The number of synonym keys (listed once, as the build's own list: 450,000 keys take ~0.1-0.3 s to list). */
  get size(): number {
    return this.keys.length;
  }

  /** `keys`: the keys of `synonyms`, when the caller listed them already */
  constructor(
    private readonly synonyms: Readonly<Record<string, readonly string[]>>,
    private readonly stopWords: ReadonlySet<string>,
    private readonly custom: CustomTokens | undefined,
    private readonly done: (table: SynonymTable) => void = () => {},
    readonly keys: readonly string[] = Object.keys(synonyms),
  ) {}

  /** One slice of work (at most `keys` keys); true once the table is built. */
  step(keys = SLICE_KEYS): boolean {
    if (this.table !== undefined) return true;
    if (this.at < this.keys.length) {
      this.tokenize(this.keys.slice(this.at, this.at + keys));
      this.at += keys;
      return false;
    }
    const entries = (this.finishing ??= [...this.merged]);
    for (const [key, values] of entries.splice(0, keys)) {
      values.sort(compareWordLists);
      this.merged.set(key, values.filter((value, i) => i === 0 || compareWordLists(values[i - 1]!, value) !== 0));
    }
    if (entries.length > 0) return false;
    this.table = this.merged;
    this.done(this.table);
    return true;
  }

  /** The table, built at once from wherever the steps left it. */
  finish(): SynonymTable {
    while (!this.step(Number.MAX_SAFE_INTEGER));
    return this.table!;
  }

  private tokenize(keys: readonly string[]): void {
    const texts = keys.flatMap((key) => [key, ...this.synonyms[key]!]);
    const words: string[][] = texts.map(() => []);
    visitTokens(tokenizeBatch(texts, { separators: false, custom: this.custom }), texts, (string, _word, normalized, text) => {
      if (this.stopWords.size === 0 || !this.stopWords.has(text().normalize('NFKD'))) words[string]!.push(normalized);
    });
    let at = 0;
    for (const key of keys) {
      const keyWords = words[at++]!;
      const values = this.synonyms[key]!.map(() => words[at++]!).filter((value) => value.length > 0);
      if (keyWords.length === 0 || values.length === 0) continue;
      const joined = synonymKey(keyWords);
      // appended in place: keys spelled apart but read alike (`a,`, `a.`, `A`…) share an entry
      const entry = this.merged.get(joined);
      if (entry === undefined) this.merged.set(joined, values);
      else for (const value of values) entry.push(value);
    }
  }
}

/** What a table was built from: the stop-word set and custom tokens are one object per list. */
interface Made {
  readonly synonyms: IndexSettings['synonyms'];
  /** their keys, as the build listed them */
  readonly keys: readonly string[];
  readonly stopWords: ReadonlySet<string>;
  readonly custom: CustomTokens | undefined;
  readonly table: SynonymTable;
}

/** The table made last, kept for settings read again with the same lists. */
let last: Made | undefined;

/** Per settings object: its table, or the build under way. */
const perSettings = new WeakMap<IndexSettings, SynonymTable | SynonymBuild>();

/**
 * The build a search should step through before it looks synonyms up, or undefined when the
 * table is at hand (made already, kept from the last settings, or small enough to make at once).
 */
export function synonymTableBuild(settings: IndexSettings): SynonymBuild | undefined {
  const held = perSettings.get(settings);
  if (held !== undefined) return held instanceof SynonymBuild ? held : undefined;
  const [stopWords, custom] = [stopWordSet(settings), tokenizerRules(settings)];
  // listed once, for the comparison and the build (450,000 keys: ~0.1-0.4 s each listing)
  const keys = Object.keys(settings.synonyms);
  if (last !== undefined && last.stopWords === stopWords && last.custom === custom && sameSynonyms(last, settings.synonyms, keys)) {
    perSettings.set(settings, last.table);
    return undefined;
  }
  const build = new SynonymBuild(
    settings.synonyms,
    stopWords,
    custom,
    (table) => {
      perSettings.set(settings, table);
      last = { synonyms: settings.synonyms, keys, stopWords, custom, table };
    },
    keys,
  );
  if (build.size < SLICED_FROM_KEYS) {
    build.finish();
    return undefined;
  }
  perSettings.set(settings, build);
  return build;
}

/** The index's synonym table, finished at once if no search stepped through its build. */
export function synonymsOf(settings: IndexSettings): SynonymTable {
  const build = synonymTableBuild(settings);
  if (build !== undefined) return build.finish();
  return perSettings.get(settings) as SynonymTable;
}

/** Whether the synonyms a table was made from and `b` (whose keys are `others`) hold the same keys in the same order, with the same values. */
function sameSynonyms({ synonyms: a, keys }: Made, b: IndexSettings['synonyms'], others: readonly string[]): boolean {
  if (a === b) return true;
  if (keys.length !== others.length) return false;
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    if (key !== others[k]) return false;
    const [x, y] = [a[key]!, b[key]!];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  }
  return true;
}

/** Word lists in Rust's `Vec<String>` order: word by word, a prefix first. */
function compareWordLists(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length - b.length;
}
