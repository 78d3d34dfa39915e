import { isIPv6 } from "node:net";

/**
 * The client address: the socket's, unless the operator named proxy headers to trust
 * (advanced.ipAddress.ipAddressHeaders). From a header the last entry is taken, the one the nearest
 * proxy appended; earlier entries are client-supplied and could be forged.
 */
export function clientIp(
  header: (name: string) => string | null | undefined,
  socketAddress: string | undefined,
  trustedHeaders: readonly string[],
): string {
  for (const name of trustedHeaders) {
    const value = header(name);
    if (!value) continue;
    const entries = value.split(",").map((s) => s.trim()).filter(Boolean);
    const last = entries[entries.length - 1];
    if (last) return normalizeIp(last);
  }
  return socketAddress ? normalizeIp(socketAddress) : "";
}

/** IPv4-mapped IPv6 becomes IPv4; IPv6 is reduced to its /64, the block one subscriber usually holds. */
export function normalizeIp(address: string): string {
  const ip = address.startsWith("::ffff:") || address.startsWith("::FFFF:") ? address.slice(7) : address;
  if (!ip.includes(":") || !isIPv6(ip)) return ip;
  const [head = ""] = ip.split("%");
  const parts = expandIPv6(head);
  return parts ? `${parts.slice(0, 4).join(":")}::/64` : ip;
}

function expandIPv6(ip: string): string[] | null {
  const [left = "", right] = ip.split("::");
  const l = left ? left.split(":") : [];
  const r = right !== undefined && right !== "" ? right.split(":") : [];
  const missing = 8 - l.length - r.length;
  if (missing < 0) return null;
  return [...l, ...Array(right !== undefined ? missing : 0).fill("0"), ...r].map((p) => p.toLowerCase().padStart(4, "0"));
}
