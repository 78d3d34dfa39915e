export interface Device {
  /** A browser's product name, or null when the user agent does not say. */
  browser: string | null;
  /** An operating system or device family, or null when the user agent does not say. */
  os: string | null;
}

// Order matters: Edge, Opera and Samsung Internet also claim to be Chrome, and Chrome also claims to be Safari.
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(HeadlessChrome|Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\b(iPhone|iPad).*AppleWebKit\//, "Safari"],
  [/^curl\//, "curl"],
  [/^node\b|\bnode-fetch\b|\bundici\b/i, "Node.js"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

function firstMatch(value: string, table: [RegExp, string][]): string | null {
  return table.find(([pattern]) => pattern.test(value))?.[1] ?? null;
}

/** Reads the browser and system from a User-Agent header, for labels like "Chrome on Linux". */
export function parseUserAgent(userAgent: string | null | undefined): Device {
  const value = (userAgent ?? "").trim();
  if (!value) return { browser: null, os: null };
  return { browser: firstMatch(value, BROWSERS), os: firstMatch(value, SYSTEMS) };
}
