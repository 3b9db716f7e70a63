/**
 * One stored document's `_formatted` and `_matchesPosition` from its stored bytes: decoded,
 * projected and formatted as a page's hits are (format.ts), by a thread that holds no index
 * environment (workers/format-thread.ts runs it for a large document, so that neither its
 * decoding nor its formatting holds the thread answering requests). What crosses threads is
 * plain data: the markup budget as the units left, a refusal as its code and message.
 */
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import { documentCodec } from '../../store/json-documents.js';
import { projectDocument } from '../documents/project.js';
import type { JsonObject } from '../document-id.js';
import { formatHits, type FormatOptions, type FormattedHit, type MatchTerm } from './format.js';

export interface StoredFormatJob {
  /** the document as the documents database stores it */
  readonly bytes: Uint8Array;
  readonly terms: readonly MatchTerm[];
  readonly options: Omit<FormatOptions, 'markup'>;
  /** what the request's tags and crop markers may still take */
  readonly markupLeft: number;
}

export type StoredFormatAnswer = { readonly hit: FormattedHit; readonly markupLeft: number } | { readonly refused: { readonly code: ErrorCode; readonly message: string } };

export function formatStored(job: StoredFormatJob): StoredFormatAnswer {
  // formatting reads no vectors and walks no facets
  const markup = { left: job.markupLeft, vectors: 0, facetWalkNs: 0 };
  try {
    const doc = projectDocument(documentCodec.decode(job.bytes) as JsonObject, null);
    const [hit] = formatHits([doc], job.terms, { ...job.options, markup });
    return { hit: hit!, markupLeft: markup.left };
  } catch (err) {
    if (err instanceof ApiError) return { refused: { code: err.code, message: err.message } };
    throw err;
  }
}
