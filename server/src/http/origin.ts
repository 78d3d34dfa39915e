/**
 * Trusted origins and callback-URL checks. An absolute URL is trusted only when its whole origin
 * (scheme, host and port) equals a trusted origin or matches a wildcard pattern; never by string prefix,
 * so `https://app.example.com.evil.test` does not pass for `https://app.example.com`.
 *
 * A pattern without a scheme (`*.example.com`) names hosts, and a host is trusted over http and https only:
 * `javascript://x.example.com/%0aalert(1)`, `data:` or `file://x.example.com/` have that host too, and a client that
 * navigates to such a callback runs the attacker's script. Any other scheme is trusted only when an entry names it
 * itself (`myapp://callback`, `myapp://*.example.com`), and the schemes that run or embed content in the page
 * (javascript, data, vbscript, blob, file, about) never are, whatever the configuration says.
 */

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const SAFE_PATH_CHARS = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/?#%[\]]*$/;

/** A relative URL that can only ever resolve to this site: "/path?query#hash". */
export function isSafeRelativePath(value: string): boolean {
  if (!value.startsWith("/") || value.startsWith("//")) return false;
  if (value.includes("\\") || CONTROL_CHARS.test(value)) return false;
  if (!SAFE_PATH_CHARS.test(value)) return false;
  const pathPart = value.split(/[?#]/, 1)[0]!;
  if (pathPart.includes("//")) return false;
  if (/%(2f|5c|00)/i.test(pathPart)) return false;
  // Decoding must not reveal a scheme-relative or backslash form either.
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathPart);
  } catch {
    return false;
  }
  if (decoded.startsWith("//") || decoded.includes("\\") || CONTROL_CHARS.test(decoded)) return false;
  try {
    return new URL(value, "http://gatehouse.invalid").origin === "http://gatehouse.invalid";
  } catch {
    return false;
  }
}

function wildcardToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]");
  return new RegExp(`^${escaped}$`, "i");
}

export interface OriginMatcher {
  /** Whether an absolute URL's origin is trusted. */
  isTrustedOrigin(url: string): boolean;
  /** Whether a callback-type value is trusted: a trusted absolute URL or a safe relative path. */
  isTrustedCallback(value: string): boolean;
}

const HOST_SCHEMES = new Set(["http:", "https:"]);
const NEVER_TRUSTED = new Set(["javascript:", "data:", "vbscript:", "blob:", "file:", "about:"]);

/**
 * `listening` adds the origins the service is reached at when BASE_URL is unset (public-base.ts); they can grow
 * after start, when the server starts listening, so they are read on every check.
 */
export function createOriginMatcher(
  trusted: readonly string[],
  listening: () => readonly string[] = () => [],
): OriginMatcher {
  const exact = new Set<string>();
  const patterns: { regexp: RegExp; hostOnly: boolean }[] = [];
  for (const entry of trusted) {
    if (entry.includes("*") || entry.includes("?")) {
      patterns.push({ regexp: wildcardToRegExp(entry), hostOnly: !entry.includes("://") });
    } else {
      try {
        exact.add(new URL(entry).origin === "null" ? entry.replace(/\/+$/, "") : new URL(entry).origin);
      } catch {
        // ignored: validated at configuration time
      }
    }
  }

  const originOf = (value: string): { origin: string; host: string; protocol: string } | null => {
    if (CONTROL_CHARS.test(value) || value.includes("\\")) return null;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    if (url.username || url.password || NEVER_TRUSTED.has(url.protocol)) return null;
    const origin = url.origin !== "null" ? url.origin : `${url.protocol}//${url.host}`;
    return { origin, host: url.host, protocol: url.protocol };
  };

  const isTrustedOrigin = (value: string): boolean => {
    const parsed = originOf(value);
    if (!parsed) return false;
    if (exact.has(parsed.origin) || listening().includes(parsed.origin)) return true;
    return patterns.some((p) =>
      p.hostOnly ? HOST_SCHEMES.has(parsed.protocol) && p.regexp.test(parsed.host) : p.regexp.test(parsed.origin),
    );
  };

  return {
    isTrustedOrigin,
    isTrustedCallback: (value) => (value.startsWith("/") ? isSafeRelativePath(value) : isTrustedOrigin(value)),
  };
}
