/**
 * readablePath: the path find-my-way would refuse, rewritten to what actix decodes from it; any
 * other URL untouched, and the query string always as sent.
 */
import { describe, expect, it } from 'vitest';
import { readablePath } from '../../../../src/http/transport/path-encoding.js';

describe('readablePath', () => {
  it('leaves valid paths and every query string as sent', () => {
    for (const url of ['/indexes/movies', '/indexes/a%20b/documents/%C3%A9', '/health?q=%zz', '/x?a=%FF#%']) {
      expect(readablePath(url)).toBe(url);
    }
  });

  it('encodes a stray `%` as itself', () => {
    expect(readablePath('/indexes/%zz/documents?q=%zz')).toBe('/indexes/%25zz/documents?q=%zz');
    expect(readablePath('/indexes/a%')).toBe('/indexes/a%25');
    expect(readablePath('/indexes/a%4')).toBe('/indexes/a%254');
  });

  it('replaces escapes that are not UTF-8 by U+FFFD, keeping the valid ones', () => {
    expect(readablePath('/d/%FF')).toBe('/d/%EF%BF%BD');
    expect(readablePath('/d/%E0%A4%A')).toBe('/d/%EF%BF%BD%25A');
    expect(readablePath('/d/%41%FF%2F')).toBe('/d/A%EF%BF%BD%2F');
    expect(decodeURIComponent(readablePath('/d/%E0%A4%A'))).toBe('/d/\uFFFD%A');
  });
});
