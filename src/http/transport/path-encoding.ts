/**
 * actix routes a path whatever its percent-encoding: a `%` not followed by two hex digits is kept
 * as a `%`, and encoded bytes that are not UTF-8 decode as U+FFFD (`requote_str_lossy`), so the
 * route answers (`invalid_index_uid`, `index_not_found`…). find-my-way refuses such a path before
 * any route (FST_ERR_BAD_URL). `readablePath` rewrites it into the encoding of what actix reads
 * (Fastify's `rewriteUrl`); the query string is left as sent, its parsers read it themselves.
 */

/** `url` with its path's stray `%` and non-UTF-8 escapes encoded as actix decodes them. */
export function readablePath(url: string): string {
  const percent = url.indexOf('%');
  if (percent === -1) return url;
  const end = pathEnd(url);
  if (percent >= end) return url;
  const path = url.slice(0, end).replace(/(?:%[0-9A-Fa-f]{2})+|%/g, (run) => (run === '%' ? '%25' : utf8Escapes(run)));
  return path + url.slice(end);
}

/** Where the path ends, as find-my-way splits it: at the first `?` or `#`. */
function pathEnd(url: string): number {
  const query = url.indexOf('?');
  const fragment = url.indexOf('#');
  if (query === -1) return fragment === -1 ? url.length : fragment;
  return fragment === -1 ? query : Math.min(query, fragment);
}

/** A run of escapes as is when its bytes are UTF-8, else its lossy decoding re-encoded. */
function utf8Escapes(run: string): string {
  try {
    decodeURIComponent(run);
    return run;
  } catch {
    return encodeURIComponent(new TextDecoder().decode(Buffer.from(run.replace(/%/g, ''), 'hex')));
  }
}
