/**
 * Which browser and system a User-Agent header names, for the new-device mail ("Firefox 128 on Android 14") and for
 * telling one browser from another (the family names only: an update changes the version, not the browser).
 *
 * Our own reader rather than a library: the mail needs a name and a major version for the browsers people use, and
 * a table of a few product tokens gives that in some sixty lines, with no dependency to keep up to date. It reads
 * tokens in a fixed order because browsers borrow each other's: Edge, Opera, Samsung Internet and others also say
 * "Chrome/", and every Chromium and WebKit browser also says "Safari/". A header it cannot read gives nulls, which
 * the mail words as "unknown".
 */
export interface UserAgentInfo {
  /** A product name ("Chrome", "Firefox", "Safari"), or null. */
  browser: string | null;
  /** Its major version ("128"), or null. */
  browserVersion: string | null;
  /** An operating system ("Windows", "macOS", "Android", "iOS"), or null. */
  system: string | null;
  /** Its version where the header tells it truthfully (Android's, iOS's), or null. */
  systemVersion: string | null;
}

/** Browser name by product token, first match wins; `version` names the token holding the version, if not the same. */
const BROWSER_TOKENS: readonly { token: RegExp; name: string; version?: RegExp }[] = [
  { token: /\b(?:Edg|EdgA|EdgiOS|Edge)\/(\d+)/, name: "Edge" },
  { token: /\b(?:OPR|OPiOS|OPT)\/(\d+)/, name: "Opera" },
  { token: /\bYaBrowser\/(\d+)/, name: "Yandex Browser" },
  { token: /\bSamsungBrowser\/(\d+)/, name: "Samsung Internet" },
  { token: /\bVivaldi\/(\d+)/, name: "Vivaldi" },
  { token: /\b(?:Firefox|FxiOS)\/(\d+)/, name: "Firefox" },
  { token: /\bHeadlessChrome\/(\d+)/, name: "Headless Chrome" },
  { token: /\bChromium\/(\d+)/, name: "Chromium" },
  { token: /\b(?:Chrome|CriOS)\/(\d+)/, name: "Chrome" },
  // Safari says its version in Version/; an iOS web view has AppleWebKit and Mobile/ but no Version/.
  { token: /\bSafari\//, name: "Safari", version: /\bVersion\/(\d+)/ },
  { token: /\b(?:iPhone|iPad|iPod)\b.*\bAppleWebKit\//, name: "Safari", version: /\bVersion\/(\d+)/ },
  { token: /^curl\/(\d+)/, name: "curl" },
];

/** Operating system by token, first match wins: Android and ChromeOS also say "Linux", iOS also says "Mac OS X". */
const SYSTEM_TOKENS: readonly { token: RegExp; name: string }[] = [
  { token: /\bAndroid(?:[ /](\d+))?/, name: "Android" },
  { token: /\b(?:iPhone|iPod)\b.*?\bOS (\d+)_/, name: "iOS" },
  { token: /\biPad\b.*?\bOS (\d+)_/, name: "iPadOS" },
  { token: /\bWindows\b/, name: "Windows" },
  { token: /\bCrOS\b/, name: "ChromeOS" },
  { token: /\bMac OS X\b|\bMacintosh\b/, name: "macOS" },
  { token: /\bFreeBSD\b/, name: "FreeBSD" },
  { token: /\bLinux\b|\bX11\b/, name: "Linux" },
];

/** Longer headers are cut before reading: nothing a browser sends is this long. */
const MAX_LENGTH = 1024;

export function parseUserAgent(header: string | null | undefined): UserAgentInfo {
  const ua = (header ?? "").slice(0, MAX_LENGTH).trim();
  const info: UserAgentInfo = { browser: null, browserVersion: null, system: null, systemVersion: null };
  if (!ua) return info;
  for (const entry of BROWSER_TOKENS) {
    const found = entry.token.exec(ua);
    if (!found) continue;
    info.browser = entry.name;
    info.browserVersion = (entry.version ? entry.version.exec(ua)?.[1] : found[1]) ?? null;
    break;
  }
  for (const entry of SYSTEM_TOKENS) {
    const found = entry.token.exec(ua);
    if (!found) continue;
    info.system = entry.name;
    info.systemVersion = found[1] ?? null;
    break;
  }
  return info;
}

/** "Chrome 126", "Firefox", or null. */
export function browserLabel(info: UserAgentInfo): string | null {
  return info.browser && (info.browserVersion ? `${info.browser} ${info.browserVersion}` : info.browser);
}

/** "Android 14", "Windows", or null. */
export function systemLabel(info: UserAgentInfo): string | null {
  return info.system && (info.systemVersion ? `${info.system} ${info.systemVersion}` : info.system);
}
