/** A deliberately loose shape check: one "@", something either side, a dot in the domain. The server decides. */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/**
 * Profile pictures are loaded by the browser under the app's Content-Security-Policy (`img-src 'self' data: https:`),
 * so, as the service checks (server/src/user/fields.ts): an absolute https:// address without credentials, or a
 * base64 data:image URL of a PNG, JPEG, GIF, WebP or AVIF image. An http:// address would be blocked.
 */
export function isImageUrl(value: string): boolean {
  const trimmed = value.trim();
  if (/^data:image\/(png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) return true;
  if (!/^https:\/\//i.test(trimmed)) return false;
  try {
    const url = new URL(trimmed);
    return url.hostname !== "" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}
