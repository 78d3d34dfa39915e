import { buildEventRow, emitEvent, eventInsert, type EventSource } from "../events/emit.js";
import type { EndpointContext } from "../http/endpoint.js";
import type { Runtime } from "../runtime.js";
import { signIn, SecondStepRequired } from "../session/sign-in.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import type { Session, User } from "../storage/index.js";
import { resetModuleCredentials } from "../user/credentials-reset.js";
import { newUserRecord } from "../user/new-user.js";
import type { Stores } from "../modules.js";
import { EMAIL_TOKEN_PREFIX, RESET_PASSWORD_PREFIX } from "../verification/identifiers.js";

/**
 * What proving a mailbox does to the account of that address, in the transaction that consumed the proof (a magic
 * link or a code).
 *
 * An unverified account may not be its address's: anyone can sign up with an address they do not own, choose a
 * password, and wait (the pre-registration takeover, GHSA-qq9h-g4jm-xgf3). When the owner of the mailbox proves it,
 * everything the previous holder set up goes: every account row (the password's, and any provider account attached
 * before the proof), every session, every verification and reset link, and, through each module's
 * onCredentialsReset("mailbox-proven"), the second factors, passkeys and trusted devices. The address is then
 * verified, and the account is the mailbox owner's.
 */
export async function takeOverForMailboxOwner(
  source: EventSource,
  runtime: Pick<Runtime, "config" | "modules" | "logger">,
  stores: Stores,
  user: User,
  now: Date,
): Promise<User> {
  const accounts = await stores.accounts.listUserAccounts(user.id);
  await stores.accounts.deleteUserAccounts(user.id);
  const sessionsEnded = await stores.sessions.deleteUserSessions(user.id);
  await stores.verifications.deleteUserVerifications(EMAIL_TOKEN_PREFIX, user.id);
  await stores.verifications.deleteUserVerifications(RESET_PASSWORD_PREFIX, user.id);
  await stores.users.updateUser(user.id, { emailVerified: true, updatedAt: now });
  await resetModuleCredentials(runtime, stores, user.id, "mailbox-proven");
  await emitEvent(stores, source, "email.verified", {
    userId: user.id,
    actorId: user.id,
    data: { email: user.email, passwordRemoved: accounts.some((a) => a.providerId === "credential" && a.password !== null) },
  });
  if (accounts.length > 0 || sessionsEnded > 0) {
    runtime.logger.info(
      { userId: user.id, accountsRemoved: accounts.map((a) => a.providerId), sessionsEnded },
      "unverified account handed to the owner of its address: what was set up before the proof is removed",
    );
  }
  // Read again: the modules may have changed the row (twoFactorEnabled), and the sign-in that follows reads it.
  return (await stores.users.findUserById(user.id)) ?? { ...user, emailVerified: true };
}

/** Marks a proven address verified, keeping what the account holds (the prover is provably its registrant). */
export async function markVerified(source: EventSource, stores: Stores, user: User, now: Date): Promise<User> {
  await stores.verifications.deleteUserVerifications(EMAIL_TOKEN_PREFIX, user.id);
  const updated = await stores.users.updateUser(user.id, { emailVerified: true, updatedAt: now });
  await emitEvent(stores, source, "email.verified", {
    userId: user.id,
    actorId: user.id,
    data: { email: user.email, passwordRemoved: false },
  });
  return updated ?? { ...user, emailVerified: true };
}

/** What a proof carries once consumed: the address it proves, and the name a new account gets. */
export interface ProvenAddress {
  email: string;
  name?: string | undefined;
  image?: string | null | undefined;
}

export interface MailboxSignIn {
  method: "magic-link" | "email-otp";
  /** Consumes the link or code in the transaction (one statement): null when it was used, expired or never was. */
  consume(stores: Stores): Promise<ProvenAddress | null>;
  /** Whether an address without an account gets one (the option's disableSignUp turned off). */
  signUp: boolean;
  rememberMe?: boolean | undefined;
}

export type MailboxSignInOutcome =
  | { kind: "signed-in"; user: User; session: Session; isNew: boolean }
  /** The user owes a second step: the proof is used all the same, the pending step is set (its cookie too). */
  | { kind: "second-step"; user: User; pending: SecondStepRequired; isNew: boolean }
  | { kind: "refused"; reason: "invalid" | "signup-disabled" };

/**
 * Signs in the owner of a proven mailbox, through the one way in (session/sign-in.ts), in ONE transaction with the
 * proof's consumption, the account's creation (sign-up) or the takeover (above): of twenty concurrent redemptions of
 * one proof exactly one gets here, and a failure rolls everything back (the proof stays unused). A pending second
 * step is a use: the transaction commits it with the pending state, and the caller answers the second step. A ban
 * (SignInRefused) rolls back and propagates.
 *
 * The sign-in runs with the transaction's stores (its session is written in it, and so is anything a sign-in policy
 * writes), so nothing waits on a second connection while the transaction holds the user's row.
 */
export async function signInMailboxOwner(ctx: EndpointContext, proof: MailboxSignIn): Promise<MailboxSignInOutcome> {
  const { runtime } = ctx;
  const attempt = () =>
    runtime.stores.transaction(async (stores): Promise<MailboxSignInOutcome> => {
      const proven = await proof.consume(stores);
      if (!proven) return { kind: "refused", reason: "invalid" };
      const now = runtime.now();
      let user = await stores.users.findUserByEmail(proven.email);
      let isNew = false;
      if (user) {
        await stores.users.lockUser(user.id);
        user = (await stores.users.findUserById(user.id)) ?? user;
        if (!user.emailVerified) user = await takeOverForMailboxOwner(ctx, runtime, stores, user, now);
      } else {
        if (!proof.signUp) return { kind: "refused", reason: "signup-disabled" };
        user = newUserRecord(
          {
            name: proven.name ?? "",
            email: proven.email,
            role: runtime.config.admin.defaultRole,
            emailVerified: true,
            image: proven.image ?? null,
          },
          now,
        );
        isNew = true;
      }
      const created = user;
      const createdRows = () =>
        eventInsert(
          stores,
          buildEventRow(ctx, "user.created", {
            userId: created.id,
            actorId: created.id,
            data: { method: proof.method, email: created.email },
          }),
        );
      const inTransaction: EndpointContext = { ...ctx, runtime: { ...runtime, stores } };
      try {
        const signedIn = await signIn(inTransaction, user, {
          method: proof.method,
          rememberMe: proof.rememberMe,
          // A new user is written with their first session, in the same statement.
          store: isNew
            ? (session, signInRows) =>
                stores.signUps.insertNewUser({ user: created, session, extraRows: [...createdRows(), ...signInRows] })
            : undefined,
        });
        if (isNew) runtime.logger.info({ userId: user.id, method: proof.method }, "user signed up");
        return { kind: "signed-in", user: signedIn.user, session: signedIn.session, isNew };
      } catch (error) {
        if (!(error instanceof SecondStepRequired)) throw error;
        if (isNew) await stores.signUps.insertNewUser({ user: created, extraRows: createdRows() });
        return { kind: "second-step", user, pending: error, isNew };
      }
    });
  try {
    return await attempt();
  } catch (error) {
    // Two proofs for one new address at once: the second's account insert lost the race and rolled back (its proof
    // unused). Once more, it finds the account the first one made.
    if (isUniqueViolation(error)) return attempt();
    throw error;
  }
}
