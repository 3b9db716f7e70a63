/**
 * Absolute-URL check with the reasons of Rust's `url` crate 2.5 (`url::ParseError`), which
 * Meilisearch quotes in its webhook, network and embedder errors. Node's WHATWG parser says only
 * "Invalid URL", so the reasons are told apart here the way the crate reaches them: the host
 * first (a bracketed IPv6 address; for http(s)-like schemes the domain through IDNA, then an IPv4
 * address when it ends in a number; for others the opaque host's characters), then the port.
 * Pure; shared by webhooks, the network and embedders.
 */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const SPECIAL = /^(https?|wss?|ftp):/i;
/** characters an opaque host (a non-special scheme's) may not hold */
const OPAQUE_FORBIDDEN = /[\0\t\n\r #/:<>?@[\\\]^|]/;

/** `undefined` when `text` is an absolute URL, else the `url` crate's reason. */
export function urlProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (!SCHEME.test(trimmed)) return 'relative URL without a base';
  if (parses(trimmed)) return undefined;
  const special = SPECIAL.test(trimmed);
  // authority = what follows `scheme://` up to the path, without user info
  const authority = /^[^:]+:\/*([^/?#]*)/.exec(trimmed)![1]!.replace(/^.*@/, '');
  const [, host = '', port] = /^(\[[^\]]*\]?|[^:]*)(?::(.*))?$/s.exec(authority) ?? [];
  if (host.startsWith('[')) {
    if (!host.endsWith(']') || !parses(`http://${host}`)) return 'invalid IPv6 address';
  } else if (special) {
    if (host === '') return 'empty host';
    if (!parses(`http://${host}`)) return endsInANumber(host) && /^[0-9a-fA-FxX.]+$/.test(host) ? 'invalid IPv4 address' : 'invalid international domain name';
  } else if (OPAQUE_FORBIDDEN.test(host)) {
    return 'invalid domain character';
  }
  if (port !== undefined && (!/^\d*$/.test(port) || Number(port) > 65535)) return 'invalid port number';
  return special ? 'invalid international domain name' : 'invalid domain character';
}

function parses(url: string): boolean {
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

/** WHATWG's "ends in a number": the last label (a trailing dot aside) is digits or an 0x number. */
function endsInANumber(host: string): boolean {
  const labels = host.split('.');
  if (labels.at(-1) === '' && labels.length > 1) labels.pop();
  const last = labels.at(-1)!;
  return /^[0-9]+$/.test(last) || /^0[xX][0-9a-fA-F]*$/.test(last);
}
