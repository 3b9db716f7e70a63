import { describe, expect, it } from 'vitest';
import { contains, parseAddress, parseNetwork } from '../../../src/outgoing/cidr.js';

const v6 = (hex: string) => ({ family: 6, value: BigInt(`0x${hex}`) });

describe('parseAddress', () => {
  it('reads IPv4 and every IPv6 spelling as integers', () => {
    expect(parseAddress('127.0.0.1')).toEqual({ family: 4, value: 0x7f000001n });
    expect(parseAddress('255.255.255.255')).toEqual({ family: 4, value: 0xffffffffn });
    expect(parseAddress('::')).toEqual(v6('0'));
    expect(parseAddress('::1')).toEqual(v6('1'));
    expect(parseAddress('1::')).toEqual(v6('00010000000000000000000000000000'));
    expect(parseAddress('2001:db8:0:0:0:0:0:1')).toEqual(parseAddress('2001:DB8::1'));
    expect(parseAddress('::ffff:127.0.0.1')).toEqual(v6('ffff7f000001'));
    expect(parseAddress('::ffff:127.0.0.1')).toEqual(parseAddress('::ffff:7f00:1'));
    expect(parseAddress('64:ff9b::8.8.8.8')).toEqual(parseAddress('64:ff9b::808:808'));
    expect(parseAddress('fe80::1%eth0')).toEqual(parseAddress('fe80::1'));
  });

  it('refuses what is not an address', () => {
    for (const text of ['', 'localhost', '1.2.3', '256.0.0.1', '1.2.3.4.5', '::1::', '12345::', '[::1]', '10.0.0.0/8']) {
      expect(parseAddress(text)).toBeNull();
    }
  });
});

describe('parseNetwork and contains', () => {
  it('reads CIDRs and bare addresses', () => {
    expect(parseNetwork('10.0.0.0/8')).toEqual({ family: 4, value: 0x0a000000n, prefix: 8 });
    expect(parseNetwork('::1')).toEqual({ ...v6('1'), prefix: 128 });
    expect(parseNetwork('0.0.0.0/0')).toEqual({ family: 4, value: 0n, prefix: 0 });
    for (const text of ['10.0.0.0/33', 'fd00::/129', '10.0.0.0/8/8', '10.0.0.0/', '10.0.0.0/-1', '10.0.0.0/ 8', 'example.com/8', 'any']) {
      expect(parseNetwork(text)).toBeNull();
    }
  });

  it('compares the prefix bits only, and only within one family', () => {
    const net = parseNetwork('10.0.0.1/8')!;
    expect(contains(net, parseAddress('10.255.0.1')!)).toBe(true);
    expect(contains(net, parseAddress('11.0.0.0')!)).toBe(false);
    expect(contains(parseNetwork('0.0.0.0/0')!, parseAddress('203.0.113.1')!)).toBe(true);
    expect(contains(parseNetwork('127.0.0.0/8')!, parseAddress('::ffff:127.0.0.1')!)).toBe(false);
    expect(contains(parseNetwork('::/0')!, parseAddress('127.0.0.1')!)).toBe(false);
    expect(contains(parseNetwork('fe80::/10')!, parseAddress('febf:ffff::1')!)).toBe(true);
    expect(contains(parseNetwork('fe80::/10')!, parseAddress('fec0::1')!)).toBe(false);
  });
});
