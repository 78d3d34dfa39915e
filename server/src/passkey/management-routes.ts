import { z } from "zod";
import { emitEvent } from "../events/emit.js";
import { checkCurrentPassword } from "../credentials/credential-account.js";
import { defineEndpoint } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { isSessionFresh } from "../session/freshness.js";
import { SESSION_MESSAGES } from "../session/messages.js";
import type { Session } from "../storage/index.js";
import { statusSchema } from "../user/public.js";
import { definePasskeyEndpoint } from "./deps.js";
import { PASSKEY_MESSAGES } from "./messages.js";
import { passkeySchema, publicPasskey } from "./public.js";

const passkeyId = z.string().min(1).max(256);

export const listPasskeys = definePasskeyEndpoint({
  method: "GET",
  path: "/passkey/list-user-passkeys",
  auth: "session",
  response: z.array(passkeySchema),
  summary: "The signed-in user's passkeys, oldest first",
  tags: ["Passkeys"],
  async handler(ctx) {
    const passkeys = await ctx.runtime.stores.passkeys.listUserPasskeys(ctx.session!.user.id);
    return passkeys.map(publicPasskey);
  },
});

export const updatePasskey = definePasskeyEndpoint({
  method: "POST",
  path: "/passkey/update-passkey",
  auth: "session",
  body: z.object({ id: passkeyId, name: z.string().trim().min(1).max(256) }),
  response: z.object({ passkey: passkeySchema }),
  summary: "Rename one of the signed-in user's passkeys",
  tags: ["Passkeys"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    // Only the user's own: another user's passkey is answered as an unknown one (no hint that the id exists).
    const renamed = await runtime.stores.passkeys.renameUserPasskey(ctx.session!.user.id, body.id, body.name);
    if (!renamed) throw new APIError("NOT_FOUND", PASSKEY_MESSAGES.PASSKEY_NOT_FOUND);
    return { passkey: publicPasskey(renamed) };
  },
});

/**
 * Whether the session's sign-in used a passkey: its method (session.loginMethod), or the factors recorded on it
 * (a passkey sign-in that went through a second step).
 */
function signedInWithPasskey(session: Session): boolean {
  const factors = (session as Session & { factors?: readonly string[] | null }).factors;
  return session.loginMethod === "passkey" || (factors?.includes("passkey") ?? false);
}

export const deletePasskey = defineEndpoint({
  method: "POST",
  path: "/passkey/delete-passkey",
  // The session is read from the database: a revoked session cannot remove a factor through a cached copy.
  auth: "sensitive",
  rateLimit: "credential",
  body: z.object({
    id: passkeyId,
    /** Step-up: the current password. Without it the session must be fresh (and see README.md, "Passkeys"). */
    password: z.string().min(1).max(4096).optional(),
  }),
  response: statusSchema,
  summary: "Delete one of the signed-in user's passkeys: with the password, or from a fresh session",
  tags: ["Passkeys"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { user, session } = ctx.session!;
    const passkey = await runtime.stores.passkeys.findUserPasskey(user.id, body.id);
    if (!passkey) throw new APIError("NOT_FOUND", PASSKEY_MESSAGES.PASSKEY_NOT_FOUND);
    if (body.password !== undefined) {
      await checkCurrentPassword(runtime, user.id, body.password);
    } else {
      if (!isSessionFresh(runtime.config.session, session, runtime.now())) {
        throw new APIError("FORBIDDEN", SESSION_MESSAGES.SESSION_IS_NOT_FRESH);
      }
      // A session that did not itself use a passkey (a password, a provider, a mailed link) removes without the
      // password only the passkeys registered in it: a stolen fresh cookie cannot strip the user's passkeys.
      if (!signedInWithPasskey(session) && passkey.registeredBySession !== session.id) {
        throw new APIError("FORBIDDEN", PASSKEY_MESSAGES.PASSWORD_REQUIRED_TO_DELETE_THIS_PASSKEY);
      }
    }
    await runtime.stores.transaction(async (stores) => {
      if (!(await stores.passkeys.deleteUserPasskey(user.id, passkey.id))) {
        throw new APIError("NOT_FOUND", PASSKEY_MESSAGES.PASSKEY_NOT_FOUND);
      }
      await emitEvent(stores, ctx, "passkey.removed", { userId: user.id, data: { passkeyId: passkey.id, name: passkey.name } });
    });
    runtime.logger.info({ userId: user.id, passkeyId: passkey.id }, "passkey deleted");
    return { status: true };
  },
});
