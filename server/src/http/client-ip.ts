import { isIPv4, isIPv6 } from "node:net";

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

/** Whether a socket's remote address is this machine: 127.0.0.0/8, ::1, or either written IPv4-mapped. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const ip = address.toLowerCase().startsWith("::ffff:") ? address.slice(7) : address;
  if (ip === "::1" || ip === "0:0:0:0:0:0:0:1") return true;
  return isIPv4(ip) && ip.startsWith("127.");
}

/** Headers a relaying proxy adds: their presence means the socket's peer is the proxy, not the client. */
const RELAY_HEADERS = ["forwarded", "x-forwarded-for", "x-real-ip", "x-forwarded-host", "via"];

function isLoopbackHost(host: string): boolean {
  const name = host.replace(/:\d+$/, "").toLowerCase();
  return name === "localhost" || name.endsWith(".localhost") || name === "[::1]" || (isIPv4(name) && name.startsWith("127."));
}

/**
 * Whether a request comes from this machine, for what only a local developer may read (the development outbox).
 * Decided by the socket's address, never by a header that could say so: a forwarded header naming 127.0.0.1 proves
 * nothing. Headers can only take the answer away: a request a proxy relayed (it carries a forwarding header, or
 * one named in `ipAddressHeaders`) is refused even from a loopback socket, since a proxy on this machine connects
 * from loopback for every client; and the Host must name this machine (or BASE_URL's host), so that a page whose
 * name an attacker re-points at 127.0.0.1 (DNS rebinding) does not pass in a developer's browser.
 */
export function isLocalRequest(
  socketAddress: string | undefined,
  header: (name: string) => string | null | undefined,
  baseURL: string | null,
  proxyHeaders: readonly string[],
): boolean {
  if (!isLoopbackAddress(socketAddress)) return false;
  if ([...RELAY_HEADERS, ...proxyHeaders].some((name) => header(name.toLowerCase()))) return false;
  const host = header("host") ?? "";
  if (isLoopbackHost(host)) return true;
  if (!baseURL) return false;
  try {
    return new URL(baseURL).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}
