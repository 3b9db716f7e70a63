/**
 * The documents route's check of an NDJSON payload line it would store as it is: one compact
 * JSON object (valid UTF-8, no whitespace outside strings) that nests no deeper than the body
 * reader lets a document nest, decided by the JSON line kernel in one pass instead of a UTF-8
 * check, JSON.parse and a scan on the HTTP thread. A line it refuses is read by the body
 * reader's byte-by-byte cutter, which compacts it or reports the error.
 * A service because the route layer may not call kernels itself.
 */
import { isCompactJsonObject } from '../kernels/json-line.js';

export function isCompactObjectLine(line: Uint8Array, maxDepth: number): boolean {
  return isCompactJsonObject(line, maxDepth);
}
