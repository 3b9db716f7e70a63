import { describe, expect, it } from 'vitest';
import { IpPolicy, RejectedIp, sendFailureMessage } from '../../../src/outgoing/ip-policy.js';

const byDefault = IpPolicy.fromNetworks([]);

// v1.50's is_global_4/is_global_6 (crates/http-client/src/policy.rs): each range with its edges.
const NON_GLOBAL: Record<string, string[]> = {
  'this network 0.0.0.0/8': ['0.0.0.0', '0.255.255.255'],
  'private 10.0.0.0/8': ['10.0.0.0', '10.255.255.255'],
  'private 172.16.0.0/12': ['172.16.0.0', '172.31.255.255'],
  'private 192.168.0.0/16': ['192.168.0.1', '192.168.255.255'],
  'shared 100.64.0.0/10': ['100.64.0.0', '100.127.255.255'],
  'loopback 127.0.0.0/8': ['127.0.0.1', '127.255.255.254'],
  'link-local 169.254.0.0/16': ['169.254.0.1', '169.254.169.254'],
  'protocol assignments 192.0.0.0/24': ['192.0.0.0', '192.0.0.8', '192.0.0.11', '192.0.0.255'],
  'documentation 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24': ['192.0.2.1', '198.51.100.255', '203.0.113.0'],
  'benchmarking 198.18.0.0/15': ['198.18.0.0', '198.19.255.255'],
  'reserved 240.0.0.0/4 and broadcast': ['240.0.0.0', '255.255.255.254', '255.255.255.255'],
  'unspecified and loopback IPv6': ['::', '::1', '0:0:0:0:0:0:0:1'],
  'IPv4-mapped ::ffff:0:0/96, whatever the IPv4 address': ['::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:7f00:1', '::ffff:8.8.8.8', '::ffff:0:0'],
  'IPv4-IPv6 translation 64:ff9b:1::/48': ['64:ff9b:1::', '64:ff9b:1:ffff::1'],
  'discard-only 100::/64': ['100::', '100::ffff:ffff:ffff:ffff'],
  'IETF protocol assignments 2001::/23': ['2001::', '2001:1::', '2001:1::3', '2001:2::1', '2001:4:111::1', '2001:4:113::', '2001:1f::1', '2001:40::1', '2001:1ff:ffff::1'],
  '6to4 2002::/16': ['2002::1', '2002:ffff::1'],
  'documentation 2001:db8::/32 and 3fff::/20': ['2001:db8::1', '2001:db8:ffff::1', '3fff::1', '3fff:fff:ffff::1'],
  'segment routing 5f00::/16': ['5f00::1'],
  'unique local fc00::/7': ['fc00::1', 'fd12:3456::1', 'fdff:ffff::1'],
  'link-local fe80::/10': ['fe80::1', 'fe80::1%eth0', 'febf:ffff::1'],
};

const GLOBAL: Record<string, string[]> = {
  'public IPv4': ['1.1.1.1', '8.8.8.8', '93.184.216.34'],
  'just outside the IPv4 ranges': ['1.0.0.0', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0', '169.253.255.255', '169.255.0.0', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '192.0.1.0', '192.0.3.0', '198.17.255.255', '198.20.0.0', '239.255.255.255'],
  'PCP and TURN anycast 192.0.0.9 and 192.0.0.10': ['192.0.0.9', '192.0.0.10'],
  'multicast, which v1.50 counts as global': ['224.0.0.1', 'ff02::1'],
  'public IPv6': ['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450::1'],
  'exceptions inside 2001::/23': ['2001:1::1', '2001:1::2', '2001:3::', '2001:3:ffff::1', '2001:4:112::1', '2001:20::1', '2001:3f:ffff::1'],
  'just outside the IPv6 ranges': ['::2', '64:ff9b::808:808', '64:ff9b:2::1', '100:0:0:1::', '2001:200::', '2001:db9::1', '3fff:1000::1', '5f01::1', 'fbff::1', 'fec0::1', '2003::1'],
  'IPv4-compatible ::a.b.c.d, which v1.50 counts as global': ['::7f00:1', '::127.0.0.1'],
};

describe('IpPolicy without allowed networks (the default)', () => {
  it.each(Object.entries(NON_GLOBAL))('refuses %s', (_range, addresses) => {
    for (const address of addresses) expect(byDefault.allows(address), address).toBe(false);
  });

  it.each(Object.entries(GLOBAL))('allows %s', (_range, addresses) => {
    for (const address of addresses) expect(byDefault.allows(address), address).toBe(true);
  });

  it('refuses what is not an address', () => {
    for (const text of ['', 'localhost', '1.2.3', '[::1]', '127.0.0.1:80']) expect(byDefault.allows(text), text).toBe(false);
  });

  it('throws RejectedIp, worded as v1.50, for a refused address', () => {
    expect(() => byDefault.check('8.8.8.8')).not.toThrow();
    const thrown = (() => {
      try {
        byDefault.check('169.254.169.254');
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(RejectedIp);
    expect(thrown).toMatchObject({ name: 'RejectedIp', message: 'Rejected IP', address: '169.254.169.254' });
    expect((thrown as RejectedIp).ureqMessage).toBe('bad uri: Rejected URI');
    // reqwest's callers: the policy's words for an address the URL named, reqwest's for a resolved name
    expect(sendFailureMessage(new RejectedIp('127.0.0.1', true))).toBe('Rejected IP');
    expect(sendFailureMessage(new RejectedIp('127.0.0.1'))).toBe('error sending request');
    expect(sendFailureMessage(new Error('ECONNREFUSED'))).toBe('error sending request');
  });
});

describe('IpPolicy with allowed networks', () => {
  it('allows the listed networks besides global addresses, within their family', () => {
    const policy = IpPolicy.fromNetworks(['127.0.0.0/8', 'fd00::/8', '192.168.1.1']);
    for (const address of ['127.0.0.1', '127.1.2.3', 'fd00::1', 'fdff::1', '192.168.1.1', '8.8.8.8']) expect(policy.allows(address), address).toBe(true);
    for (const address of ['::1', '::ffff:127.0.0.1', 'fc00::1', '192.168.1.2', '10.0.0.1', '169.254.169.254']) expect(policy.allows(address), address).toBe(false);
  });

  it('ignores the host bits of a network, and takes /0 as the whole family', () => {
    expect(IpPolicy.fromNetworks(['10.1.2.3/8']).allows('10.200.0.1')).toBe(true);
    const allIpv4 = IpPolicy.fromNetworks(['0.0.0.0/0']);
    expect(['127.0.0.1', '10.0.0.1', '255.255.255.255'].every((a) => allIpv4.allows(a))).toBe(true);
    expect(allIpv4.allows('::1')).toBe(false);
    expect(IpPolicy.fromNetworks(['::/0']).allows('::ffff:127.0.0.1')).toBe(true);
  });

  it('allows everything with `any`, alone or among networks', () => {
    for (const policy of [IpPolicy.fromNetworks(['any']), IpPolicy.fromNetworks(['10.0.0.0/8', 'any'])]) {
      for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '169.254.169.254', 'fe80::1', '0.0.0.0']) expect(policy.allows(address), address).toBe(true);
    }
  });

  it('refuses malformed networks', () => {
    for (const entry of ['10.0.0.0/33', 'fd00::/129', 'example.com', '10.0.0.0/8/8', '', 'ANY', '10.0.0.0/x']) {
      expect(() => IpPolicy.fromNetworks([entry]), entry).toThrow(`\`${entry}\` is not an IP network`);
    }
  });
});
