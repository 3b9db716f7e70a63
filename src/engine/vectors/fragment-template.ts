/**
 * Fragment templates (vectors.md §3.1, milli's `json_template::JsonTemplate`): a JSON value whose
 * every string is a Liquid template. An indexing fragment renders against a document's `doc`
 * (milli's `Context::without_fields`: no `fields`), a search fragment against the query's `q`
 * and/or `media`. Strict variables, as document templates (template.ts): a fragment that names
 * what its input lacks fails to render, which the indexer and the query side read as "this
 * fragment does not apply". Errors keep the path of the failing string for milli's messages.
 */
import type { JsonObject } from '../../types/task.js';
import { LiquidError, liquidValue, renderLiquid, templateContext, templateParseProblem } from './template.js';

type Path = (string | number)[];

/** `` `root.a[0]` ``, as milli's `path_with_root`. */
export function pathWithRoot(root: string, path: readonly (string | number)[]): string {
  let out = `\`${root}`;
  for (const component of path) out += typeof component === 'number' ? `[${component}]` : `.${component}`;
  return `${out}\``;
}

/** A string of a fragment that does not parse or render: its path and the Liquid error (`liquid: …`). */
export class FragmentTemplateError extends Error {
  constructor(
    readonly path: Path,
    readonly liquid: string,
  ) {
    super(liquid);
  }

  private framed(root: string, what: string): string {
    // sic: milli puts its path, already in backquotes, in backquotes again
    return this.path.length === 0 ? `error while ${what} template: ${this.liquid}` : `in \`${pathWithRoot(root, this.path)}\`, error while ${what} template: ${this.liquid}`;
  }

  /** milli's `Error::parsing_error(root)`. */
  parsingError(root: string): string {
    return this.framed(root, 'parsing');
  }

  /** milli's `Error::rendering_error(root)`. */
  renderingError(root: string): string {
    return this.framed(root, 'rendering');
  }
}

function entries(value: unknown): [string | number, unknown][] {
  if (Array.isArray(value)) return value.map((inner, i) => [i, inner]);
  if (value !== null && typeof value === 'object') return Object.entries(value);
  return [];
}

/** The first string of `fragment` that is no valid Liquid template, in document order; undefined when all parse. */
export function fragmentParseError(fragment: unknown, path: Path = []): FragmentTemplateError | undefined {
  if (typeof fragment === 'string') {
    const problem = templateParseProblem(fragment);
    return problem === undefined ? undefined : new FragmentTemplateError(path, problem.replace(/^user error: cannot parse template: /, ''));
  }
  for (const [key, inner] of entries(fragment)) {
    const error = fragmentParseError(inner, [...path, key]);
    if (error !== undefined) return error;
  }
  return undefined;
}

/** `fragment` with each string rendered against `context` (values made by `liquidValue`); throws `FragmentTemplateError`. */
export function renderFragment(fragment: unknown, context: Record<string, unknown>, path: Path = []): unknown {
  if (typeof fragment === 'string') {
    try {
      return renderLiquid(fragment, context);
    } catch (error) {
      if (error instanceof LiquidError) throw new FragmentTemplateError(path, error.message);
      throw error;
    }
  }
  if (Array.isArray(fragment)) return fragment.map((inner, i) => renderFragment(inner, context, [...path, i]));
  if (fragment !== null && typeof fragment === 'object') {
    return Object.fromEntries(Object.entries(fragment).map(([key, inner]) => [key, renderFragment(inner, context, [...path, key])]));
  }
  return fragment;
}

/** The context an indexing fragment renders against: the document as `doc` only. */
export function documentFragmentContext(doc: JsonObject): Record<string, unknown> {
  return { doc: templateContext(doc).doc };
}

/** The context a search fragment renders against (milli's `render_search`): `q` and `media` when given. */
export function searchFragmentContext(q: string | null | undefined, media: unknown): Record<string, unknown> {
  const context: Record<string, unknown> = {};
  if (q !== null && q !== undefined) context.q = q;
  if (media !== null && media !== undefined) context.media = liquidValue(media);
  return context;
}

/** What an indexing fragment gives for `doc`: the rendered value, or undefined when it does not render (milli skips it). */
export function renderDocumentFragment(fragment: unknown, context: Record<string, unknown>): unknown {
  try {
    return renderFragment(fragment, context);
  } catch (error) {
    if (error instanceof FragmentTemplateError) return undefined;
    throw error;
  }
}
