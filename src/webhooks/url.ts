/**
 * Absolute-URL check with the reasons of Rust's `url` crate (`url::ParseError`), which
 * Meilisearch quotes in its webhook and network errors. Node's WHATWG parser says only
 * "Invalid URL", so the common reasons are told apart here. Pure; shared by webhooks and network.
 */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const SPECIAL = /^(https?|wss?|ftp|file):/i;

/** `undefined` when `text` is an absolute URL, else the `url` crate's reason. */
export function urlProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (!SCHEME.test(trimmed)) return 'relative URL without a base';
  try {
    new URL(trimmed);
    return undefined;
  } catch {
    // authority = what follows `scheme://` up to the path, without user info
    const authority = /^[^:]+:\/*([^/?#]*)/.exec(trimmed)![1]!.replace(/^.*@/, '');
    if (SPECIAL.test(trimmed) && authority === '') return 'empty host';
    const port = /^(?:\[[^\]]*\]|[^:]*):(.*)$/.exec(authority)?.[1];
    if (port !== undefined && (!/^\d*$/.test(port) || Number(port) > 65535)) return 'invalid port number';
    return 'invalid domain character';
  }
}
