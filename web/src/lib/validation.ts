/** A deliberately loose shape check: one "@", something either side, a dot in the domain. The server decides. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** Profile pictures are loaded by the browser, so only absolute http(s) addresses make sense. */
export function isImageUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}
