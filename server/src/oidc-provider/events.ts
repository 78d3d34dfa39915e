/**
 * The OpenID Provider's security events (clients registered, changed and removed; grants given and revoked) are
 * written through the events module's seam (server/src/events/emit.ts) once it is part of the service; until then
 * this writes nothing.
 */
export async function emitOidcEvent(_stores: unknown, _source: unknown, _type: string, _fields: unknown): Promise<void> {}
