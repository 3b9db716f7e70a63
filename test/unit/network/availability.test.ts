import { describe, expect, it } from 'vitest';
import { RemoteAvailability } from '../../../src/network/availability.js';

describe('RemoteAvailability', () => {
  it('keeps a failed remote unavailable for 30 s, and doubles the period when it fails again meanwhile', () => {
    const table = new RemoteAvailability();
    table.markFailed('ms1', 0);
    expect(table.status('ms1', 29_999)).toBe('unavailable');
    expect(table.status('ms1', 30_000)).toBe('available');
    table.markFailed('ms1', 100_000);
    table.markFailed('ms1', 110_000);
    expect(table.status('ms1', 169_999)).toBe('unavailable');
    expect(table.status('ms1', 170_000)).toBe('available');
  });

  it('never keeps a remote down for more than 5 minutes after failures', () => {
    const table = new RemoteAvailability();
    for (let i = 0; i < 10; i++) table.markFailed('ms1', i);
    expect(table.status('ms1', 9 + 300_000)).toBe('available');
  });

  it('keeps a remote set unavailable by hand until it is set available', () => {
    const table = new RemoteAvailability();
    table.set('ms2', 'unavailable');
    table.markFailed('ms2', 0);
    expect(table.status('ms2', 10 ** 12)).toBe('unavailable');
    table.set('ms2', 'available');
    expect(table.status('ms2')).toBe('available');
    expect(table.status('never-seen')).toBe('available');
  });
});
