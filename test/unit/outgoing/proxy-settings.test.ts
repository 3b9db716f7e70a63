/**
 * The proxy each outgoing request goes through, from the environment as v1.50's clients read it:
 * ureq's one proxy (ALL_PROXY, then HTTPS_PROXY, then HTTP_PROXY, the first that parses) tunnelling
 * everything, with its NO_PROXY patterns; reqwest's proxy per scheme (ALL_PROXY as fallback, none
 * under CGI), curl's NO_PROXY rules; credentials raw (ureq) or percent-decoded (reqwest); TLS to
 * an https proxy; a SOCKS proxy for ureq's callers, refused by name for reqwest's.
 */
import { describe, expect, it } from 'vitest';
import { ProxySettings, UnsupportedProxy, type ProxyRules } from '../../../src/outgoing/proxy-settings.js';

const route = (env: Record<string, string>, url: string, rules: ProxyRules) => ProxySettings.fromEnv(env).route(new URL(url), rules);
const proxyOf = (env: Record<string, string>, url: string, rules: ProxyRules) => {
  const found = route(env, url, rules);
  return found === null ? null : `${found.host}:${found.port}`;
};
const basic = (credentials: string) => Buffer.from(credentials).toString('base64');

describe("ureq's rules (embedders, webhooks, export)", () => {
  it('takes ALL_PROXY, then HTTPS_PROXY, then HTTP_PROXY, lower case after upper, for every URL', () => {
    const env = { HTTP_PROXY: 'http://h:1', https_proxy: 'http://s:2' };
    expect(proxyOf(env, 'http://a.example/', 'ureq')).toBe('s:2');
    expect(proxyOf({ ...env, all_proxy: 'http://all:3' }, 'https://a.example/', 'ureq')).toBe('all:3');
    expect(proxyOf({ http_proxy: 'http://low:4', HTTP_PROXY: 'http://up:5' }, 'http://a.example/', 'ureq')).toBe('up:5');
  });

  it('skips a value that does not parse; no scheme means http on port 80', () => {
    expect(proxyOf({ ALL_PROXY: 'ftp://f:1', HTTP_PROXY: 'proxy.example' }, 'http://a.example/', 'ureq')).toBe('proxy.example:80');
  });

  it('tunnels every URL and checks the proxy, not the URL, against the IP policy', () => {
    expect(route({ HTTP_PROXY: 'http://p:8080' }, 'http://a.example/', 'ureq')).toEqual({ host: 'p', port: 8080, tls: false, authorization: undefined, tunnel: true, socks: null, checkProxyLiteral: true, checkTargetLiteral: false });
  });

  it('sends the credentials as written, with `basic`', () => {
    expect(route({ HTTP_PROXY: 'http://us%40er:p:w@p:1' }, 'http://a.example/', 'ureq')?.authorization).toBe(`basic ${basic('us%40er:p:w')}`);
  });

  it("matches NO_PROXY's entries as written: exact, suffix, prefix, everything", () => {
    const bypassed = (noProxy: string, host: string) => route({ HTTP_PROXY: 'http://p:1', NO_PROXY: noProxy }, `http://${host}/`, 'ureq') === null;
    expect(bypassed('a.example', 'A.example')).toBe(true);
    expect(bypassed('a.example', 'b.a.example')).toBe(false);
    expect(bypassed('.example', 'a.example')).toBe(true);
    expect(bypassed('.example', 'example')).toBe(false);
    expect(bypassed('*.example', 'a.example')).toBe(true);
    expect(bypassed('10.*', '10.1.2.3')).toBe(true);
    expect(bypassed('*', 'anything')).toBe(true);
    // not trimmed, unlike reqwest's
    expect(bypassed('x.example, a.example', 'a.example')).toBe(false);
    expect(bypassed('x.example,a.example', 'a.example')).toBe(true);
  });
});

describe("reqwest's rules (remote search and writes, chats, personalization, S3)", () => {
  it('takes HTTP_PROXY for http URLs, HTTPS_PROXY for https ones, ALL_PROXY for the other', () => {
    const env = { HTTP_PROXY: 'http://h:1', ALL_PROXY: 'http://all:3' };
    expect(proxyOf(env, 'http://a.example/', 'reqwest')).toBe('h:1');
    expect(proxyOf(env, 'https://a.example/', 'reqwest')).toBe('all:3');
    expect(proxyOf({ HTTP_PROXY: 'http://h:1' }, 'https://a.example/', 'reqwest')).toBeNull();
    // the first variable set is the one read, even unusable (then ALL_PROXY)
    expect(proxyOf({ HTTP_PROXY: 'ftp://x', http_proxy: 'http://low:2', ALL_PROXY: 'http://all:3' }, 'http://a.example/', 'reqwest')).toBe('all:3');
  });

  it('uses no proxy at all under CGI (REQUEST_METHOD set)', () => {
    expect(proxyOf({ HTTP_PROXY: 'http://h:1', REQUEST_METHOD: 'GET' }, 'http://a.example/', 'reqwest')).toBeNull();
    expect(proxyOf({ HTTP_PROXY: 'http://h:1', REQUEST_METHOD: 'GET' }, 'http://a.example/', 'ureq')).toBe('h:1');
  });

  it('sends an http URL whole and tunnels an https one; checks the URL literal, not a literal proxy', () => {
    const env = { ALL_PROXY: 'http://p:1' };
    expect(route(env, 'http://a.example/', 'reqwest')).toMatchObject({ tunnel: false, checkProxyLiteral: false, checkTargetLiteral: true });
    expect(route(env, 'https://a.example/', 'reqwest')).toMatchObject({ tunnel: true });
  });

  it('sends the credentials percent-decoded, with `Basic`', () => {
    expect(route({ HTTP_PROXY: 'http://us%40er:pw@p:1' }, 'http://a.example/', 'reqwest')?.authorization).toBe(`Basic ${basic('us@er:pw')}`);
  });

  it("matches NO_PROXY's trimmed entries: addresses, networks, domains with their subdomains, `*`", () => {
    const bypassed = (noProxy: string, host: string) => route({ HTTP_PROXY: 'http://p:1', NO_PROXY: noProxy }, `http://${host}/`, 'reqwest') === null;
    expect(bypassed('x.example, a.example', 'a.example')).toBe(true);
    expect(bypassed('a.example', 'b.a.example')).toBe(true);
    expect(bypassed('a.example', 'ba.example')).toBe(false);
    expect(bypassed('.a.example', 'a.example')).toBe(true);
    expect(bypassed('10.0.0.0/8', '10.1.2.3')).toBe(true);
    expect(bypassed('::1', '[::1]')).toBe(true);
    expect(bypassed('10.0.0.1', '10.0.0.2')).toBe(false);
    expect(bypassed('*', 'anything')).toBe(true);
  });
});

describe('the proxy itself', () => {
  it('is spoken to over TLS when its URL is https, on port 443 unless it says', () => {
    expect(route({ ALL_PROXY: 'https://p' }, 'http://a.example/', 'ureq')).toMatchObject({ host: 'p', port: 443, tls: true });
    expect(route({ ALL_PROXY: 'https://p:8443' }, 'https://a.example/', 'reqwest')).toMatchObject({ port: 8443, tls: true });
    expect(route({ ALL_PROXY: 'http://p' }, 'http://a.example/', 'reqwest')).toMatchObject({ port: 80, tls: false });
  });

  it("is a SOCKS tunnel for ureq's callers: the URL's host resolved here, and checked, for socks4 and socks5", () => {
    const socks = (scheme: string) => route({ ALL_PROXY: `${scheme}://u:p@s` }, 'http://a.example/', 'ureq');
    expect(socks('socks5')).toMatchObject({ host: 's', port: 1080, tunnel: true, authorization: undefined, socks: { version: 5, resolveHere: true, credentials: { user: 'u', password: 'p' } }, checkTargetLiteral: true });
    expect(socks('socks')?.socks).toMatchObject({ version: 5, resolveHere: true });
    expect(socks('socks5h')).toMatchObject({ socks: { version: 5, resolveHere: false }, checkTargetLiteral: false });
    expect(socks('socks4')?.socks).toMatchObject({ version: 4, resolveHere: true });
    expect(socks('socks4a')?.socks).toMatchObject({ version: 4, resolveHere: false });
  });

  it("refuses a SOCKS proxy for reqwest's callers, as v1.50's reqwest (no `socks` feature), and names it at start", () => {
    const settings = ProxySettings.fromEnv({ ALL_PROXY: 'socks5://s:1080', HTTPS_PROXY: 'socks4://t' });
    expect(settings.route(new URL('http://a.example/'), 'ureq')?.socks?.version).toBe(5);
    expect(() => settings.route(new URL('http://a.example/'), 'reqwest')).toThrow(UnsupportedProxy);
    expect(() => settings.route(new URL('https://a.example/'), 'reqwest')).toThrow('the proxy in `HTTPS_PROXY` is a `socks4` proxy');
    const words = 'proxy, which remote searches and writes, chat providers, personalization and S3 snapshots do not speak (nor in v1.50): their requests fail';
    expect(settings.unsupported).toEqual([`the proxy in \`ALL_PROXY\` is a \`socks5\` ${words}`, `the proxy in \`HTTPS_PROXY\` is a \`socks4\` ${words}`]);
    expect(ProxySettings.fromEnv({ HTTP_PROXY: 'http://p:1', HTTPS_PROXY: 'https://q' }).unsupported).toEqual([]);
  });
});
