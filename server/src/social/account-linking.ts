import { buildEventRow, emitEvent, eventInsert, type EventSource } from "../events/emit.js";
import type { Runtime } from "../runtime.js";
import type { User } from "../storage/index.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { newUserRecord } from "../user/new-user.js";
import { newProviderAccount, storedTokens } from "./account-record.js";
import { isPlaceholderEmail, type OAuthProvider, type OAuthTokens, type ProviderProfile } from "./provider.js";

/**
 * Why a provider sign-in did not produce a user. The text is the reason; redirects carry it with spaces as
 * underscores (`account_not_linked`, SPEC.md section 8), ID-token sign-ins as the message of a 401.
 */
export type SignInFailure = "account not linked" | "signup disabled" | "unable to create user";

export type SignInOutcome = { ok: true; user: User; isNewUser: boolean } | { ok: false; reason: SignInFailure };

/**
 * Why link-social refused. `email_not_verified` travels as SPEC.md's redirect code `unable_to_link_account`
 * (callback-routes.ts) and as 401 "Account not linked - linking not allowed" to an ID-token link.
 */
export type LinkFailure =
  | "account_already_linked_to_different_user"
  | "email_does_not_match"
  | "email_not_verified"
  | "unable_to_link_account";

/** The provider's address, normalised, or null when it shared none (or nothing that is an address). */
export function profileEmail(profile: ProviderProfile): string | null {
  const email = profile.user.email ? normalizeEmail(profile.user.email) : null;
  return email && isValidEmail(email) ? email : null;
}

/**
 * Whether a provider account with `email` may join the existing user who has that address. Never into a user whose
 * address was never verified: whoever registered it first (perhaps not its owner, waiting with a password) would
 * share the account with the provider's user. Then only when the provider is trusted or says it verified the
 * address too.
 *
 * Nor into a row whose password predates its verification, which "verified" alone guarantees: the proof of an
 * unverified address that holds a password removes that password unless the proof came from the registrant's own
 * browser (email-verification-routes.ts), and a provider's verified claim verifies only a user who already holds
 * that provider account (signed up with it, or linked it while signed in). So a verified row's password was set after the proof, or proven by the
 * registrant, or set by an administrator who created or imported the user as verified (README.md, "Account
 * linking", says what this means for rows verified before this rule).
 */
function mayLinkByEmail(runtime: Runtime, provider: OAuthProvider, profile: ProviderProfile, existing: User): boolean {
  const linking = runtime.config.account.accountLinking;
  if (!linking.enabled || !existing.emailVerified || isPlaceholderEmail(existing.email)) return false;
  return linking.trustedProviders.includes(provider.id) || profile.user.emailVerified;
}

/**
 * Finds or creates the user for a provider sign-in (SPEC.md section 4, steps 3 and 4): the user who already has this
 * provider account (their tokens refreshed); else the user with the same address when linking is allowed; else a new
 * user, unless sign-up is off for the provider or (disableImplicitSignUp) the caller did not ask for it.
 */
export async function signInWithProfile(
  source: EventSource,
  runtime: Runtime,
  provider: OAuthProvider,
  profile: ProviderProfile,
  tokens: OAuthTokens,
  opts: { email: string; requestSignUp: boolean },
): Promise<SignInOutcome> {
  const { stores } = runtime;
  const accountId = profile.user.id;
  const now = runtime.now();

  const account = await stores.accounts.findAccountByProvider(provider.id, accountId);
  if (account) {
    await stores.accounts.updateAccountTokens(account.id, storedTokens(runtime, provider.id, accountId, tokens), now);
    let user = await stores.users.findUserById(account.userId);
    if (!user) return { ok: false, reason: "unable to create user" };
    // The provider has since verified the address the user signed up with: so do we.
    if (!user.emailVerified && profile.user.emailVerified && user.email === opts.email) {
      const { id, email } = user;
      const verified = await stores.transaction(async (tx) => {
        const updated = await tx.users.updateUser(id, { emailVerified: true, updatedAt: now });
        if (updated) await emitEvent(tx, source, "email.verified", { userId: id, actorId: id, data: { email, passwordRemoved: false } });
        return updated;
      });
      user = verified ?? user;
    }
    return { ok: true, user, isNewUser: false };
  }

  const existing = await stores.users.findUserByEmail(opts.email);
  if (existing) {
    if (!mayLinkByEmail(runtime, provider, profile, existing)) return { ok: false, reason: "account not linked" };
    try {
      await createLinkedAccount(source, runtime, provider.id, accountId, existing.id, tokens, existing.id);
    } catch (error) {
      runtime.logger.error({ provider: provider.id, err: (error as Error).message }, "account not linked");
      return { ok: false, reason: "account not linked" };
    }
    return { ok: true, user: existing, isNewUser: false };
  }

  const { disableSignUp, disableImplicitSignUp } = provider.settings;
  if (disableSignUp || (disableImplicitSignUp && !opts.requestSignUp)) return { ok: false, reason: "signup disabled" };
  const user = newUserRecord(
    {
      name: profile.user.name.trim() || opts.email.split("@")[0]!,
      email: opts.email,
      role: runtime.config.admin.defaultRole,
      emailVerified: profile.user.emailVerified,
      image: profile.user.image,
    },
    now,
  );
  try {
    await runtime.stores.signUps.insertNewUser({
      user,
      account: newProviderAccount(runtime, provider.id, accountId, user.id, tokens),
      extraRows: eventInsert(
        runtime.stores,
        buildEventRow(source, "user.created", {
          userId: user.id,
          actorId: user.id,
          data: { method: "social", email: user.email, providerId: provider.id },
        }),
      ),
    });
  } catch (error) {
    // A racing sign-up may have taken the address meanwhile.
    runtime.logger.warn({ provider: provider.id, err: (error as Error).message }, "user not created from provider");
    return { ok: false, reason: "unable to create user" };
  }
  runtime.logger.info({ userId: user.id, provider: provider.id }, "user signed up with a provider");
  return { ok: true, user, isNewUser: true };
}

/**
 * Attaches a provider account to a signed-in user (link-social). The provider account must not belong to someone
 * else; the address it shares must be one the provider verified (unless the provider is trusted), else whoever typed
 * the user's address into an account of theirs at the provider, and got the user to finish a link flow with it,
 * would hold a way into the user's account; and it must be the user's address unless `allowDifferentEmails`.
 * Providers that share no address at all are linked on the user's word: they have nothing to compare.
 */
export async function linkProfileToUser(
  source: EventSource,
  runtime: Runtime,
  provider: OAuthProvider,
  profile: ProviderProfile,
  tokens: OAuthTokens,
  link: { userId: string; email: string },
): Promise<{ ok: true } | { ok: false; code: LinkFailure }> {
  const { stores } = runtime;
  const accountId = profile.user.id;
  const account = await stores.accounts.findAccountByProvider(provider.id, accountId);
  if (account && account.userId !== link.userId) return { ok: false, code: "account_already_linked_to_different_user" };
  if (account) {
    await stores.accounts.updateAccountTokens(account.id, storedTokens(runtime, provider.id, accountId, tokens), runtime.now());
    return { ok: true };
  }
  const email = profileEmail(profile);
  const comparable = email !== null && !isPlaceholderEmail(email);
  const trusted = runtime.config.account.accountLinking.trustedProviders.includes(provider.id);
  if (comparable && !profile.user.emailVerified && !trusted) return { ok: false, code: "email_not_verified" };
  if (comparable && email !== link.email && !runtime.config.account.accountLinking.allowDifferentEmails) {
    return { ok: false, code: "email_does_not_match" };
  }
  try {
    await createLinkedAccount(source, runtime, provider.id, accountId, link.userId, tokens, link.userId);
  } catch (error) {
    runtime.logger.error({ provider: provider.id, err: (error as Error).message }, "account not linked");
    return { ok: false, code: "unable_to_link_account" };
  }
  return { ok: true };
}

/**
 * Stores a provider account of the user with its account.linked event, in one transaction. The actor is the user:
 * signed in (link-social) or signing in (a provider sign-in that joins the user by address).
 */
async function createLinkedAccount(
  source: EventSource,
  runtime: Runtime,
  providerId: string,
  accountId: string,
  userId: string,
  tokens: OAuthTokens,
  actorId: string,
): Promise<void> {
  await runtime.stores.transaction(async (stores) => {
    await stores.accounts.createAccount(newProviderAccount(runtime, providerId, accountId, userId, tokens));
    await emitEvent(stores, source, "account.linked", { userId, actorId, data: { providerId, accountId } });
  });
}
