import { z } from "zod";
import { CREDENTIAL_FIXED_CODES } from "../credentials/messages.js";
import type { User } from "../storage/models.js";
import { oidcProviderOptionsSchema } from "./oidc-provider-options.js";
import { accountOptionsSchema, socialProvidersSchema } from "./social-options.js";
import { webhookOptionsSchema } from "./webhook-options.js";

/**
 * Every option of `createGatehouse(options)` and its default, in one place.
 * Option names follow the ones clients of this API already know (see API-NOTES.md section 1).
 */

const MAX_COOKIE_AGE = 34_560_000; // 400 days: browsers cap cookie life there (RFC 6265bis)

const seconds = (max = Number.MAX_SAFE_INTEGER) => z.number().int().min(0).max(max);

/** A site role name; a user's role string joins several with commas. */
const roleName = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be letters, digits, _ or -");

/** Whether a user may create organizations: a flag, or (library use) a function asked per user. */
export type OrganizationCreationRule = boolean | ((user: User) => boolean | Promise<boolean>);

const organizationCreationRule = z.union([
  z.boolean(),
  z.custom<(user: User) => boolean | Promise<boolean>>((v) => typeof v === "function", "must be a boolean or a function"),
]);

/** An organization role named in options: one of the built-in roles of SPEC.md section 6. */
const organizationRole = z.enum(["owner", "admin", "member"]);

/** An origin a passkey ceremony may come from: `https://app.example.com`, or a pattern (`https://*.example.com`). */
const passkeyOrigin = z
  .string()
  .min(1)
  .max(512)
  .refine((value) => {
    if (value.includes("*")) return /^([a-z][a-z0-9+.-]*:\/\/)?[A-Za-z0-9*.-]+(:\d+)?$/.test(value);
    try {
      const url = new URL(value);
      return url.origin !== "null" && url.pathname === "/" && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, "must be an origin (scheme, host and port) or an origin pattern");

const rateLimitRule = z.union([z.literal(false), z.strictObject({ window: seconds().min(1), max: z.number().int().min(1) })]);

export const optionsSchema = z
  .strictObject({
    /** Public URL of the service, e.g. https://auth.example.com. Links in mail and OAuth redirects are built on it. */
    baseURL: z.string().url().optional(),
    basePath: z
      .string()
      .regex(/^\/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$/, "must start with / and not end with /")
      .default("/api/auth"),
    secret: z.string().min(1).optional(),
    database: z
      .strictObject({
        /** sqlite://path, sqlite::memory:, or postgres://... */
        url: z.string().min(1).default("sqlite://./data/gatehouse.db"),
        /** PostgreSQL pool size. */
        poolSize: z.number().int().min(1).max(500).default(10),
        /**
         * PostgreSQL: how many session reads may be out at once before further ones wait and go together, many
         * tokens to a statement (0: every read on its own).
         */
        coalesceSessionReads: z.number().int().min(0).max(500).default(4),
        /** PostgreSQL schema to use (created if missing); "public" by default. */
        schema: z.string().regex(/^[a-z_][a-z0-9_]*$/).optional(),
      })
      .prefault({}),
    redis: z
      .strictObject({
        url: z.string().min(1),
        /** Prefix of every key Gatehouse writes, so one Redis can serve several deployments. */
        keyPrefix: z.string().max(64).default("gatehouse:"),
      })
      .optional(),
    trustedOrigins: z.array(z.string().min(1)).default([]),
    session: z
      .strictObject({
        expiresIn: seconds(MAX_COOKIE_AGE).min(60).default(604_800),
        updateAge: seconds().default(86_400),
        freshAge: seconds().default(86_400),
        /**
         * Where a session's freshness is measured from: "update" (its last refresh, SPEC.md's rule) or "signIn"
         * (its creation, so a refreshed session is not fresh again without a new sign-in).
         */
        freshFrom: z.enum(["update", "signIn"]).default("update"),
        disableSessionRefresh: z.boolean().default(false),
        cookieCache: z
          .strictObject({
            enabled: z.boolean().default(false),
            maxAge: seconds(MAX_COOKIE_AGE).min(1).default(300),
          })
          .prefault({}),
      })
      .prefault({}),
    emailAndPassword: z
      .strictObject({
        enabled: z.boolean().default(true),
        disableSignUp: z.boolean().default(false),
        minPasswordLength: z.number().int().min(1).max(256).default(8),
        maxPasswordLength: z.number().int().min(1).max(4096).default(128),
        autoSignIn: z.boolean().default(true),
        requireEmailVerification: z.boolean().default(false),
        resetPassword: z
          .strictObject({
            enabled: z.boolean().default(true),
            /** Life of a password-reset token, in seconds. */
            tokenExpiresIn: seconds().min(60).default(3600),
            /**
             * Sign the user out everywhere when they reset their password. On by default: a reset is what a user
             * does after "I was hacked", and a session left open would keep the intruder in.
             */
            revokeSessionsOnPasswordReset: z.boolean().default(true),
          })
          .prefault({}),
      })
      .prefault({})
      .refine((v) => v.minPasswordLength <= v.maxPasswordLength, {
        message: "minPasswordLength must not exceed maxPasswordLength",
        path: ["minPasswordLength"],
      }),
    emailVerification: z
      .strictObject({
        enabled: z.boolean().default(true),
        /** Mail a verification link when someone signs up. */
        sendOnSignUp: z.boolean().default(true),
        /** Mail a new link when an unverified user is refused sign-in (requireEmailVerification). */
        sendOnSignIn: z.boolean().default(true),
        autoSignInAfterVerification: z.boolean().default(false),
        /** Life of a verification link, in seconds. */
        expiresIn: seconds().min(60).default(3600),
      })
      .prefault({}),
    user: z
      .strictObject({
        changeEmail: z.strictObject({ enabled: z.boolean().default(true) }).prefault({}),
        deleteUser: z
          .strictObject({
            enabled: z.boolean().default(false),
            /** Confirm a deletion without a password by a link mailed to the user (two steps). */
            sendDeleteAccountVerification: z.boolean().default(true),
            /** Life of a delete-account link, in seconds. */
            deleteTokenExpiresIn: seconds().min(60).default(86_400),
          })
          .prefault({}),
      })
      .prefault({}),
    username: z
      .strictObject({
        /** Usernames are letters, digits, underscore and dot, of this many characters (SPEC.md section 5). */
        minUsernameLength: z.number().int().min(1).max(256).default(3),
        maxUsernameLength: z.number().int().min(1).max(256).default(30),
      })
      .prefault({})
      .refine((v) => v.minUsernameLength <= v.maxUsernameLength, {
        message: "minUsernameLength must not exceed maxUsernameLength",
        path: ["minUsernameLength"],
      }),
    admin: z
      .strictObject({
        /** The role every new user gets. */
        defaultRole: roleName.default("user"),
        /** Roles that hold the site administrator's actions (a user holding any of them is an administrator). */
        adminRoles: z.array(roleName).default(["admin"]),
        /** Users who pass every administrator check, whatever their role. */
        adminUserIds: z.array(z.string().min(1).max(256)).default([]),
        /** Life of a session opened by impersonate-user, in seconds. */
        impersonationSessionDuration: seconds(MAX_COOKIE_AGE).min(60).default(3600),
        defaultBanReason: z.string().min(1).max(1024).default("No reason"),
        /** Life of a ban when ban-user names none, in seconds; unset: bans last until lifted. */
        defaultBanExpiresIn: seconds().min(1).optional(),
        allowImpersonatingAdmins: z.boolean().default(false),
        /** The message a banned user is refused sign-in with (403 BANNED_USER). */
        bannedUserMessage: z
          .string()
          .min(1)
          .max(1024)
          .default(CREDENTIAL_FIXED_CODES.BANNED_USER),
      })
      .prefault({}),
    /**
     * The method a browser signed in with last (session/sign-in.ts), as Better Auth's lastLoginMethod plugin keeps
     * it: a cookie the sign-in page reads to mark that method, and optionally user.lastLoginMethod.
     */
    lastLoginMethod: z
      .strictObject({
        /** Off: no cookie is set and the column is not written (the session still records its method). */
        enabled: z.boolean().default(true),
        /** The cookie's full name: no prefix and never `__Secure-` (the page reads it by this name). */
        cookieName: z
          .string()
          .regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/)
          .max(256)
          .default("better-auth.last_used_login_method"),
        /** Also write the method to user.lastLoginMethod on each sign-in. */
        storeInDatabase: z.boolean().default(false),
      })
      .prefault({}),
    /**
     * Sign-in by a mailed link (server/src/passwordless/, README.md "Magic links and email codes"). `expiresIn`:
     * the link's life in seconds. `disableSignUp`: an address without an account gets no link (and the link makes
     * no account).
     */
    magicLink: z
      .strictObject({
        enabled: z.boolean().default(true),
        expiresIn: seconds(86_400).min(60).default(300),
        disableSignUp: z.boolean().default(false),
      })
      .prefault({}),
    /**
     * One-time codes by mail (server/src/passwordless/): sign-in, email verification, password reset and, when
     * `changeEmail.enabled`, email change. `expiresIn` in seconds; `allowedAttempts`: tries per code, the right one
     * included. `sendVerificationOnSignUp` mails a code on sign-up; `overrideDefaultEmailVerification` mails a code
     * instead of the verification link.
     */
    emailOTP: z
      .strictObject({
        enabled: z.boolean().default(true),
        otpLength: z.number().int().min(6).max(12).default(6),
        expiresIn: seconds(86_400).min(60).default(300),
        allowedAttempts: z.number().int().min(1).max(10).default(3),
        disableSignUp: z.boolean().default(false),
        sendVerificationOnSignUp: z.boolean().default(false),
        overrideDefaultEmailVerification: z.boolean().default(false),
        changeEmail: z
          .strictObject({
            enabled: z.boolean().default(false),
            /**
             * A verified current address proves itself first (request-email-change's `otp`, an email-verification
             * code mailed to it), as core's /change-email asks the current address. On by default (Better Auth: off):
             * without it, a stolen session could move the account to another mailbox.
             */
            verifyCurrentEmail: z.boolean().default(true),
          })
          .prefault({}),
      })
      .prefault({}),
    /**
     * Second factors (two-factor/, README "Second factors"): TOTP, backup codes, an email code, trusted devices. On
     * by default; users opt in. Off: the routes answer 404 and nobody meets the second step.
     */
    twoFactor: z
      .strictObject({
        enabled: z.boolean().default(true),
        /** The name authenticator apps show beside the account (the otpauth:// URI's issuer). */
        issuer: z.string().min(1).max(128).default("Gatehouse"),
        totpOptions: z
          .strictObject({
            /** Digits of a code: 6 or 8. */
            digits: z.union([z.literal(6), z.literal(8)]).default(6),
            /** Seconds a code lasts (RFC 6238's time step). */
            period: z.number().int().min(15).max(120).default(30),
          })
          .prefault({}),
        otpOptions: z
          .strictObject({
            /** Life of a mailed code, in MINUTES (as Better Auth's option). */
            period: z.number().int().min(1).max(60).default(3),
            digits: z.number().int().min(6).max(10).default(6),
            /** Codes (of any kind) one pending second step may be answered with: the last wrong one ends it. */
            allowedAttempts: z.number().int().min(1).max(20).default(5),
          })
          .prefault({}),
        backupCodeOptions: z
          .strictObject({
            amount: z.number().int().min(1).max(50).default(10),
            /** Characters of a code (letters and digits), shown with a hyphen in the middle. */
            length: z.number().int().min(8).max(32).default(10),
          })
          .prefault({}),
        /** Life of the pending second step (its cookie and challenge), in seconds. */
        twoFactorCookieMaxAge: seconds(3600).min(60).default(300),
        /** Life of a trusted device's cookie, in seconds (renewed at each use). */
        trustDeviceMaxAge: seconds(MAX_COOKIE_AGE).min(60).default(2_592_000),
        /** Wrong codes for one user, across challenges, before their second step locks (follows rateLimit.enabled). */
        accountLockout: z
          .strictObject({
            enabled: z.boolean().default(true),
            maxFailedAttempts: z.number().int().min(1).max(1000).default(10),
            durationSeconds: seconds().min(1).default(900),
          })
          .prefault({}),
      })
      .prefault({}),
    /** Social sign-in: one entry per provider, and `oidc` for generic OpenID Connect providers (social-options.ts). */
    socialProviders: socialProvidersSchema,
    /** Linked accounts: linking rules and token encryption (social-options.ts). */
    account: accountOptionsSchema,
    email: z
      .strictObject({
        /** smtp://user:pass@host:587 or smtps://…; without it, development keeps mail in an outbox. */
        smtpUrl: z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional(),
        from: z.string().min(3).default("Gatehouse <no-reply@localhost>"),
        /** Where links in mail lead: the web app's origin (defaults to baseURL). */
        appURL: z.string().url().optional(),
      })
      .prefault({}),
    /**
     * New-device mail (server/src/new-device/, README "New-device mail"): a sign-in from a browser the user has not
     * signed in from before mails them when, which browser and system, and the IP. Unset: on when the service has a
     * mail server (SMTP_URL, or a mailer given to createGatehouse), off with the development outbox; true also mails
     * to the outbox.
     */
    newDeviceEmail: z
      .strictObject({
        enabled: z.boolean().optional(),
      })
      .prefault({}),
    organization: z
      .strictObject({
        allowUserToCreateOrganization: organizationCreationRule.default(true),
        /** How many organizations one user may belong to and still create another; unset: no limit. */
        organizationLimit: z.number().int().min(1).optional(),
        /** The role the creator of an organization gets; "only owner" rules protect holders of this role. */
        creatorRole: organizationRole.default("owner"),
        /** Members an organization may have: accepting an invitation or adding a member fails at this count. */
        membershipLimit: z.number().int().min(1).max(100_000).default(100),
        /** Pending invitations an organization may have at once. */
        invitationLimit: z.number().int().min(1).max(100_000).default(100),
        /** Life of an invitation, in seconds (SPEC.md section 9: two days). */
        invitationExpiresIn: seconds().min(60).default(172_800),
        /** Inviting an address again cancels its pending invitation instead of refusing. */
        cancelPendingInvitationsOnReInvite: z.boolean().default(false),
        /** Only a verified email may view, accept or reject the invitations sent to it. */
        requireEmailVerificationOnInvitation: z.boolean().default(true),
        /** Refuse POST /organization/delete (404). */
        disableOrganizationDeletion: z.boolean().default(false),
        teams: z
          .strictObject({
            enabled: z.boolean().default(true),
            /** A team named after the organization is created with it (and holds its creator). */
            defaultTeam: z.strictObject({ enabled: z.boolean().default(true) }).prefault({}),
            /** Teams one organization may have; unset: no limit. */
            maximumTeams: z.number().int().min(1).optional(),
            /** Members one team may have; unset: no limit. */
            maximumMembersPerTeam: z.number().int().min(1).optional(),
            /** Allow removing an organization's last team. */
            allowRemovingAllTeams: z.boolean().default(false),
          })
          .prefault({}),
      })
      .prefault({}),
    /** Signed webhooks of the security events (server/src/webhooks/, README "Webhooks"; webhook-options.ts). */
    webhooks: webhookOptionsSchema,
    /** The OpenID Provider (server/src/oidc-provider/, README "OpenID Provider"; oidc-provider-options.ts). */
    oidcProvider: oidcProviderOptionsSchema,
    /**
     * Passkeys (server/src/passkey/, README.md "Passkeys"): WebAuthn registration and sign-in. On by default; users
     * opt in by registering one. The relying party id and the origins a ceremony may come from are configuration
     * only, never taken from a request.
     */
    passkey: z
      .strictObject({
        enabled: z.boolean().default(true),
        /** The service's name, as authenticators show it beside the passkey. */
        rpName: z.string().min(1).max(128).default("Gatehouse"),
        /** The relying party id: BASE_URL's hostname or a parent domain of it. Unset: BASE_URL's hostname. */
        rpID: z
          .string()
          .max(253)
          .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, "must be a lower-case domain name")
          .optional(),
        /**
         * The origins a passkey may be registered or used from: an origin or a list, exact or a pattern as in
         * trustedOrigins. Unset: BASE_URL's origin and trustedOrigins.
         */
        origin: z
          .union([passkeyOrigin, z.array(passkeyOrigin).min(1)])
          .transform((v) => (Array.isArray(v) ? v : [v]))
          .optional(),
        /** WebAuthn's authenticatorSelection for registration. */
        authenticatorSelection: z
          .strictObject({
            authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
            /** "preferred": a discoverable passkey where the authenticator can keep one (sign-in without a name). */
            residentKey: z.enum(["discouraged", "preferred", "required"]).default("preferred"),
            /** "required" refuses an assertion without user verification; otherwise it is recorded (README, Passkeys). */
            userVerification: z.enum(["required", "preferred", "discouraged"]).default("preferred"),
          })
          .prefault({}),
      })
      .prefault({}),
    rateLimit: z
      .strictObject({
        /** Defaults to on, except under NODE_ENV=test (decided in resolveOptions). */
        enabled: z.boolean().optional(),
        window: seconds().min(1).default(10),
        max: z.number().int().min(1).default(100),
        /** Keyed by exact path ("/sign-in/email") or a prefix ending in "*" ("/sign-in/*"). */
        customRules: z.record(z.string().regex(/^\//), rateLimitRule).default({}),
        /** Limits per target account, whatever the client address (http/account-limits.ts). */
        account: z
          .strictObject({
            /** Wrong passwords for one account before each further check has to wait. */
            freeFailures: z.number().int().min(1).default(5),
            /** The first wait after them, in seconds; it doubles with each further wrong password. */
            delay: seconds().min(1).default(5),
            /** The longest wait, in seconds. */
            maxDelay: seconds().min(1).default(900),
            /** How long wrong passwords are remembered, in seconds from the first; a right one forgets them. */
            failureWindow: seconds().min(1).default(86_400),
            /** Mail the service sends one address (reset, verification, email change, deletion) per mailWindow. */
            mailPerAddress: z.number().int().min(1).default(5),
            mailWindow: seconds().min(1).default(3_600),
          })
          .prefault({}),
      })
      .prefault({}),
    advanced: z
      .strictObject({
        cookiePrefix: z
          .string()
          .regex(/^[A-Za-z0-9_.-]+$/)
          .default("better-auth"),
        useSecureCookies: z.boolean().optional(),
        disableOriginCheck: z.boolean().default(false),
        ipAddress: z
          .strictObject({
            /**
             * Headers that carry the client address, trusted only when the service runs behind a proxy
             * that sets them. Empty by default: the address is the socket's.
             */
            ipAddressHeaders: z.array(z.string().min(1)).default([]),
            disableIpTracking: z.boolean().default(false),
          })
          .prefault({}),
      })
      .prefault({}),
    password: z
      .strictObject({
        /** How many password hashes run at once; defaults to the number of cores. */
        concurrency: z.number().int().min(1).max(64).optional(),
        /** Worker-thread niceness for hashing, so sessions are served first under a sign-in storm. */
        workerNice: z.number().int().min(0).max(19).default(19),
      })
      .prefault({}),
    /**
     * Security events (server/src/events/, README "Security events"): every change of security state is written to
     * the audit log in the transaction that makes it. Off: nothing is written and the log's routes answer 404.
     */
    events: z
      .strictObject({
        enabled: z.boolean().default(true),
        /** Days an event is kept; older ones are pruned hourly in the background. 0 keeps them for ever. */
        retentionDays: z.number().int().min(0).max(36_500).default(90),
      })
      .prefault({}),
    logger: z
      .strictObject({
        level: z.enum(["debug", "info", "success", "warn", "error", "silent"]).default("info"),
      })
      .prefault({}),
    /**
     * Prometheus metrics at `GET /metrics` (server/src/metrics/, README "Metrics"). Off by default. On, it needs a
     * guard: a bearer token, a port of its own, or both (start-up refuses neither).
     */
    metrics: z
      .strictObject({
        enabled: z.boolean().default(false),
        /** Scrapes must send `Authorization: Bearer <token>`; compared in constant time. */
        token: z.string().min(16, "must be at least 16 characters").max(512).optional(),
        /** Serve /metrics on this port only (and nothing else there); the main port then answers it 404. */
        port: z.number().int().min(0).max(65535).optional(),
        /** The address that port listens on. */
        host: z.string().min(1).max(255).default("0.0.0.0"),
      })
      .prefault({})
      .refine((m) => !m.enabled || m.token !== undefined || m.port !== undefined, {
        message: "metrics.enabled needs metrics.token (METRICS_TOKEN) or metrics.port (METRICS_PORT)",
      }),
  });

export type GatehouseOptions = z.input<typeof optionsSchema>;
export type ParsedOptions = z.output<typeof optionsSchema>;
export { MAX_COOKIE_AGE };
