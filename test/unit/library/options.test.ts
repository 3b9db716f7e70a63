// Quarry.open's options become the server's Config: the server's names and checks, HTTP-only
// options refused rather than ignored, and dump/snapshot folders kept inside the db path.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { libraryConfig, QuarryOptionError, type QuarryOptions } from '../../../src/library/options.js';

describe('libraryConfig', () => {
  it('applies the options it takes, parsed as their flags are', () => {
    const config = libraryConfig({ dbPath: 'db', maxIndexingThreads: 3, experimentalAllowedIpNetworks: ['127.0.0.0/8'], logLevel: 'WARN', httpPayloadSizeLimit: 1000 });
    expect(config.dbPath).toBe('db');
    expect(config.maxIndexingThreads).toBe(3);
    expect(config.experimentalAllowedIpNetworks).toEqual(['127.0.0.0/8']);
    expect(config.logLevel).toBe('WARN');
    expect(config.httpPayloadSizeLimit).toBe(1000);
  });

  it('keeps the dump and snapshot folders inside the db path unless given', () => {
    expect(libraryConfig({ dbPath: 'db' })).toMatchObject({ dumpDir: path.join('db', 'dumps'), snapshotDir: path.join('db', 'snapshots') });
    expect(libraryConfig({ dbPath: 'db', dumpDir: 'elsewhere' }).dumpDir).toBe('elsewhere');
  });

  it('refuses an option of the HTTP server only, saying so', () => {
    expect(() => libraryConfig({ dbPath: 'db', masterKey: 'a-master-key-long-enough' } as unknown as QuarryOptions)).toThrow(
      /^`masterKey` is not an option of Quarry.open \(it applies to the HTTP server only\)/,
    );
  });

  it('refuses an unknown option and a value its flag would refuse', () => {
    expect(() => libraryConfig({ dbPath: 'db', nope: 1 } as unknown as QuarryOptions)).toThrow(QuarryOptionError);
    expect(() => libraryConfig({ dbPath: 'db', maxIndexingThreads: 2.5 })).toThrow(/^invalid value for `maxIndexingThreads`/);
    expect(() => libraryConfig({ dbPath: 'db', logLevel: 'LOUD' as 'WARN' })).toThrow(/^invalid value for `logLevel`/);
  });

  it('needs a db path', () => {
    expect(() => libraryConfig({} as QuarryOptions)).toThrow(/needs `dbPath`/);
  });
});
