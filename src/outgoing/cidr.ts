/**
 * IP addresses and CIDR networks as integers, for the outgoing IP policy (and a URL's host
 * without an IPv6 literal's brackets, as the policy and the proxy rules read it). Not `net.BlockList`:
 * it matches IPv4 rules against IPv4-mapped IPv6 addresses and back, so `::ffff:0:0/96` (non-global
 * in v1.50) would catch every IPv4 address; v1.50's `cidr` crate keeps the two families apart.
 */
import { isIP } from 'node:net';

export interface Address {
  family: 4 | 6;
  value: bigint;
}

export interface Network extends Address {
  prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

/** A URL's host as an address or name: an IPv6 literal without its brackets (`[::1]` → `::1`). */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}

/** `null` unless `text` is an IPv4 or IPv6 address (an IPv6 zone, `%eth0`, is ignored). */
export function parseAddress(text: string): Address | null {
  const family = isIP(text);
  if (family === 4) return { family, value: ipv4Value(text) };
  if (family === 6) return { family, value: ipv6Value(text.replace(/%.*$/, '')) };
  return null;
}

/** `null` unless `text` is `address/prefix` or a bare address (a one-address network). */
export function parseNetwork(text: string): Network | null {
  const [address = '', prefix, ...rest] = text.split('/');
  const parsed = parseAddress(address);
  if (parsed === null || rest.length > 0) return null;
  if (prefix === undefined) return { ...parsed, prefix: BITS[parsed.family] };
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > BITS[parsed.family]) return null;
  return { ...parsed, prefix: Number(prefix) };
}

/** Same family and same leading `prefix` bits (host bits of the network are ignored). */
export function contains(network: Network, address: Address): boolean {
  if (network.family !== address.family) return false;
  const shift = BigInt(BITS[network.family] - network.prefix);
  return network.value >> shift === address.value >> shift;
}

function ipv4Value(text: string): bigint {
  return text.split('.').reduce((value, octet) => (value << 8n) | BigInt(octet), 0n);
}

function ipv6Value(text: string): bigint {
  // A dotted IPv4 tail (`::ffff:1.2.3.4`) stands for the last two groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  const hex = dotted === null ? text : `${dotted[1]}${groupsOf(ipv4Value(dotted[2]!))}`;
  const [head = '', tail] = hex.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n);
}

function groupsOf(ipv4: bigint): string {
  return `${(ipv4 >> 16n).toString(16)}:${(ipv4 & 0xffffn).toString(16)}`;
}
