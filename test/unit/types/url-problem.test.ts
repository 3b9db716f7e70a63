import { describe, expect, it } from 'vitest';
import { urlProblem } from '../../../src/types/url-problem.js';

describe('urlProblem', () => {
  it('accepts absolute URLs, special or not', () => {
    for (const url of ['http://localhost:7700', 'https://[::1]:443/x', 'http://1.2.3.4', 'mailto:someone@example.com', 'foo:', ' http://a.b ']) expect(urlProblem(url), url).toBeUndefined();
  });

  it('gives the url crate’s reason, the host’s before the port’s', () => {
    const cases: [string, string][] = [
      ['localhost', 'relative URL without a base'],
      ['http://', 'empty host'],
      ['http://:80', 'empty host'],
      ['http://[::1', 'invalid IPv6 address'],
      ['http://[::g]:80', 'invalid IPv6 address'],
      ['foo://[::1', 'invalid IPv6 address'],
      ['http://256.256.256.256', 'invalid IPv4 address'],
      ['http://1.2.3.4.5', 'invalid IPv4 address'],
      ['http://0x100000000', 'invalid IPv4 address'],
      ['http://exa mple.com', 'invalid international domain name'],
      ['http://exa mple.com:99999', 'invalid international domain name'],
      ['http://example.com:99999', 'invalid port number'],
      ['http://example.com:8o', 'invalid port number'],
      ['foo://exa mple', 'invalid domain character'],
      ['foo://host:x', 'invalid port number'],
    ];
    for (const [url, reason] of cases) expect(urlProblem(url), url).toBe(reason);
  });
});
