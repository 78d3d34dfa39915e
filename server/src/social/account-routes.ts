import { z } from "zod";
import { emitEvent } from "../events/emit.js";
import { defineEndpoint } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import type { Account } from "../storage/index.js";
import { statusSchema } from "../user/public.js";
import { linkProfileToUser } from "./account-linking.js";
import { scopesOf } from "./account-record.js";
import { startAuthorization } from "./authorize.js";
import { idTokenBody, tokensFromIdToken, verifyPostedIdToken } from "./id-token.js";
import { requireProvider } from "./lookup.js";
import { OAUTH_MESSAGES } from "./messages.js";
import { redirectAnswerSchema, scopesBody } from "./sign-in-routes.js";

const dateTime = z.iso.datetime();

/** A linked account as clients see it: never its tokens or password. */
export const accountItemSchema = z.object({
  id: z.string(),
  /** The newer name of `provider`; both are served. */
  providerId: z.string(),
  provider: z.string(),
  accountId: z.string(),
  userId: z.string(),
  createdAt: dateTime,
  updatedAt: dateTime,
  scopes: z.array(z.string()),
});

export function accountItem(account: Account) {
  return {
    id: account.id,
    providerId: account.providerId,
    provider: account.providerId,
    accountId: account.accountId,
    userId: account.userId,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
    scopes: scopesOf(account),
  };
}

export const listUserAccounts = defineEndpoint({
  method: "GET",
  path: "/list-accounts",
  auth: "session",
  response: z.array(accountItemSchema),
  summary: "The signed-in user's accounts (credential and providers), without tokens",
  tags: ["Accounts"],
  async handler(ctx) {
    const accounts = await ctx.runtime.stores.accounts.listUserAccounts(ctx.session!.user.id);
    return accounts.map(accountItem);
  },
});

export const linkSocialAccount = defineEndpoint({
  method: "POST",
  path: "/link-social",
  auth: "sensitive",
  body: z.object({
    provider: z.string().min(1).max(64),
    callbackURL: z.string().max(2048).optional(),
    errorCallbackURL: z.string().max(2048).optional(),
    disableRedirect: z.boolean().optional(),
    scopes: scopesBody.optional(),
    idToken: idTokenBody.optional(),
  }),
  callbackFields: ["callbackURL", "errorCallbackURL"],
  response: z.union([
    redirectAnswerSchema,
    z.object({ url: z.literal(""), status: z.literal(true), redirect: z.literal(false) }),
  ]),
  summary: "Link a social provider's account to the signed-in user",
  tags: ["Accounts"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { user } = ctx.session!;
    const provider = requireProvider(runtime, body.provider);
    if (!runtime.config.account.accountLinking.enabled) {
      throw new APIError("UNAUTHORIZED", OAUTH_MESSAGES.ACCOUNT_NOT_LINKED_LINKING_NOT_ALLOWED);
    }
    const link = { userId: user.id, email: user.email };

    if (body.idToken) {
      const profile = await verifyPostedIdToken(ctx, provider, body.idToken);
      const result = await linkProfileToUser(ctx, runtime, provider, profile, tokensFromIdToken(body.idToken, profile), link);
      if (!result.ok) {
        if (result.code === "account_already_linked_to_different_user") {
          throw new APIError(409, OAUTH_MESSAGES.SOCIAL_ACCOUNT_ALREADY_LINKED);
        }
        if (result.code === "email_not_verified") {
          throw new APIError("UNAUTHORIZED", OAUTH_MESSAGES.ACCOUNT_NOT_LINKED_LINKING_NOT_ALLOWED);
        }
        if (result.code === "email_does_not_match") {
          throw new APIError("UNAUTHORIZED", OAUTH_MESSAGES.ACCOUNT_NOT_LINKED_DIFFERENT_EMAILS_NOT_ALLOWED);
        }
        throw new APIError("BAD_REQUEST", OAUTH_MESSAGES.UNABLE_TO_LINK_ACCOUNT);
      }
      return { url: "" as const, status: true as const, redirect: false as const };
    }

    const url = await startAuthorization(ctx, provider, {
      callbackURL: body.callbackURL,
      errorCallbackURL: body.errorCallbackURL,
      scopes: body.scopes,
      link,
    });
    const redirect = !body.disableRedirect;
    if (redirect) ctx.setHeader("location", url);
    return { url, redirect };
  },
});

export const unlinkAccount = defineEndpoint({
  method: "POST",
  path: "/unlink-account",
  auth: "fresh",
  body: z
    .object({
      /** SPEC.md: the provider, with the provider's account id when the user has several. */
      providerId: z.string().min(1).max(64).optional(),
      /** With providerId: the provider's account id. Alone (newer clients): the account row's id. */
      accountId: z.string().min(1).max(1024).optional(),
    })
    .refine((b) => b.providerId !== undefined || b.accountId !== undefined, {
      message: "providerId or accountId is required",
    }),
  response: statusSchema,
  summary: "Unlink one of the signed-in user's accounts (not the last one)",
  tags: ["Accounts"],
  async handler(ctx) {
    const { runtime, body } = ctx;
    const { user } = ctx.session!;
    const accounts = await runtime.stores.accounts.listUserAccounts(user.id);
    const target = body.providerId
      ? accounts.find(
          (a) =>
            a.providerId === body.providerId &&
            (body.accountId === undefined || a.accountId === body.accountId || a.id === body.accountId),
        )
      : accounts.find((a) => a.id === body.accountId);
    if (!target) throw new APIError("BAD_REQUEST", OAUTH_MESSAGES.ACCOUNT_NOT_FOUND);
    const keepLast = !runtime.config.account.accountLinking.allowUnlinkingAll;
    const lastOne = () => new APIError("BAD_REQUEST", OAUTH_MESSAGES.YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT);
    if (keepLast && accounts.length <= 1) throw lastOne();
    // The "not the last one" rule is checked again in the delete itself, under the user's row lock, so two
    // concurrent unlinks cannot each leave the other as the last account and then both delete it.
    const deleted = await runtime.stores.transaction(async (stores) => {
      await stores.users.lockUser(user.id);
      const done = await stores.accounts.deleteUserAccount(user.id, target.id, { keepLast });
      if (done) {
        await emitEvent(stores, ctx, "account.unlinked", {
          userId: user.id,
          data: { providerId: target.providerId, accountId: target.accountId },
        });
      }
      return done;
    });
    if (!deleted) throw keepLast ? lastOne() : new APIError("BAD_REQUEST", OAUTH_MESSAGES.ACCOUNT_NOT_FOUND);
    return { status: true };
  },
});
