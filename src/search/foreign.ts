/**
 * Foreign-key filters (experimental `foreignKeys`; docs/foreign-keys.md):
 * `_foreign(field, filter)` in a filter of index `uid` matches the documents whose `field` holds
 * the id of a document of the foreign index that `filter` matches, the foreign index being the one
 * `uid`'s `foreignKeys` setting names for `field`. As v1.50 (index-scheduler `filter.rs`), each
 * call is replaced by `field IN [<ids>]` before the filter reaches the index, so `field` must be
 * filterable there. Checked in v1.50's order, for every call before any foreign index is read:
 * `field` must be one of `foreignKeys`' fields, then the inner filter may hold no `_foreign`;
 * then each foreign index once (`index_not_found` when missing) evaluates its calls' filters, in
 * its own filterable attributes, and may answer at most 100 documents for all of them. These
 * errors name the index and carry `invalid_search_filter` whatever the route, but for the inner
 * filter's own errors on the foreign index, which carry `invalid_document_filter` and point into
 * the request's filter, as in v1.50.
 */
import { documentId } from '../engine/document-id.js';
import { fromSorted, unionAll, type DocSet } from '../engine/docset.js';
import { evaluateFilter } from '../engine/filter/evaluate.js';
import { walkFilter, type FilterAst, type Token } from '../engine/filter-parser/index.js';
import { searchSettings } from '../engine/index-settings.js';
import { vectorFilter } from '../engine/vectors/index.js';
import { ApiError, inIndex } from '../errors/api-error.js';
import type { IndexSettings } from '../types/settings.js';
import type { SearchContext } from './context.js';

const MAX_FOREIGN_DOCUMENTS = 100;
const CODE = 'invalid_search_filter';
/** what v1.50 answers for an error of the inner filter on the foreign index */
const INNER_CODE = 'invalid_document_filter';

type Foreign = Extract<FilterAst, { type: 'foreign' }>;

function foreignCalls(ast: FilterAst): Foreign[] {
  const calls: Foreign[] = [];
  walkFilter(ast, (node) => {
    if (node.type === 'foreign') calls.push(node);
  });
  return calls;
}

/** `ast` with each `_foreign` call replaced by what `replace` makes of it. */
function replaceForeign(ast: FilterAst, replace: (call: Foreign) => FilterAst): FilterAst {
  switch (ast.type) {
    case 'and':
    case 'or':
      return { ...ast, children: ast.children.map((child) => replaceForeign(child, replace)) };
    case 'not':
      return { ...ast, child: replaceForeign(ast.child, replace) };
    case 'foreign':
      return replace(ast);
    default:
      return ast;
  }
}

/** The filters of a search of index `uid` (its `settings`), each `_foreign` call resolved into an `IN`. */
export function resolveForeignFilters(ctx: SearchContext, uid: string, settings: IndexSettings, asts: readonly FilterAst[]): FilterAst[] {
  const calls = asts.flatMap(foreignCalls);
  if (calls.length === 0) return [...asts];
  const targets = new Map<Foreign, string>();
  for (const call of calls) {
    const key = settings.foreignKeys.find((fk) => fk.fieldName === call.field.value);
    if (key === undefined) throw new ApiError(CODE, `Index \`${uid}\`: Field \`${call.field.value}\` is not a foreign key`);
    if (foreignCalls(call.filter).length > 0) throw new ApiError(CODE, `Index \`${uid}\`: Nested foreign filters are not supported`);
    targets.set(call, key.foreignIndexUid);
  }
  const ids = new Map<Foreign, string[]>();
  for (const foreignUid of new Set(targets.values())) {
    const env = ctx.indexReader.open(foreignUid);
    const foreignSettings = searchSettings(env);
    const ofIndex = calls.filter((call) => targets.get(call) === foreignUid);
    const matched = new Map<Foreign, DocSet>();
    for (const call of ofIndex) {
      try {
        // as sent: its errors point into the request's filter, echoed from the `_foreign` call
        matched.set(call, evaluateFilter(env, foreignSettings, call.filter, { code: INNER_CODE, vectors: vectorFilter(env, foreignSettings), columns: true }));
      } catch (err) {
        throw err instanceof ApiError ? inIndex(foreignUid, err) : err;
      }
    }
    if (unionAll([...matched.values(), fromSorted([])]).length > MAX_FOREIGN_DOCUMENTS) {
      throw new ApiError(
        CODE,
        `Index \`${foreignUid}\`: Foreign filter is retrieving too many documents, foreign filters can't retrieve more than ${MAX_FOREIGN_DOCUMENTS} documents per index`,
      );
    }
    const primaryKey = ctx.indexReader.get(foreignUid)?.primaryKey ?? null;
    for (const [call, docids] of matched) {
      const found: string[] = [];
      for (const docid of docids) {
        const doc = env.documents.get(docid);
        if (doc !== undefined && primaryKey !== null) found.push(documentId(doc, primaryKey));
      }
      ids.set(call, found);
    }
  }
  return asts.map((ast) =>
    replaceForeign(ast, (call): FilterAst => ({ type: 'in', field: call.field, values: ids.get(call)!.map((value): Token => ({ value, span: call.field.span })) })),
  );
}
