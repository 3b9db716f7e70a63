/**
 * Facet entries in a form one thread can hand another: per document, its distinct entries as
 * (faceted field path, key tail) pairs (store.ts `facetKeyTail`). Extraction workers ship them;
 * the facet updater makes each document's key strings from them with its own field ids.
 */
import type { JsonObject } from '../documents/document-id.js';
import type { IndexSettings } from '../../types/settings.js';
import { facetExtractorFor } from './extract.js';
import { facetKeyHead, facetKeyTail } from './store.js';

export interface ShippedFacets {
  /** the paths the entries name */
  readonly fields: readonly string[];
  /** per document (count + 1 entries): where its entries start */
  readonly docStarts: Int32Array;
  /** per entry: its path, as an index in `fields` */
  readonly entryFields: Int32Array;
  readonly tails: readonly string[];
}

/** The facet entries of `docs` under `settings`, in the order extraction meets them. */
export function shipFacets(docs: readonly JsonObject[], settings: IndexSettings): ShippedFacets {
  const { extract } = facetExtractorFor(settings);
  const fields: string[] = [];
  const fieldIndex = new Map<string, number>();
  const docStarts = new Int32Array(docs.length + 1);
  const entryFields: number[] = [];
  const tails: string[] = [];
  docs.forEach((doc, i) => {
    const seen = new Set<string>();
    extract(doc, (field, kind, value) => {
      let index = fieldIndex.get(field);
      if (index === undefined) {
        index = fields.length;
        fields.push(field);
        fieldIndex.set(field, index);
      }
      const tail = facetKeyTail(kind, value ?? undefined);
      const entry = `${index}:${tail}`;
      if (seen.has(entry)) return;
      seen.add(entry);
      entryFields.push(index);
      tails.push(tail);
    });
    docStarts[i + 1] = tails.length;
  });
  return { fields, docStarts, entryFields: Int32Array.from(entryFields), tails };
}

/** The key strings of shipped documents, with the field ids `idOf` gives, assigned as keys need them. */
export class FacetAdoption {
  private readonly heads = new WeakMap<ShippedFacets, (string | undefined)[]>();

  constructor(private readonly idOf: (field: string) => number) {}

  keysOf(shipped: ShippedFacets, index: number): Set<string> {
    let heads = this.heads.get(shipped);
    if (heads === undefined) this.heads.set(shipped, (heads = []));
    const keys = new Set<string>();
    for (let entry = shipped.docStarts[index]!; entry < shipped.docStarts[index + 1]!; entry++) {
      const field = shipped.entryFields[entry]!;
      const head = (heads[field] ??= facetKeyHead(this.idOf(shipped.fields[field]!)));
      keys.add(head + shipped.tails[entry]!);
    }
    return keys;
  }
}
