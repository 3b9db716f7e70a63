/**
 * Document payloads of `POST|PUT /indexes/{uid}/documents`: `documentsFormat` picks JSON, NDJSON
 * or CSV from the request, `writeDocumentsPayload` streams the body into an NDJSON update file.
 * The documents route is the caller; the parsers behind these two stay private to this folder.
 */
export { checkCsvDelimiter, documentsFormat, DOCUMENTS_CONTENT_TYPES, type DocumentsFormat, type DocumentsPayloadFormat } from './format.js';
export { writeDocumentsPayload, type UpdateFileWriter, type WrittenPayload } from './payload.js';
