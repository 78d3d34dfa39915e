import { isIP } from "node:net";

/**
 * Which addresses a webhook may not reach unless `webhooks.allowPrivateTargets` is set (README "Webhooks"): the
 * service's own machine, its private networks and the cloud's metadata address must not be reachable by whoever can
 * create an endpoint. Checked on the URL's host when an endpoint is made (an address written in the URL, or a
 * `localhost` name) and again on every delivery, on each address the host's name resolves to (target.ts).
 */

/** IPv4 ranges refused, as [first octets, prefix length]. */
const IPV4_RANGES: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 itself
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT (shared address space)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, the cloud metadata address 169.254.169.254
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
];

function ipv4ToNumber(address: string): number | null {
  const parts = address.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

const IPV4_BLOCKS = IPV4_RANGES.map(([base, bits]) => {
  const size = 2 ** (32 - bits);
  const start = ipv4ToNumber(base)!;
  return { start, end: start + size - 1 };
});

function isPrivateIPv4(address: string): boolean {
  const value = ipv4ToNumber(address);
  if (value === null) return true;
  return IPV4_BLOCKS.some((block) => value >= block.start && value <= block.end);
}

/** The 16 bytes of an IPv6 address (a zone, `%eth0`, dropped); null when it is not one. */
export function ipv6Bytes(input: string): number[] | null {
  let address = input;
  const zone = address.indexOf("%");
  if (zone !== -1) address = address.slice(0, zone);
  if (isIP(address) !== 6) return null;
  // A trailing dotted IPv4 part (::ffff:127.0.0.1) becomes two groups.
  const lastColon = address.lastIndexOf(":");
  const tail = address.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = ipv4ToNumber(tail);
    if (v4 === null) return null;
    address = `${address.slice(0, lastColon + 1)}${((v4 >>> 16) & 0xffff).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head, rest] = address.includes("::") ? address.split("::") : [address, undefined];
  const headGroups = head ? head.split(":") : [];
  const restGroups = rest ? rest.split(":") : [];
  const missing = 8 - headGroups.length - restGroups.length;
  if (rest === undefined ? missing !== 0 : missing < 0) return null;
  const groups = [...headGroups, ...Array<string>(rest === undefined ? 0 : missing).fill("0"), ...restGroups];
  const bytes: number[] = [];
  for (const group of groups) {
    const value = parseInt(group, 16);
    if (Number.isNaN(value) || value > 0xffff) return null;
    bytes.push(value >> 8, value & 0xff);
  }
  return bytes.length === 16 ? bytes : null;
}

const startsWith = (bytes: readonly number[], prefix: readonly number[]) => prefix.every((b, i) => bytes[i] === b);
const ipv4Of = (bytes: readonly number[], from: number) => bytes.slice(from, from + 4).join(".");

function isPrivateIPv6(address: string): boolean {
  const bytes = ipv6Bytes(address);
  if (!bytes) return true;
  if (bytes.every((b) => b === 0)) return true; // :: (unspecified)
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return true; // ::1 (loopback)
  if ((bytes[0]! & 0xfe) === 0xfc) return true; // fc00::/7 (unique local)
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return true; // fe80::/10 (link-local)
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0) return true; // fec0::/10 (site-local, deprecated)
  if (bytes[0] === 0xff) return true; // ff00::/8 (multicast)
  if (startsWith(bytes, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return isPrivateIPv4(ipv4Of(bytes, 12)); // ::ffff:a.b.c.d
  if (startsWith(bytes, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])) return true; // ::a.b.c.d (IPv4-compatible, deprecated)
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return isPrivateIPv4(ipv4Of(bytes, 12)); // NAT64
  if (startsWith(bytes, [0x20, 0x02])) return isPrivateIPv4(ipv4Of(bytes, 2)); // 6to4 carries an IPv4 address
  if (startsWith(bytes, [0x01, 0, 0, 0, 0, 0, 0, 0])) return true; // 100::/64 (discard)
  return false;
}

/**
 * Whether an IP address (v4 or v6, as written or as DNS answers it) is one a webhook may not reach: private,
 * loopback, link-local, unspecified, multicast or reserved, including IPv4 addresses inside IPv6 ones
 * (`::ffff:127.0.0.1`, NAT64, 6to4). Anything that is not an address is refused too.
 */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address.includes("%") ? address.slice(0, address.indexOf("%")) : address);
  if (version === 4) return isPrivateIPv4(address);
  if (version === 6) return isPrivateIPv6(address);
  return true;
}

/** The host of a URL without IPv6 brackets (`[::1]` → `::1`). */
export function bareHost(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/**
 * Why a URL's host is refused as written, before any DNS (a private address in the URL, or a `localhost` name,
 * which RFC 6761 reserves for the machine itself); null when the host is a name to resolve or a public address.
 */
export function privateHostProblem(hostname: string): string | null {
  const host = bareHost(hostname).toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host === "localhost.") {
    return "names this machine (localhost)";
  }
  if (isIP(host) !== 0 && isPrivateAddress(host)) return `is a private, loopback or link-local address (${host})`;
  return null;
}
