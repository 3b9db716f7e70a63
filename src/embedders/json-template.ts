/**
 * The REST embedder's JSON templates (vectors.md §5, milli's `json_template::InjectableValue`):
 * a JSON value holding one placeholder string (`"{{text}}"` in a request, `"{{embedding}}"` in a
 * response) either once as a plain value, or inside the first element of an array whose second
 * element is the repeat marker `"{{..}}"` (batch mode). Parsing reports milli's messages;
 * `inject` builds a request body from texts; `extract` reads the embeddings out of an answer.
 */

import { pathWithRoot } from '../engine/vectors/fragment-template.js';
import { osaWithin } from '../types/edit-distance.js';

export const TEXT_PLACEHOLDER = '{{text}}';
export const FRAGMENT_PLACEHOLDER = '{{fragment}}';
export const EMBEDDING_PLACEHOLDER = '{{embedding}}';
export const REPEAT_PLACEHOLDER = '{{..}}';

type PathComponent = string | number;
type Path = PathComponent[];

interface ArrayPath {
  repeated: unknown;
  pathToArray: Path;
  pathInArray: Path;
}

export interface InjectableValue {
  template: unknown;
  single: Path | null;
  array: ArrayPath | null;
}

/** A template that cannot be used, with milli's message (without the `in …:` root already applied). */
export class TemplateParseError extends Error {}


const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** milli's `InjectableParsingError` messages, placed under `root`. */
class Parser {
  single: Path | null = null;
  array: ArrayPath | null = null;

  constructor(
    private readonly root: string,
    private readonly placeholder: string,
  ) {}

  private fail(message: string): never {
    throw new TemplateParseError(message);
  }

  value(value: unknown, path: Path, nested: boolean): void {
    if (typeof value === 'string') {
      if (value === this.placeholder) {
        if (this.single !== null) {
          this.fail(`in ${pathWithRoot(this.root, path)}: Found "${this.placeholder}", but it was already present in ${pathWithRoot(this.root, this.single)}`);
        }
        this.single = [...path];
      }
      if (value === REPEAT_PLACEHOLDER) this.fail(`in ${pathWithRoot(this.root, path)}: "${REPEAT_PLACEHOLDER}" appears outside of an array`);
    } else if (Array.isArray(value)) {
      this.arrayValue(value, path, nested);
    } else if (isObject(value)) {
      for (const [key, inner] of Object.entries(value)) this.value(inner, [...path, key], nested);
    }
  }

  private arrayValue(array: unknown[], path: Path, nested: boolean): void {
    const at = pathWithRoot(this.root, path);
    if (array.length >= 2 && array[1] === REPEAT_PLACEHOLDER) {
      if (nested) this.fail(`in ${at}: "${REPEAT_PLACEHOLDER}" appears nested inside of a value that is itself repeated`);
      if (this.array !== null) {
        this.fail(`in ${at}: Found "${REPEAT_PLACEHOLDER}", but it was already present in ${pathWithRoot(this.root, this.array.pathToArray)}`);
      }
      if (array[0] === REPEAT_PLACEHOLDER) this.fail(`in ${at}: "${REPEAT_PLACEHOLDER}" expected at position #1, but found at position #0`);
      const later = array.slice(2).indexOf(REPEAT_PLACEHOLDER);
      if (later >= 0) this.fail(`in ${at}: "${REPEAT_PLACEHOLDER}" expected at position #1, but found at position #${later + 2}`);
      const inner = new Parser(this.root, this.placeholder);
      try {
        inner.value(array[0], [], true);
      } catch (error) {
        // Re-root the nested error's paths under the array's path, as milli's `prepend_path`.
        if (error instanceof TemplateParseError) this.fail(reRoot(error.message, this.root, path));
        throw error;
      }
      if (inner.single === null) this.fail(`in ${pathWithRoot(this.root, [...path, 0])}: Expected "${this.placeholder}" inside of the repeated value`);
      this.array = { repeated: array[0], pathToArray: [...path], pathInArray: inner.single };
      return;
    }
    const misplaced = array.indexOf(REPEAT_PLACEHOLDER);
    if (misplaced >= 0) this.fail(`in ${at}: "${REPEAT_PLACEHOLDER}" expected at position #1, but found at position #${misplaced}`);
    array.forEach((inner, index) => this.value(inner, [...path, index], nested));
  }
}

/** Puts `prefix` after the root of every `` `root…` `` path in a nested error. */
function reRoot(message: string, root: string, prefix: Path): string {
  const rooted = pathWithRoot(root, prefix).slice(0, -1);
  return message.split(`\`${root}`).join(rooted);
}

/** Parses a template holding `placeholder` (once, or repeated through `"{{..}}"`); throws `TemplateParseError`. */
export function parseInjectable(template: unknown, root: string, placeholder: string): InjectableValue {
  const parser = new Parser(root, placeholder);
  parser.value(template, [], false);
  const { single, array } = parser;
  if (single === null && array === null) throw new TemplateParseError(`in \`${root}\`: "${placeholder}" not found`);
  if (single !== null && array !== null) {
    throw new TemplateParseError(
      `in ${pathWithRoot(root, single)}: Found "${placeholder}", but it was already present in ${pathWithRoot(root, [...array.pathToArray, 0, ...array.pathInArray])} (repeated)`,
    );
  }
  return { template, single, array };
}

function cloneJson<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function setAt(root: unknown, path: readonly PathComponent[], value: unknown): unknown {
  if (path.length === 0) return value;
  let current = root as Record<string | number, unknown>;
  for (const component of path.slice(0, -1)) current = current[component] as Record<string | number, unknown>;
  current[path[path.length - 1]!] = value;
  return root;
}

/** The template with `values` put in place of the placeholder (one per repeated element in batch mode). */
export function inject(injectable: InjectableValue, values: readonly unknown[]): unknown {
  const rendered = cloneJson(injectable.template);
  if (injectable.single !== null) return setAt(rendered, injectable.single, values[0]);
  const { repeated, pathToArray, pathInArray } = injectable.array!;
  const items = values.map((value) => setAt(cloneJson(repeated), pathInArray, value));
  return setAt(rendered, pathToArray, items);
}

/** How milli describes a JSON value it did not expect. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return `an array of size ${value.length}`;
  if (isObject(value)) return `an object with ${Object.keys(value).length} field(s)`;
  return JSON.stringify(value);
}

function lastNamedObject(root: string, path: readonly PathComponent[]): string {
  let name = root;
  let index: number | null = null;
  let nesting = -1;
  for (const component of path) {
    if (typeof component === 'string') [name, index, nesting] = [component, null, -1];
    else [index, nesting] = [component, nesting + 1];
  }
  if (index === null) return `\`${name}\``;
  if (nesting === 0) return `item #${index} inside \`${name}\``;
  if (nesting === 1) return `item #${index} inside nested array in \`${name}\``;
  return `item #${index} inside nested array (${nesting} levels of nesting) in \`${name}\``;
}

function valueAt(value: unknown, path: readonly PathComponent[], root: string, context: string): unknown {
  let current = value;
  for (let i = 0; i < path.length; i++) {
    const component = path[i]!;
    const wanted = typeof component === 'number' ? `an array with at least ${component + 1} item(s)` : `an object with key \`${component}\``;
    const okKind = typeof component === 'number' ? Array.isArray(current) : isObject(current);
    if (!okKind) {
      throw new Error(
        `in ${pathWithRoot(root, path.slice(0, i))}, while ${context}, configuration expects ${lastNamedObject(root, path.slice(0, i))} to be ${wanted} but server sent ${describe(current)}`,
      );
    }
    const container = current as Record<string | number, unknown>;
    if (!Object.prototype.hasOwnProperty.call(container, component) || (Array.isArray(current) && (component as number) >= current.length)) {
      const missing = typeof component === 'number' ? `item #${component}` : `key "${component}"`;
      let hint = '';
      if (typeof component === 'string') {
        const suggestion = Object.keys(container).find((key) => key !== component && osaWithin(component, key, 2));
        if (suggestion !== undefined) {
          hint = `\n  - Hint: ${lastNamedObject(root, path.slice(0, i))} has key \`${suggestion}\`, did you mean ${pathWithRoot(root, [...path.slice(0, i), suggestion])} in embedder configuration?`;
        }
      }
      throw new Error(`in ${pathWithRoot(root, path.slice(0, i))}, while ${context}, configuration expects ${missing}, which is missing in response${hint}`);
    }
    current = container[component];
  }
  return current;
}

function asEmbedding(value: unknown, path: readonly PathComponent[], root: string, context: string): Float32Array {
  if (Array.isArray(value) && value.every((x) => typeof x === 'number')) return Float32Array.from(value as number[]);
  const found = Array.isArray(value) ? (value.find((x) => typeof x !== 'number') ?? value) : value;
  throw new Error(
    `in ${pathWithRoot(root, path)}, while ${context}, expected ${lastNamedObject(root, path)} to be an array of numbers, but failed to parse server response:\n  - invalid type: ${serdeKind(found)}, expected ${Array.isArray(value) ? 'f32' : 'a sequence'}`,
  );
}

/** serde's words for an unexpected value. */
function serdeKind(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  if (typeof value === 'boolean') return `boolean \`${value}\``;
  if (typeof value === 'number') return `${Number.isInteger(value) ? 'integer' : 'floating point'} \`${value}\``;
  return Array.isArray(value) ? 'sequence' : 'map';
}

/** The embeddings of an answer, or an Error with milli's extraction message. */
export function extractEmbeddings(injectable: InjectableValue, answer: unknown): Float32Array[] {
  const root = 'response';
  if (injectable.single !== null) {
    const context = `extracting a single "${EMBEDDING_PLACEHOLDER}"`;
    return [asEmbedding(valueAt(answer, injectable.single, root, context), injectable.single, root, context)];
  }
  const { pathToArray, pathInArray } = injectable.array!;
  const findContext = `extracting the array of "${EMBEDDING_PLACEHOLDER}"s`;
  const array = valueAt(answer, pathToArray, root, findContext);
  if (!Array.isArray(array)) {
    throw new Error(
      `in ${pathWithRoot(root, pathToArray)}, while ${findContext}, configuration expects ${lastNamedObject(root, pathToArray)} to be an array with at least 1 item(s) but server sent ${describe(array)}`,
    );
  }
  return array.map((item, index) => {
    const context = `extracting item #${index} from the array of "${EMBEDDING_PLACEHOLDER}"s`;
    return asEmbedding(valueAt(item, pathInArray, root, context), pathInArray, root, context);
  });
}
