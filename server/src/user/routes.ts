import { z } from "zod";
import { emitEvent } from "../events/emit.js";
import { defineEndpoint } from "../http/endpoint.js";
import { APIError, fillMessage } from "../http/errors.js";
import { imageSchema, nameSchema, rejectProtectedFields } from "./fields.js";
import { USER_FIXED_CODES, USER_MESSAGES } from "./messages.js";
import { statusSchema } from "./public.js";
import { toLanguage } from "../email/language.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import { displayUsernameSchema, usernameChanges, usernameSchema, usernameTakenError } from "../credentials/username.js";

const UPDATABLE = new Set(["name", "image", "lang", "username", "displayUsername"]);

export const updateUser = defineEndpoint({
  method: "POST",
  path: "/update-user",
  changesSession: true,
  auth: "session",
  body: z.looseObject({
    name: nameSchema.optional(),
    image: imageSchema.optional(),
    /** The language mail is written in: a code ("de") or SPEC.md's numeric id (6). */
    lang: z.union([z.string().max(16), z.number().int()]).optional(),
    username: usernameSchema.optional(),
    displayUsername: displayUsernameSchema.optional(),
  }),
  response: statusSchema,
  summary: "Update the signed-in user's name, image, language and username",
  tags: ["User"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    if (body.email !== undefined) throw new APIError("BAD_REQUEST", USER_MESSAGES.EMAIL_CAN_NOT_BE_UPDATED);
    rejectProtectedFields(body);
    for (const key of Object.keys(body)) {
      if (!UPDATABLE.has(key)) {
        throw new APIError("BAD_REQUEST", fillMessage(USER_FIXED_CODES.FIELD_NOT_ALLOWED, { field: key }), { code: "FIELD_NOT_ALLOWED" });
      }
    }
    if (Object.keys(body).every((key) => body[key] === undefined)) {
      throw new APIError("BAD_REQUEST", USER_MESSAGES.NO_FIELDS_TO_UPDATE);
    }
    const lang = body.lang === undefined ? undefined : toLanguage(body.lang);
    if (lang === null) throw new APIError("BAD_REQUEST", USER_MESSAGES.UNSUPPORTED_LANGUAGE);
    const current = ctx.session!;
    const names = await usernameChanges(runtime, body, current.user.id);
    const changes = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.image !== undefined ? { image: body.image } : {}),
      ...(lang ? { lang } : {}),
      ...names,
    };
    const user = await runtime.stores
      .transaction(async (stores) => {
        const updated = await stores.users.updateUser(current.user.id, { ...changes, updatedAt: runtime.now() });
        if (updated) {
          await emitEvent(stores, ctx, "user.updated", { userId: updated.id, data: { fields: Object.keys(changes) } });
        }
        return updated;
      })
      .catch((error: unknown) => {
        // Another user took the username between the check and the write.
        throw isUniqueViolation(error) ? usernameTakenError() : error;
      });
    if (!user) throw new APIError("NOT_FOUND", USER_MESSAGES.USER_NOT_FOUND);
    runtime.sessions.setSessionCookies(ctx, { session: current.session, user });
    return { status: true };
  },
});
