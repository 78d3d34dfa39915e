import { z } from "zod";
import { CREDENTIAL_MESSAGES } from "../credentials/messages.js";
import { limitMailTo } from "../http/account-limits.js";
import { emitEvent } from "../events/emit.js";
import { defineEndpoint } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { statusSchema } from "../user/public.js";
import { inBackground } from "./background.js";
import { sendVerificationOrFail } from "./email-verification-routes.js";
import { sendVerificationMail } from "./mail.js";
import { VERIFICATION_MESSAGES } from "./messages.js";

export const changeEmail = defineEndpoint({
  method: "POST",
  path: "/change-email",
  changesSession: true,
  // Changes what signs the user in (and mails a link): limited like the password routes.
  rateLimit: "credential",
  auth: "sensitive",
  body: z.object({ newEmail: z.string().max(1024), callbackURL: z.string().max(2048).optional() }),
  callbackFields: ["callbackURL"],
  response: statusSchema,
  summary: "Change the email address: at once while unverified, else after confirming from the current address",
  tags: ["User"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    if (!runtime.config.user.changeEmail.enabled) throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.CHANGE_EMAIL_IS_DISABLED);
    const { user, session } = ctx.session!;
    const newEmail = normalizeEmail(body.newEmail);
    if (!isValidEmail(newEmail)) throw new APIError("BAD_REQUEST", CREDENTIAL_MESSAGES.INVALID_EMAIL);
    if (newEmail === user.email) throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.EMAIL_IS_THE_SAME);
    if (await runtime.stores.users.findUserByEmail(newEmail)) {
      throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.COULDNT_UPDATE_YOUR_EMAIL);
    }

    // The mail goes to the new address while the current one is unproven, else to the current one.
    await limitMailTo(runtime, user.emailVerified ? user.email : newEmail);
    if (!user.emailVerified) {
      // Nothing was proven about the current address, so there is nothing to protect: change it now.
      const updated = await runtime.stores
        .transaction(async (stores) => {
          const changed = await stores.users.updateUser(user.id, { email: newEmail, emailVerified: false, updatedAt: runtime.now() });
          if (changed) await emitEvent(stores, ctx, "email.changed", { userId: user.id, data: { from: user.email, to: newEmail } });
          return changed;
        })
        .catch(() => null);
      if (!updated) throw new APIError("BAD_REQUEST", VERIFICATION_MESSAGES.COULDNT_UPDATE_YOUR_EMAIL);
      runtime.sessions.setSessionCookies(ctx, { session, user: updated });
      if (runtime.config.emailVerification.enabled) {
        inBackground(runtime, "verify-changed-email", () =>
          sendVerificationMail(ctx, updated, { callbackURL: body.callbackURL }),
        );
      }
      return { status: true };
    }
    // A verified address: the owner of the current address confirms, then the change happens.
    await sendVerificationOrFail(ctx, user, { callbackURL: body.callbackURL, updateTo: newEmail });
    // Nothing is stored until the confirmation: the request is the mail, recorded once it went out.
    await emitEvent(runtime.stores, ctx, "email.change_requested", { userId: user.id, data: { newEmail } });
    return { status: true };
  },
});
