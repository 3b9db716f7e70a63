import { describe, expect, it } from 'vitest';
import { helpText } from '../../../src/config/help.js';
import { OPTION_KEYS, flagLabel, optionNames } from '../../../src/config/options.js';

describe('--help text', () => {
  const text = helpText();

  it('lists every option with both environment names and its config file key', () => {
    for (const key of OPTION_KEYS) {
      const { envNames, tomlKey } = optionNames(key);
      expect(text).toContain(`      ${flagLabel(key)}\n`);
      expect(text).toContain(`[env: ${envNames[0]}, ${envNames[1]}]`);
      if (key !== 'configFilePath') expect(text).toContain(`[config file: ${tomlKey}`);
    }
    expect(text).toContain('  -h, --help');
  });

  it('shows defaults, with byte sizes in their unit form', () => {
    expect(text).toMatch(/--http-addr <HOST:PORT>\n.*\n.*\n {10}\[default: localhost:7700\]/);
    expect(text).toContain('[default: 100 MB]');
    expect(text).toContain('[default: ./data.ms]');
    expect(text).toContain('[default: ./config.toml (skipped when absent)]');
  });

  it('says which keys the config file does not apply', () => {
    expect(text).toContain('[config file: import_dump, accepted but not applied]');
    expect(text).toMatch(/--config-file-path <PATH>\n.*\n.*\[config file: not allowed\]/);
  });

  it('states the precedence of the sources', () => {
    expect(text).toContain('Precedence: command line > environment > configuration file > default.');
  });
});
