// The host policy of the HTTP tools: which addresses a request built by a model may reach. Loopback,
// private, link-local (the cloud metadata service at 169.254.169.254), and the other special-purpose
// ranges are refused unless the project lists them in `allowed_hosts`. The check is made on the
// addresses DNS answers (and on every redirect's), so a public name that resolves to 127.0.0.1
// is refused too. Here, below config and runtime, because both read it: config checks the entries,
// the HTTP tools apply them.

import { BlockList, isIP } from 'node:net';

/** Special-purpose ranges (IANA registries) with the word a refusal uses. */
const SPECIAL: readonly (readonly [string, number, 'ipv4' | 'ipv6', string])[] = [
  ['0.0.0.0', 8, 'ipv4', 'a "this network" address'],
  ['10.0.0.0', 8, 'ipv4', 'a private address'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (carrier-grade NAT) address'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback address (this machine)'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local address (the cloud metadata service lives at 169.254.169.254)'],
  ['172.16.0.0', 12, 'ipv4', 'a private address'],
  ['192.0.0.0', 24, 'ipv4', 'an IETF protocol address'],
  ['192.0.2.0', 24, 'ipv4', 'a documentation address'],
  ['192.88.99.0', 24, 'ipv4', 'a 6to4 relay address'],
  ['192.168.0.0', 16, 'ipv4', 'a private address'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking address'],
  ['198.51.100.0', 24, 'ipv4', 'a documentation address'],
  ['203.0.113.0', 24, 'ipv4', 'a documentation address'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast address'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved address'],
  ['::', 128, 'ipv6', 'the unspecified address'],
  ['::1', 128, 'ipv6', 'a loopback address (this machine)'],
  ['::ffff:0:0', 96, 'ipv6', 'an IPv4-mapped address'],
  ['64:ff9b::', 96, 'ipv6', 'a NAT64 address'],
  ['64:ff9b:1::', 48, 'ipv6', 'a NAT64 address'],
  ['100::', 64, 'ipv6', 'a discard address'],
  ['2001::', 23, 'ipv6', 'an IETF protocol address'],
  ['2001:db8::', 32, 'ipv6', 'a documentation address'],
  ['2002::', 16, 'ipv6', 'a 6to4 address'],
  ['fc00::', 7, 'ipv6', 'a private (unique local) address'],
  ['fe80::', 10, 'ipv6', 'a link-local address'],
  ['ff00::', 8, 'ipv6', 'a multicast address'],
];

const special = SPECIAL.map(([net, prefix, type, label]) => {
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return { list, type, label };
});

/** What kind of special address this is, or undefined for an ordinary public one. */
export function specialAddressKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  // Only rules of the address's own family: a BlockList matches an IPv4 address against an IPv6
  // rule through its IPv4-mapped form, so ::ffff:0:0/96 would take in every IPv4 address.
  return special.find((s) => s.type === type && s.list.check(address, type))?.label;
}

/** The parsed `allowed_hosts`: names (exact or `*.suffix`), addresses and CIDR ranges. */
export interface HostAllowance {
  names: readonly string[];
  suffixes: readonly string[];
  addresses: BlockList;
}

/** Why an `allowed_hosts` entry cannot be read, or undefined when it is fine. */
export function allowedHostProblem(entry: string): string | undefined {
  if (entry.includes('/')) {
    const [net, bits, ...rest] = entry.split('/');
    const family = isIP(net ?? '');
    const prefix = Number(bits);
    if (rest.length > 0 || family === 0 || !/^\d+$/.test(bits ?? '') || prefix > (family === 4 ? 32 : 128)) return 'a range is an address, a slash and a prefix length: "10.0.0.0/8", "fd00::/8"';
    return undefined;
  }
  if (isIP(entry) !== 0) return undefined;
  const name = entry.startsWith('*.') ? entry.slice(2) : entry;
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(name)) return 'an entry is a host name ("localhost", "*.internal.example"), an address ("127.0.0.1", "::1") or a range ("10.0.0.0/8")';
  return undefined;
}

/** Entries already checked by allowedHostProblem (others are ignored). */
export function hostAllowance(entries: readonly string[]): HostAllowance {
  const names: string[] = [];
  const suffixes: string[] = [];
  const addresses = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (allowedHostProblem(entry) !== undefined) continue;
    if (entry.includes('/')) {
      const [net, bits] = entry.split('/') as [string, string];
      addresses.addSubnet(net, Number(bits), isIP(net) === 4 ? 'ipv4' : 'ipv6');
    } else if (isIP(entry) !== 0) addresses.addAddress(entry, isIP(entry) === 4 ? 'ipv4' : 'ipv6');
    else if (entry.startsWith('*.')) suffixes.push(entry.slice(1));
    else names.push(entry);
  }
  return { names, suffixes, addresses };
}

/** A URL's host as written (`[::1]` → `::1`), lower case, without a trailing dot. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

/** True when the host name itself is allowed: its addresses are then not checked. */
export function nameAllowed(allow: HostAllowance, hostname: string): boolean {
  const host = bareHost(hostname);
  return allow.names.includes(host) || allow.suffixes.some((s) => host.endsWith(s));
}

/** Why a connection to this address is refused, or undefined when it may be made. */
export function refusedAddress(allow: HostAllowance, address: string): string | undefined {
  const kind = specialAddressKind(address);
  if (kind === undefined) return undefined;
  if (allow.addresses.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6')) return undefined;
  return `${address} is ${kind}; such hosts are refused unless allowed_hosts lists them (see squadron docs security)`;
}
