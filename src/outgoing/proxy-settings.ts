/**
 * Which proxy an outgoing request goes through, read from the environment at start as v1.50's two
 * HTTP clients read it, for each keeps its own rules:
 * - ureq 3.3 (embedders, webhooks, export, the Hugging Face hub; `Proxy::try_from_env` in its
 *   default config): one proxy for every URL, the first of `ALL_PROXY`, `all_proxy`,
 *   `HTTPS_PROXY`, `https_proxy`, `HTTP_PROXY`, `http_proxy` that parses; always a tunnel, for an
 *   `http` URL too: CONNECT, or SOCKS (its `socks-proxy` feature is on: `socks4`, `socks4a`,
 *   `socks`/`socks5`, `socks5h`); credentials as the URL writes them; `NO_PROXY` (else `no_proxy`) entries
 *   split on commas, untrimmed: `*`, a `*`- or `.`-led suffix, a `*`- or `.`-ended prefix, or an exact
 *   host, without case.
 * - reqwest 0.12 through hyper-util 0.1.20 (remote search and writes, chat providers,
 *   personalization, S3 snapshots; `Matcher::from_system`): `HTTP_PROXY` (else `http_proxy`) for
 *   `http` URLs, `HTTPS_PROXY` (else `https_proxy`) for `https` ones, `ALL_PROXY` (else
 *   `all_proxy`) for either when its own is unset or unusable, none at all under CGI
 *   (`REQUEST_METHOD` set); an `http` URL is sent to the proxy whole (absolute form), an `https` one
 *   through a CONNECT tunnel; credentials percent-decoded; `NO_PROXY` (else `no_proxy`) entries
 *   trimmed: IP addresses, CIDR networks, `*`, or a domain matching itself and its subdomains.
 *   Built without its `socks` feature, reqwest fails a request a SOCKS proxy would carry: here
 *   `UnsupportedProxy`, which `unsupported` names at start.
 * The IP policy follows each client (see `ProxyRoute`).
 */
import { isIP } from 'node:net';
import { bareHost, contains, parseAddress, parseNetwork, type Network } from './cidr.js';

/** Which of v1.50's clients a caller stands for, and so whose proxy rules apply. */
export type ProxyRules = 'ureq' | 'reqwest';

/** How one request reaches its URL through a proxy. */
export interface ProxyRoute {
  /** the proxy's host (an IPv6 address without brackets) and port */
  readonly host: string;
  readonly port: number;
  /** an `https://` proxy: TLS to it */
  readonly tls: boolean;
  /** `Proxy-Authorization`, from the proxy URL's credentials */
  readonly authorization: string | undefined;
  /** a tunnel to the URL's host (CONNECT, or SOCKS), else the request sent whole to the proxy */
  readonly tunnel: boolean;
  /**
   * A SOCKS proxy (ureq's): its version, and the URL's host resolved here first (`socks4`,
   * `socks5`: then checked by the IP policy, as ureq's resolver) or by the proxy (`socks4a`,
   * `socks5h`); the credentials are SOCKS5's.
   */
  readonly socks: { version: 4 | 5; resolveHere: boolean; credentials: { user: string; password: string } | null } | null;
  /**
   * The IP policy on a proxy named by an IP literal: ureq's resolver checks every address it hands
   * out, a literal too; hyper's connector never asks reqwest's resolver about one. A proxy named by
   * a host name has its addresses checked by both.
   */
  readonly checkProxyLiteral: boolean;
  /**
   * The IP policy on the URL's own IP literal: reqwest's wrapper checks it before sending
   * (`check_ip_in_hostname`); ureq, which leaves the URL's host to the proxy, never looks at it
   * (but through a SOCKS proxy that has it resolved here, `socks.resolveHere`).
   */
  readonly checkTargetLiteral: boolean;
}

/** A SOCKS proxy for reqwest's callers, which v1.50's reqwest (no `socks` feature) cannot use either. */
export class UnsupportedProxy extends Error {
  override readonly name = 'UnsupportedProxy';

  constructor(variable: string, scheme: string) {
    super(`the proxy in \`${variable}\` is a \`${scheme}\` proxy, which remote searches and writes, chat providers, personalization and S3 snapshots do not speak (nor in v1.50): their requests fail`);
  }
}

interface ProxyUrl {
  variable: string;
  scheme: string;
  host: string;
  port: number;
  credentials: { user: string; password: string } | null;
}

type Env = Readonly<Record<string, string | undefined>>;

const UREQ_SCHEMES: Record<string, number> = { http: 80, https: 443, socks4: 1080, socks4a: 1080, socks: 1080, socks5: 1080, socks5h: 1080 };
const REQWEST_SCHEMES = new Set(['http', 'https', 'socks4', 'socks4a', 'socks5', 'socks5h']);
/** ureq's SOCKS schemes: version, and the URL's host resolved here */
const SOCKS: Record<string, { version: 4 | 5; resolveHere: boolean }> = {
  socks4: { version: 4, resolveHere: true },
  socks4a: { version: 4, resolveHere: false },
  socks: { version: 5, resolveHere: true },
  socks5: { version: 5, resolveHere: true },
  socks5h: { version: 5, resolveHere: false },
};

export class ProxySettings {
  /** What the server warns of at start: a SOCKS proxy that reqwest's callers cannot use. */
  readonly unsupported: readonly string[];

  private constructor(
    private readonly ureq: { proxy: ProxyUrl; noProxy: ((host: string) => boolean) | null } | null,
    private readonly reqwest: { http: ProxyUrl | null; https: ProxyUrl | null; noProxy: (host: string) => boolean },
  ) {
    const proxies = [reqwest.http, reqwest.https].filter((proxy) => proxy !== null && proxy.scheme in SOCKS);
    this.unsupported = [...new Set(proxies.map((proxy) => new UnsupportedProxy(proxy!.variable, proxy!.scheme).message))];
  }

  static readonly none = new ProxySettings(null, { http: null, https: null, noProxy: () => false });

  static fromEnv(env: Env): ProxySettings {
    let ureq: ProxySettings['ureq'] = null;
    for (const variable of ['ALL_PROXY', 'all_proxy', 'HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) {
      const proxy = env[variable] === undefined ? null : parseProxyUrl(variable, env[variable], UREQ_SCHEMES);
      if (proxy === null) continue;
      const noProxy = firstSet(env, ['NO_PROXY', 'no_proxy']);
      ureq = { proxy, noProxy: noProxy === undefined ? null : ureqNoProxy(noProxy[1]) };
      break;
    }
    if (env.REQUEST_METHOD !== undefined) return new ProxySettings(ureq, ProxySettings.none.reqwest);
    const reqwestProxy = (names: string[]) => {
      const found = firstSet(env, names);
      return found === undefined ? null : parseProxyUrl(found[0], found[1], REQWEST_SCHEMES);
    };
    const all = reqwestProxy(['ALL_PROXY', 'all_proxy']);
    return new ProxySettings(ureq, {
      http: reqwestProxy(['HTTP_PROXY', 'http_proxy']) ?? all,
      https: reqwestProxy(['HTTPS_PROXY', 'https_proxy']) ?? all,
      noProxy: reqwestNoProxy(firstSet(env, ['NO_PROXY', 'no_proxy'])?.[1] ?? ''),
    });
  }

  /** `null`: straight to the URL's host. Throws `UnsupportedProxy` for a SOCKS proxy and reqwest's rules. */
  route(target: URL, rules: ProxyRules): ProxyRoute | null {
    const host = target.hostname;
    if (rules === 'ureq') {
      if (this.ureq === null || this.ureq.noProxy?.(host) === true) return null;
      const { proxy } = this.ureq;
      const socks = SOCKS[proxy.scheme];
      if (socks === undefined) return { ...toRoute(proxy, 'basic'), tunnel: true, checkProxyLiteral: true, checkTargetLiteral: false };
      return { host: proxy.host, port: proxy.port, tls: false, authorization: undefined, tunnel: true, socks: { ...socks, credentials: proxy.credentials }, checkProxyLiteral: true, checkTargetLiteral: socks.resolveHere };
    }
    const proxy = target.protocol === 'https:' ? this.reqwest.https : target.protocol === 'http:' ? this.reqwest.http : null;
    if (proxy === null || this.reqwest.noProxy(host)) return null;
    if (proxy.scheme in SOCKS) throw new UnsupportedProxy(proxy.variable, proxy.scheme);
    return { ...toRoute(proxy, 'Basic', decodeURIComponentLossy), tunnel: target.protocol === 'https:', checkProxyLiteral: false, checkTargetLiteral: true };
  }
}

/** An HTTP proxy's address, TLS and `Proxy-Authorization` (`scheme` and the credentials as `decode` reads them). */
function toRoute(proxy: ProxyUrl, scheme: string, decode = (text: string) => text) {
  const { credentials } = proxy;
  const authorization = credentials === null ? undefined : `${scheme} ${Buffer.from(`${decode(credentials.user)}:${decode(credentials.password)}`).toString('base64')}`;
  return { host: proxy.host, port: proxy.port, tls: proxy.scheme === 'https', authorization, socks: null };
}

function firstSet(env: Env, names: string[]): [string, string] | undefined {
  const name = names.find((candidate) => env[candidate] !== undefined);
  return name === undefined ? undefined : [name, env[name]!];
}

/**
 * A proxy URL, `null` unless both clients would take it: a scheme among `schemes` (none means
 * `http`) and a host. The port defaults to the scheme's (ureq's; reqwest's are the same).
 */
function parseProxyUrl(variable: string, text: string | undefined, schemes: Record<string, number> | Set<string>): ProxyUrl | null {
  if (text === undefined || text === '') return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  let url: URL;
  try {
    url = new URL(hasScheme ? text : `http://${text}`);
  } catch {
    return null;
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  const known = schemes instanceof Set ? schemes.has(scheme) : scheme in schemes;
  if (!known || url.hostname === '') return null;
  // `new URL` keeps a special scheme's default port out of `port`; other schemes need theirs.
  const port = url.port === '' ? (UREQ_SCHEMES[scheme] ?? 80) : Number(url.port);
  // the credentials as written, not as `URL` re-encodes them
  const authority = /^[^:]*:\/\/([^/?#]*)/.exec(hasScheme ? text : `http://${text}`)![1]!;
  const at = authority.lastIndexOf('@');
  const [user = '', ...password] = authority.slice(0, Math.max(at, 0)).split(':');
  return { variable, scheme, host: bareHost(url.hostname), port, credentials: at === -1 ? null : { user, password: password.join(':') } };
}

function decodeURIComponentLossy(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** ureq's NO_PROXY: entries as written (not trimmed), matched without case. */
function ureqNoProxy(list: string): (host: string) => boolean {
  const matchers = list.split(',').map((entry): ((host: string) => boolean) => {
    const lower = entry.toLowerCase();
    if (entry === '*') return () => true;
    if (entry.startsWith('*')) return (host) => host.toLowerCase().endsWith(lower.slice(1));
    if (entry.startsWith('.')) return (host) => host.toLowerCase().endsWith(lower);
    if (entry.endsWith('*')) return (host) => host.toLowerCase().startsWith(lower.slice(0, -1));
    if (entry.endsWith('.')) return (host) => host.toLowerCase().startsWith(lower);
    return (host) => host.toLowerCase() === lower;
  });
  return (host) => matchers.some((matches) => matches(host));
}

/** hyper-util's NO_PROXY (after curl's): IPs and networks, `*`, or domains with their subdomains. */
function reqwestNoProxy(list: string): (host: string) => boolean {
  const networks: Network[] = [];
  const domains: string[] = [];
  for (const entry of list.split(',').map((part) => part.trim())) {
    const network = entry.includes('/') || isIP(entry) !== 0 ? parseNetwork(entry) : null;
    if (network !== null) networks.push(network);
    else if (entry !== '') domains.push(entry.toLowerCase());
  }
  return (host) => {
    const bare = bareHost(host);
    const address = parseAddress(bare);
    if (address !== null) return networks.some((network) => contains(network, address));
    const domain = bare.toLowerCase();
    return domains.some(
      (d) => d === '*' || d === domain || d === `.${domain}` || (domain.endsWith(d) && (d.startsWith('.') || domain[domain.length - d.length - 1] === '.')),
    );
  };
}
