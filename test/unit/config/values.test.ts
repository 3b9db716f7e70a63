import { describe, expect, it } from 'vitest';
import {
  bool,
  byteSize,
  environment,
  InvalidValue,
  ipNetworks,
  logLevel,
  logsMode,
  maxThreads,
  nonZeroUsize,
  scheduleSnapshot,
  splitHttpAddr,
  text,
  url,
  usize,
} from '../../../src/config/values.js';

describe('splitHttpAddr', () => {
  it.each([
    ['localhost:7700', 'localhost', 7700],
    ['0.0.0.0:7700', '0.0.0.0', 7700],
    ['127.0.0.1:0', '127.0.0.1', 0],
    ['my-host.example_1.com:65535', 'my-host.example_1.com', 65535],
    ['[::1]:7700', '::1', 7700],
    ['[::]:80', '::', 80],
  ])('splits %j into host %j and port %d', (addr, host, port) => {
    expect(splitHttpAddr(addr)).toEqual({ host, port });
  });

  it.each(['localhost', ':7700', 'localhost:', 'localhost:65536', 'localhost:77000', 'localhost:port', '::1:7700', '[nope]:7700', 'http://localhost:7700', 'a b:7700', ''])(
    'rejects %j as not HOST:PORT',
    (addr) => {
      expect(() => splitHttpAddr(addr)).toThrow(InvalidValue);
      expect(() => splitHttpAddr(addr)).toThrow(/expected HOST:PORT/);
    },
  );
});

describe('integers follow Rust usize parsing', () => {
  it('accepts digits with an optional plus sign', () => {
    expect(usize.fromString('42')).toBe(42);
    expect(usize.fromString('+7')).toBe(7);
    expect(usize.fromString('0')).toBe(0);
  });

  it('words failures as Rust does', () => {
    expect(() => usize.fromString('')).toThrow('cannot parse integer from empty string');
    expect(() => usize.fromString('-1')).toThrow('invalid digit found in string');
    expect(() => usize.fromString(' 1')).toThrow('invalid digit found in string');
    expect(() => usize.fromString('1.5')).toThrow('invalid digit found in string');
    expect(() => usize.fromString('99999999999999999999')).toThrow('number too large to fit in target type');
    expect(() => nonZeroUsize.fromString('0')).toThrow('number would be zero for non-zero type');
  });

  it('takes TOML integers only, never floats, strings or negatives', () => {
    expect(usize.fromToml!(5n)).toBe(5);
    expect(() => usize.fromToml!(5.5)).toThrow('expected a non-negative integer');
    expect(() => usize.fromToml!('5')).toThrow('expected a non-negative integer');
    expect(() => usize.fromToml!(-1n)).toThrow('invalid value: integer `-1`, expected usize');
    expect(() => nonZeroUsize.fromToml!(0n)).toThrow('number would be zero for non-zero type');
  });
});

describe('value codecs', () => {
  it('reads booleans as true/false in any case, and only TOML booleans from the file', () => {
    expect(bool.fromString('true')).toBe(true);
    expect(bool.fromString('FALSE')).toBe(false);
    expect(() => bool.fromString('yes')).toThrow('expected true or false');
    expect(() => bool.fromString('1')).toThrow('expected true or false');
    expect(bool.fromToml!(true)).toBe(true);
    expect(() => bool.fromToml!('true')).toThrow('expected a boolean');
  });

  it('takes strings as given but refuses other TOML types for them', () => {
    expect(text.fromString(' spaced ')).toBe(' spaced ');
    expect(() => text.fromToml!(12n)).toThrow('expected a string');
  });

  it('accepts only the two environments, exactly spelled', () => {
    expect(environment.fromString('production')).toBe('production');
    expect(() => environment.fromString('Production')).toThrow('possible values: development, production');
    expect(() => environment.fromString('staging')).toThrow('possible values: development, production');
  });

  it('reads log levels trimmed and case-insensitively, with Meilisearch error text (in a file, only as serde names them)', () => {
    expect(logLevel.fromString(' debug ')).toBe('DEBUG');
    expect(logLevel.fromString('Off')).toBe('OFF');
    expect(logLevel.fromToml!('TRACE')).toBe('TRACE');
    expect(() => logLevel.fromToml!('trace')).toThrow('unknown variant `trace`, expected one of `OFF`, `ERROR`, `WARN`, `INFO`, `DEBUG`, `TRACE`');
    expect(() => logLevel.fromString('loud')).toThrow(
      "Log level 'loud' is invalid. Accepted values are 'OFF', 'ERROR', 'WARN', 'INFO', 'DEBUG', and 'TRACE'.",
    );
  });

  it('reads the logs mode case-insensitively, with Meilisearch error text', () => {
    expect(logsMode.fromString('json')).toBe('JSON');
    expect(() => logsMode.fromString('xml')).toThrow('Unsupported log mode level `xml`. Supported values are `HUMAN` and `JSON`.');
  });

  it('reads byte sizes from strings, and from TOML strings or integers', () => {
    expect(byteSize.fromString('1 KiB')).toBe(1024);
    expect(byteSize.fromToml!('1 KiB')).toBe(1024);
    expect(byteSize.fromToml!(2048n)).toBe(2048);
    expect(() => byteSize.fromString('lots')).toThrow(InvalidValue);
    expect(() => byteSize.fromToml!(true)).toThrow('expected a non-negative integer');
  });

  it('treats empty and unlimited indexing threads as the default, and takes zero as v1.50 (every core)', () => {
    expect(maxThreads.fromString('')).toBeNull();
    expect(maxThreads.fromString('unlimited')).toBeNull();
    expect(maxThreads.fromString('3')).toBe(3);
    expect(maxThreads.fromToml!(3n)).toBe(3);
    expect(maxThreads.fromToml!('unlimited')).toBeNull();
    expect(maxThreads.fromString('0')).toBe(0);
    expect(maxThreads.fromToml!(0n)).toBe(0);
    expect(() => maxThreads.fromString('two')).toThrow('invalid digit found in string');
  });

  it('reads the snapshot schedule: empty = disabled, TOML true = one day, false = disabled', () => {
    expect(scheduleSnapshot.fromString('')).toBeNull();
    expect(scheduleSnapshot.fromString('3600')).toBe(3600);
    expect(scheduleSnapshot.fromToml!(true)).toBe(86_400);
    expect(scheduleSnapshot.fromToml!(false)).toBeNull();
    expect(scheduleSnapshot.fromToml!(60n)).toBe(60);
    expect(() => scheduleSnapshot.fromToml!('60')).toThrow('expected an integer or boolean');
    expect(() => scheduleSnapshot.fromString('daily')).toThrow('invalid digit found in string');
  });

  it('normalises webhook URLs as the url crate and refuses relative ones', () => {
    expect(url.fromString('https://example.com')).toBe('https://example.com/');
    expect(url.fromString('http://127.0.0.1:3000/hook?x=1')).toBe('http://127.0.0.1:3000/hook?x=1');
    expect(() => url.fromString('/hook')).toThrow('expected an absolute URL');
    expect(() => url.fromString('not a url')).toThrow('expected an absolute URL');
  });

  it('reads allowed IP networks as comma-separated CIDRs, `any`, or a TOML list', () => {
    expect(ipNetworks.fromString('10.0.0.0/8, 192.168.1.1,fd00::/8,')).toEqual(['10.0.0.0/8', '192.168.1.1', 'fd00::/8']);
    expect(ipNetworks.fromString('any')).toEqual(['any']);
    expect(ipNetworks.fromString('')).toEqual([]);
    expect(ipNetworks.fromToml!(['127.0.0.0/8'])).toEqual(['127.0.0.0/8']);
    expect(() => ipNetworks.fromString('10.0.0.0/33')).toThrow('`10.0.0.0/33` is not an IP network');
    expect(() => ipNetworks.fromString('fd00::/129')).toThrow('is not an IP network');
    expect(() => ipNetworks.fromString('example.com')).toThrow('is not an IP network');
    expect(() => ipNetworks.fromString('10.0.0.0/8/8')).toThrow('is not an IP network');
    expect(() => ipNetworks.fromToml!('10.0.0.0/8')).toThrow('expected a list of strings');
    expect(() => ipNetworks.fromToml!([1n])).toThrow('expected a list of strings');
  });
});
