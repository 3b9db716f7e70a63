/**
 * The values of an index's documents database: each document as its JSON text (UTF-8), as
 * Meilisearch keeps a document's fields as JSON values.
 *
 * Why JSON rather than msgpack: a payload line the batch stores unchanged (the common case of an
 * addition) is already its document's JSON, so the index writer puts the line's bytes as they
 * are instead of encoding the parsed object again (msgpackr's `pack` was a sixth of the writer's
 * time in a load, and V8 kept recompiling it as new document shapes reached it). Reading back
 * goes through `parseWithFloats` (`parseJson`), so 64-bit integers and `__proto__` keys come back
 * as they were sent, and the numbers the text wrote as floats (`9.0`, types/written-floats.ts)
 * are marked, which answers, dumps and a document written again (`encode`, through
 * `stringifyReply`) write as floats.
 *
 * `encode` takes a document object, or a Uint8Array that already holds a document's JSON text
 * (a stored document is never a Uint8Array). `decode` also reads the msgpack values of indexes
 * of storage format 3 or older (store/env.ts), which an upgrade converts (documents/store.ts
 * `storeAsJson`): those always start with msgpackr's record extension (0xd4), never with `{`.
 * lmdb uses an encoder object with `encode` and `decode` as it is (open.js); without
 * `needsStableBuffer` it hands `decode` its shared read buffer, whose `length` it sets to the value's.
 */
import { stringifyReply } from '../types/reply-text.js';
import { parseWithFloats } from '../types/written-floats.js';
import { ProtoSafePackr } from './proto-safe-packr.js';

const OPEN_BRACE = 0x7b;

/** Decodes the msgpack documents of older indexes, as lmdb's default encoder for them did. */
const legacy = new ProtoSafePackr({ copyBuffers: true });

/** Whether a stored value is a document's JSON text, not the msgpack of an older index. */
export function isDocumentText(stored: Uint8Array): boolean {
  return stored[0] === OPEN_BRACE;
}

export const documentCodec = {
  encode(value: unknown): Uint8Array | string {
    return value instanceof Uint8Array ? value : stringifyReply(value);
  },
  decode(source: Uint8Array): unknown {
    const bytes = Buffer.from(source.buffer, source.byteOffset, source.length);
    if (!isDocumentText(bytes)) return legacy.unpack(bytes);
    return parseWithFloats(bytes.toString('utf8'));
  },
};

/** The `openDB` option of the documents database. */
export const JSON_DOCUMENT_VALUES = { encoder: documentCodec };
