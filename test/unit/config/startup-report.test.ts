import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkMasterKey, loadConfig, startupReport, type Config } from '../../../src/config/index.js';

const cwd = mkdtempSync(path.join(tmpdir(), 'quarry-report-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function config(argv: string[]): Config {
  const result = loadConfig(argv, {}, cwd);
  if (result.kind !== 'config') throw new Error('expected a configuration');
  return result.config;
}

const build = { pkgVersion: '0.1.0', commitSha: 'abc123', commitDate: '2025-01-01T00:00:00Z' };

describe('startupReport', () => {
  it("prints Meilisearch's labels with tab alignment and debug-quoted values", () => {
    const lines = startupReport(config(['--db-path', './data.ms', '--master-key', 'x'.repeat(16)]), { build });
    expect(lines).toContain('Config file path:\t"none"');
    expect(lines).toContain('Database path:\t\t"./data.ms"');
    expect(lines).toContain('Server listening on:\t"http://localhost:7700"');
    expect(lines).toContain('Environment:\t\t"development"');
    expect(lines).toContain('Commit SHA:\t\t"abc123"');
    expect(lines).toContain('Commit date:\t\t"2025-01-01T00:00:00Z"');
    expect(lines).toContain('Package version:\t"0.1.0"');
    expect(lines).toContain('Anonymous telemetry:\t"Disabled"');
  });

  it('says a master key is set without ever printing it', () => {
    const key = 'a-secret-master-key-value';
    const lines = startupReport(config(['--master-key', key, '--env', 'production']));
    expect(lines).toContain(
      "A master key has been set. Requests to Quarry won't be authorized unless you provide an authentication key.",
    );
    expect(lines.join('\n')).not.toContain(key);
    expect(lines).toContain('Environment:\t\t"production"');
  });

  it('says when no master key is set', () => {
    expect(startupReport(config([]))).toContain('No master key was found. The server will accept unidentified requests.');
  });

  it('places the master-key warnings after the key status, as Meilisearch does', () => {
    const cfg = config(['--master-key', 'short']);
    const lines = startupReport(cfg, { masterKeyWarnings: checkMasterKey(cfg).warnings });
    const set = lines.findIndex((line) => line.startsWith('A master key has been set'));
    const unsafe = lines.findIndex((line) => line.startsWith('Quarry started with a master key considered unsafe'));
    expect(set).toBeGreaterThan(0);
    expect(unsafe).toBeGreaterThan(set);
    expect(lines.some((line) => /^>> --master-key [A-Za-z0-9_-]{43} <<$/.test(line))).toBe(true);
  });

  it('does not repeat the no-key headline when the development warning is given', () => {
    const cfg = config([]);
    const lines = startupReport(cfg, { masterKeyWarnings: checkMasterKey(cfg).warnings });
    expect(lines.filter((line) => line.startsWith('No master key was found'))).toHaveLength(1);
    expect(lines.join('\n')).toContain('"Disabled"\n\nNo master key was found');
  });

  it('shows the address as given, IPv6 included, and unknown build info when none is passed', () => {
    const lines = startupReport(config(['--http-addr', '[::1]:7701']));
    expect(lines).toContain('Server listening on:\t"http://[::1]:7701"');
    expect(lines).toContain('Commit SHA:\t\t"unknown"');
  });
});
