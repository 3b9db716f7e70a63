/**
 * Turns the body of `POST|PUT /indexes/{uid}/documents` into the task's update file: NDJSON, one
 * compact object per line, written as the body streams in (only a document, or a run of them
 * within a body chunk, and one output batch are in memory at a time) and counted. Called by the
 * documents route after `documentsFormat`, with the chunks of `streamBody`.
 * Error order follows Meilisearch, which stores the whole body before parsing it: a body over
 * the limit (413) or a corrupt compression wins over a malformed payload, so after a parse
 * error the rest of the body is still read (and dropped) before the error is thrown. An empty
 * body is `missing_payload`. On any error no update file remains (`persist` removes it).
 */
import { ApiError } from '../../../errors/api-error.js';
import { formatByteSize, PayloadTooLarge } from '../read-body.js';
import { CsvParser } from './csv.js';
import type { DocumentsFormat } from './format.js';
import { JsonArrayParser } from './json-array.js';
import { NdjsonParser } from './ndjson.js';
import type { EmitDocument, EmitLines, PayloadParser } from './parser.js';

/** The part of the update-file store this module needs (`UpdateFiles` in src/store). */
export interface UpdateFileWriter {
  /** a chunk may be a list of pieces, written together */
  persist(chunks: AsyncIterable<Uint8Array | readonly Uint8Array[]>): Promise<{ uuid: string; size: number }>;
}

export interface WrittenPayload {
  uuid: string;
  documentsCount: number;
  size: number;
}

/** Output is handed to the file in batches of about this size: few writes, bounded memory. */
const BATCH_BYTES = 1 << 20;
/**
 * Pieces up to which a batch is handed over as they are, to be written together: runs of compact
 * documents (a body chunk's worth each) are then never copied. A batch of more pieces (documents
 * cut one by one, each with its newline) is joined into one buffer first.
 */
const LISTED_PIECES = 64;
const NEWLINE = Buffer.from('\n');

function parserFor(format: DocumentsFormat, delimiter: string, emit: EmitDocument, emitLines: EmitLines): PayloadParser {
  switch (format) {
    case 'json':
      return new JsonArrayParser(emit, emitLines);
    case 'ndjson':
      return new NdjsonParser(emit, emitLines);
    case 'csv':
      return new CsvParser(delimiter, emit);
  }
}

function payloadTooLarge(limit: number): ApiError {
  return new ApiError(
    'payload_too_large',
    `The provided payload reached the size limit. The maximum accepted payload size is ${formatByteSize(limit)}.`,
  );
}

/** Writes the update file of a payload. */
export async function writeDocumentsPayload(
  chunks: AsyncIterable<Buffer>,
  format: DocumentsFormat,
  delimiter: string,
  updateFiles: UpdateFileWriter,
  limit: number,
): Promise<WrittenPayload> {
  let documentsCount = 0;
  let batch: Uint8Array[] = [];
  let batchBytes = 0;
  const parser = parserFor(
    format,
    delimiter,
    (document) => {
      batch.push(document, NEWLINE);
      batchBytes += document.length + 1;
      documentsCount++;
    },
    (lines, count) => {
      batch.push(lines);
      batchBytes += lines.length;
      documentsCount += count;
    },
  );
  const takeBatch = (): Uint8Array | Uint8Array[] => {
    const out = batch.length <= LISTED_PIECES ? batch : Buffer.concat(batch, batchBytes);
    batch = [];
    batchBytes = 0;
    return out;
  };

  async function* ndjson(): AsyncGenerator<Uint8Array | Uint8Array[]> {
    let received = 0;
    let failure: { error: unknown } | undefined;
    try {
      for await (const chunk of chunks) {
        received += chunk.length;
        // `streamBody` enforces the limit too; checking here keeps the contract local.
        if (received > limit) throw payloadTooLarge(limit);
        if (failure !== undefined) continue;
        try {
          parser.write(chunk);
        } catch (error) {
          failure = { error };
          continue;
        }
        if (batchBytes >= BATCH_BYTES) yield takeBatch();
      }
    } catch (error) {
      throw error instanceof PayloadTooLarge ? payloadTooLarge(limit) : error;
    }
    if (received === 0) throw new ApiError('missing_payload', `A ${format} payload is missing.`);
    if (failure !== undefined) throw failure.error;
    parser.end();
    if (batchBytes > 0) yield takeBatch();
  }

  const { uuid, size } = await updateFiles.persist(ndjson());
  return { uuid, documentsCount, size };
}
