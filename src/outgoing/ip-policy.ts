/**
 * The IP policy of every outgoing request (cli-config.md, `--experimental-allowed-ip-networks`):
 * non-global addresses are refused unless an allowed network holds them; `any` allows everything.
 * Without it a webhook, embedder or remote URL could make the server reach its own loopback or
 * private network (server-side request forgery). The ranges are v1.50's `is_global_4`/`is_global_6`
 * (crates/http-client/src/policy.rs, after Rust's `Ipv4Addr::is_global`/`Ipv6Addr::is_global`);
 * multicast is global there, so it is here. The refusal reads as v1.50's: "Rejected IP" (policy.rs),
 * "bad uri: Rejected URI" where v1.50 goes through ureq (crates/http-client/src/ureq/resolver.rs),
 * "error sending request" where reqwest's resolver refused a host name.
 */
import { contains, parseAddress, parseNetwork, type Address, type Network } from './cidr.js';

/** Thrown before any connection to a refused address. */
export class RejectedIp extends Error {
  override readonly name = 'RejectedIp';

  constructor(
    readonly address: string,
    /** the URL named the address itself (an IP literal), not a host name resolved to it */
    readonly literal = false,
  ) {
    super('Rejected IP');
  }

  /** The refusal as v1.50's ureq-based callers (webhooks, embedders, export) report it. */
  get ureqMessage(): string {
    return 'bad uri: Rejected URI';
  }
}

/**
 * What v1.50's reqwest-based callers (remote search, network checks and writes) say of a request
 * that got no answer: an IP literal its policy refuses before sending (`check_ip_in_hostname`) is
 * `Rejected IP`; anything else, a host name its resolver refused included, reqwest's
 * `error sending request` (the URL left out).
 */
export function sendFailureMessage(err: unknown): string {
  return err instanceof RejectedIp && err.literal ? err.message : 'error sending request';
}

const networks = (cidrs: readonly string[]): Network[] => cidrs.map((cidr) => parseNetwork(cidr)!);

const NON_GLOBAL = networks([
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', // private
  '100.64.0.0/10', // shared address space (carrier-grade NAT)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local
  '192.0.0.0/24', // IETF protocol assignments (but see GLOBAL_EXCEPTIONS)
  '192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', // documentation
  '198.18.0.0/15', // benchmarking
  '240.0.0.0/4', // reserved, broadcast included
  '::/128', // unspecified
  '::1/128', // loopback
  '::ffff:0:0/96', // IPv4-mapped
  '64:ff9b:1::/48', // IPv4-IPv6 local-use translation
  '100::/64', // discard-only
  '2001::/23', // IETF protocol assignments (but see GLOBAL_EXCEPTIONS)
  '2002::/16', // 6to4
  '2001:db8::/32', '3fff::/20', // documentation
  '5f00::/16', // segment routing (SRv6) SIDs
  'fc00::/7', // unique local
  'fe80::/10', // link-local unicast
]);

/** Inside the ranges above, but documented as globally reachable. */
const GLOBAL_EXCEPTIONS = networks([
  '192.0.0.9/32', '192.0.0.10/32', // PCP and TURN anycast
  '2001:1::1/128', '2001:1::2/128', // PCP and TURN anycast
  '2001:3::/32', // AMT
  '2001:4:112::/48', // AS112-v6
  '2001:20::/27', // ORCHIDv2 and drone remote ID tags
]);

export function isGlobal(address: Address): boolean {
  const inAny = (list: readonly Network[]) => list.some((network) => contains(network, address));
  return !inAny(NON_GLOBAL) || inAny(GLOBAL_EXCEPTIONS);
}

export class IpPolicy {
  private constructor(private readonly allowed: readonly Network[] | 'any') {}

  /** From the option's entries: none → global addresses only; `any` among them → everything. */
  static fromNetworks(entries: readonly string[]): IpPolicy {
    if (entries.includes('any')) return new IpPolicy('any');
    return new IpPolicy(
      entries.map((entry) => {
        const network = parseNetwork(entry);
        if (network === null) throw new Error(`\`${entry}\` is not an IP network`);
        return network;
      }),
    );
  }

  allows(address: string): boolean {
    if (this.allowed === 'any') return true;
    const parsed = parseAddress(address);
    if (parsed === null) return false;
    return isGlobal(parsed) || this.allowed.some((network) => contains(network, parsed));
  }

  /** Throws `RejectedIp` unless `address` (`literal`: named as such by the URL) may be reached. */
  check(address: string, literal = false): void {
    if (!this.allows(address)) throw new RejectedIp(address, literal);
  }
}
