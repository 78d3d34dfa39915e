import { sql, type ExpressionBuilder, type Kysely, type QueryResult, type Selectable } from "kysely";
import type { Dialect } from "../../storage/database.js";
import { insertRows, type ExtraRow } from "../../storage/extra-rows.js";
import { precompiled, type Param } from "../../storage/precompiled.js";
import type { User } from "../../storage/models.js";
import { dbBool, dbDate, toBool, toDate, toDateOrNull } from "../../storage/rows.js";
import { toUserFromJoined, USER_COLUMNS } from "../../storage/users.js";
import type {
  TwoFactorChallengeTable,
  TwoFactorDatabase as Database,
  TwoFactorTable,
  TwoFactorTrustedDeviceTable,
} from "../tables.js";

/** A user's second factors (one row per user): the TOTP secret still sealed, the lockout counters. */
export interface TwoFactorRecord {
  id: string;
  userId: string;
  /** Sealed ("" when the user has no authenticator). */
  secret: string;
  verified: boolean;
  failedVerificationCount: number;
  lockedUntil: Date | null;
  lastTotpStep: number | null;
  pendingAttempts: number;
  totpEnabledAt: Date | null;
  otpEnabledAt: Date | null;
  createdAt: Date | null;
  updatedAt: Date | null;
}

export type ChallengeKind = "sign-in" | "enrol-otp";

export interface TwoFactorChallenge {
  id: string;
  kind: ChallengeKind;
  userId: string;
  method: string | null;
  factors: string[];
  rememberMe: boolean;
  attempts: number;
  otpHash: string | null;
  otpExpiresAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
}

export interface TrustedDevice {
  id: string;
  userId: string;
  userAgent: string | null;
  expiresAt: Date;
  createdAt: Date;
  lastUsedAt: Date;
}

function toRecord(row: Selectable<TwoFactorTable>): TwoFactorRecord {
  return {
    id: row.id,
    userId: row.userId,
    secret: row.secret ?? "",
    // Better Auth's rows predate the column's use: a row without the flag is a confirmed one, as there.
    verified: row.verified === null || row.verified === undefined ? true : toBool(row.verified),
    failedVerificationCount: Number(row.failedVerificationCount ?? 0),
    lockedUntil: toDateOrNull(row.lockedUntil),
    lastTotpStep: row.lastTotpStep === null || row.lastTotpStep === undefined ? null : Number(row.lastTotpStep),
    pendingAttempts: Number(row.pendingAttempts ?? 0),
    totpEnabledAt: toDateOrNull(row.totpEnabledAt),
    otpEnabledAt: toDateOrNull(row.otpEnabledAt),
    createdAt: toDateOrNull(row.createdAt),
    updatedAt: toDateOrNull(row.updatedAt),
  };
}

function toChallenge(row: Selectable<TwoFactorChallengeTable>): TwoFactorChallenge {
  return {
    id: row.id,
    kind: row.kind === "enrol-otp" ? "enrol-otp" : "sign-in",
    userId: row.userId,
    method: row.method ?? null,
    factors: row.factors ? row.factors.split(",") : [],
    rememberMe: toBool(row.rememberMe),
    attempts: Number(row.attempts),
    otpHash: row.otpHash ?? null,
    otpExpiresAt: toDateOrNull(row.otpExpiresAt),
    expiresAt: toDate(row.expiresAt),
    createdAt: toDate(row.createdAt),
  };
}

function toTrustedDevice(row: Selectable<TwoFactorTrustedDeviceTable>): TrustedDevice {
  return {
    id: row.id,
    userId: row.userId,
    userAgent: row.userAgent ?? null,
    expiresAt: toDate(row.expiresAt),
    createdAt: toDate(row.createdAt),
    lastUsedAt: toDate(row.lastUsedAt),
  };
}

/** The twoFactorChallenge columns a TwoFactorChallenge is made of (named: the reads below answer no `*`). */
const CHALLENGE_COLUMNS = [
  "id",
  "kind",
  "userId",
  "method",
  "factors",
  "rememberMe",
  "attempts",
  "otpHash",
  "otpExpiresAt",
  "expiresAt",
  "createdAt",
] as const;

/** The twoFactor columns a TwoFactorRecord is made of, for a read that joins the row to the challenge and its user. */
const FACTOR_COLUMNS = [
  "id",
  "userId",
  "secret",
  "backupCodes",
  "verified",
  "failedVerificationCount",
  "lockedUntil",
  "lastTotpStep",
  "pendingAttempts",
  "totpEnabledAt",
  "otpEnabledAt",
  "createdAt",
  "updatedAt",
] as const;
/** The twoFactor row of a joined read (columns as `f_<column>`), null when the user has none. */
function factorFromJoined(row: Readonly<Record<string, unknown>>): TwoFactorRecord | null {
  if (row.f_id === null || row.f_id === undefined) return null;
  const fields: Record<string, unknown> = {};
  for (const column of FACTOR_COLUMNS) fields[column] = row[`f_${column}`];
  return toRecord(fields as Selectable<TwoFactorTable>);
}

/** A pending second step with what answering it needs: its user and their twoFactor row (null without one). */
export interface PendingSignIn {
  challenge: TwoFactorChallenge;
  user: User;
  factor: TwoFactorRecord | null;
}

/** What a TOTP code did to a pending sign-in (challengeStore.acceptTotpAndConsume). */
export type TotpOutcome = "consumed" | "step-spent" | "gone";

const coalesced = (column: "failedVerificationCount" | "pendingAttempts") => sql<number>`coalesce(${sql.ref(column)}, 0)`;

/** The factors themselves: the twoFactor row, and user.twoFactorEnabled that goes with it. */
function factorStore(db: Kysely<Database>) {
  return {
    async findFactor(userId: string): Promise<TwoFactorRecord | null> {
      const row = await db.selectFrom("twoFactor").selectAll().where("userId", "=", userId).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    /**
     * Starts (or restarts) a TOTP enrolment: a new sealed secret waiting for its first code. Call inside a
     * transaction holding the user's row lock (users.lockUser): the row is read, then written.
     */
    async startTotpEnrolment(id: string, userId: string, sealedSecret: string, now: Date): Promise<void> {
      const values = {
        secret: sealedSecret,
        verified: dbBool(false),
        pendingAttempts: 0,
        lastTotpStep: null,
        totpEnabledAt: null,
        updatedAt: dbDate(now),
      };
      const updated = await db.updateTable("twoFactor").set(values).where("userId", "=", userId).executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) return;
      await db
        .insertInto("twoFactor")
        .values({
          id,
          userId,
          backupCodes: "",
          failedVerificationCount: 0,
          lockedUntil: null,
          otpEnabledAt: null,
          createdAt: dbDate(now),
          ...values,
        })
        .execute();
    },

    /**
     * Counts one code against the waiting enrolment, before it is checked: answers the count, or null when there is
     * no enrolment waiting or it has had `max` codes already (so `max` guesses at most, however many run at once).
     */
    async reservePendingAttempt(userId: string, max: number): Promise<number | null> {
      const row = await db
        .updateTable("twoFactor")
        .set({ pendingAttempts: sql`${coalesced("pendingAttempts")} + 1` })
        .where("userId", "=", userId)
        .where("verified", "=", dbBool(false))
        .where("secret", "!=", "")
        .where(coalesced("pendingAttempts"), "<", max)
        .returning("pendingAttempts")
        .executeTakeFirst();
      return row ? Number(row.pendingAttempts) : null;
    },

    /** Confirms the waiting enrolment with the step of its first code (which is then spent). False when none waits. */
    async confirmTotp(userId: string, step: number, now: Date): Promise<boolean> {
      const result = await db
        .updateTable("twoFactor")
        .set({ verified: dbBool(true), lastTotpStep: step, pendingAttempts: 0, totpEnabledAt: dbDate(now), updatedAt: dbDate(now) })
        .where("userId", "=", userId)
        .where("verified", "=", dbBool(false))
        .where("secret", "!=", "")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Drops a waiting enrolment (too many wrong codes): the row goes unless it holds another factor. */
    async discardPendingTotp(userId: string, now: Date): Promise<void> {
      await db
        .deleteFrom("twoFactor")
        .where("userId", "=", userId)
        .where("verified", "=", dbBool(false))
        .where("otpEnabledAt", "is", null)
        .execute();
      await db
        .updateTable("twoFactor")
        .set({ secret: "", pendingAttempts: 0, updatedAt: dbDate(now) })
        .where("userId", "=", userId)
        .where("verified", "=", dbBool(false))
        .execute();
    },

    /**
     * Spends a TOTP time step: only a step later than the last one accepted is (one statement, so of two requests
     * with the same code, or a code replayed within its window, exactly one gets through). A right code also
     * forgets the user's wrong ones. False: the step was spent already.
     */
    async acceptTotpStep(userId: string, step: number, now: Date): Promise<boolean> {
      const result = await db
        .updateTable("twoFactor")
        .set({ lastTotpStep: step, failedVerificationCount: 0, lockedUntil: null, updatedAt: dbDate(now) })
        .where("userId", "=", userId)
        .where("verified", "=", dbBool(true))
        .where((eb) => eb.or([eb("lastTotpStep", "is", null), eb("lastTotpStep", "<", step)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * One more wrong code for the user (the account lockout): once they reach `max`, the second step locks until
     * `lockUntil` (and each further wrong code locks it again). Answers the count; null without a row.
     */
    async recordFailure(userId: string, max: number, lockUntil: Date): Promise<number | null> {
      const next = sql<number>`${coalesced("failedVerificationCount")} + 1`;
      const row = await db
        .updateTable("twoFactor")
        .set({
          failedVerificationCount: next,
          lockedUntil: sql`case when ${next} >= ${max} then ${dbDate(lockUntil)} else ${sql.ref("lockedUntil")} end`,
        })
        .where("userId", "=", userId)
        .returning("failedVerificationCount")
        .executeTakeFirst();
      return row ? Number(row.failedVerificationCount) : null;
    },

    async clearFailures(userId: string): Promise<void> {
      await db
        .updateTable("twoFactor")
        .set({ failedVerificationCount: 0, lockedUntil: null })
        .where("userId", "=", userId)
        .where((eb) => eb.or([eb(coalesced("failedVerificationCount"), ">", 0), eb("lockedUntil", "is not", null)]))
        .execute();
    },

    /** Makes the email code a factor (its mailbox proven). Call in a transaction holding the user's row lock. */
    async enableOtp(id: string, userId: string, now: Date): Promise<void> {
      const updated = await db
        .updateTable("twoFactor")
        .set({ otpEnabledAt: dbDate(now), updatedAt: dbDate(now) })
        .where("userId", "=", userId)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) return;
      await db
        .insertInto("twoFactor")
        .values({
          id,
          userId,
          secret: "",
          backupCodes: "",
          verified: dbBool(false),
          failedVerificationCount: 0,
          lockedUntil: null,
          lastTotpStep: null,
          pendingAttempts: 0,
          totpEnabledAt: null,
          otpEnabledAt: dbDate(now),
          createdAt: dbDate(now),
          updatedAt: dbDate(now),
        })
        .execute();
    },

    /** user.twoFactorEnabled (not a profile change: updatedAt stays). */
    async setTwoFactorEnabled(userId: string, enabled: boolean): Promise<void> {
      await db.updateTable("user").set({ twoFactorEnabled: dbBool(enabled) }).where("id", "=", userId).execute();
    },

    /** Every second factor of the user, their backup codes, pending steps and trusted devices; 2FA off. */
    async removeAllFactors(userId: string): Promise<void> {
      await db.deleteFrom("twoFactor").where("userId", "=", userId).execute();
      await db.deleteFrom("twoFactorBackupCode").where("userId", "=", userId).execute();
      await db.deleteFrom("twoFactorChallenge").where("userId", "=", userId).execute();
      await db.deleteFrom("twoFactorTrustedDevice").where("userId", "=", userId).execute();
      await db.updateTable("user").set({ twoFactorEnabled: dbBool(false) }).where("id", "=", userId).execute();
    },
  };
}

/** Backup codes, kept as HMACs: a code can be used (its row deleted), never read back. */
function backupCodeStore(db: Kysely<Database>) {
  return {
    /** Replaces every backup code of the user with these. Call in a transaction. */
    async replaceBackupCodes(userId: string, codes: readonly { id: string; codeHash: string }[], now: Date): Promise<void> {
      await db.deleteFrom("twoFactorBackupCode").where("userId", "=", userId).execute();
      if (codes.length === 0) return;
      await db
        .insertInto("twoFactorBackupCode")
        .values(codes.map((code) => ({ ...code, userId, createdAt: dbDate(now) })))
        .execute();
    },

    /** Uses a code: deletes its row in one statement, so of any number of concurrent uses exactly one succeeds. */
    async useBackupCode(userId: string, codeHash: string): Promise<boolean> {
      const rows = await db
        .deleteFrom("twoFactorBackupCode")
        .where("userId", "=", userId)
        .where("codeHash", "=", codeHash)
        .returning("id")
        .execute();
      return rows.length > 0;
    },

    async countBackupCodes(userId: string): Promise<number> {
      const row = await db
        .selectFrom("twoFactorBackupCode")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("userId", "=", userId)
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },
  };
}

const challengeRow = (challenge: TwoFactorChallenge) => ({
  ...challenge,
  factors: challenge.factors.length > 0 ? challenge.factors.join(",") : null,
  rememberMe: dbBool(challenge.rememberMe),
  otpExpiresAt: challenge.otpExpiresAt ? dbDate(challenge.otpExpiresAt) : null,
  expiresAt: dbDate(challenge.expiresAt),
  createdAt: dbDate(challenge.createdAt),
});
type ChallengeRow = ReturnType<typeof challengeRow>;

// The statements of a sign-in's second step, compiled once (storage/precompiled.ts).

/** The row of challengeRow, every value a placeholder. */
const challengeValues = (param: Param<ChallengeRow>) => ({
  id: param("id"),
  kind: param("kind"),
  userId: param("userId"),
  method: param("method"),
  factors: param("factors"),
  rememberMe: param("rememberMe"),
  attempts: param("attempts"),
  otpHash: param("otpHash"),
  otpExpiresAt: param("otpExpiresAt"),
  expiresAt: param("expiresAt"),
  createdAt: param("createdAt"),
});

// Named prepared statements on PostgreSQL (precompiled's `named`): each names the columns it answers.
const NAMED = { named: true };

const insertChallenge = precompiled(
  (db: Kysely<Database>, param: Param<ChallengeRow>) => db.insertInto("twoFactorChallenge").values(challengeValues(param)),
  NAMED,
);

const readFactor = precompiled(
  (db: Kysely<Database>, param: Param<{ userId: string }>) =>
    db.selectFrom("twoFactor").select(FACTOR_COLUMNS).where("userId", "=", param("userId")),
  NAMED,
);

/** PostgreSQL: the challenge stored (in a WITH) and the user's twoFactor row read, in one statement. */
const insertChallengeReadFactor = precompiled(
  (db: Kysely<Database>, param: Param<ChallengeRow>) =>
    db
      .with("stored", (conn) => conn.insertInto("twoFactorChallenge").values(challengeValues(param)).returning("id"))
      .selectFrom("twoFactor")
      .select(FACTOR_COLUMNS)
      .where("userId", "=", param("userId")),
  NAMED,
);

const readPendingSignIn = precompiled(
  (db: Kysely<Database>, param: Param<{ id: string; now: string }>) =>
    db
      .selectFrom("twoFactorChallenge as c")
      .innerJoin("user as u", "u.id", "c.userId")
      .leftJoin("twoFactor as f", "f.userId", "c.userId")
      .select(CHALLENGE_COLUMNS.map((column) => `c.${column}` as const))
      .select(USER_COLUMNS.map((column) => `u.${column} as u_${column}` as const))
      .select(FACTOR_COLUMNS.map((column) => `f.${column} as f_${column}` as const))
      .where("c.id", "=", param("id"))
      .where("c.kind", "=", "sign-in")
      .where("c.expiresAt", ">", param("now")),
  NAMED,
);

const reserveChallengeAttempt = precompiled(
  (db: Kysely<Database>, param: Param<{ id: string; now: string; max: number }>) =>
    db
      .updateTable("twoFactorChallenge")
      .set({ attempts: sql`${sql.ref("attempts")} + 1` })
      .where("id", "=", param("id"))
      .where("expiresAt", ">", param("now"))
      .where("attempts", "<", param("max"))
      .returning("attempts"),
  NAMED,
);

type ReserveValues = { id: string; now: string; max: number; lockout: number };

/**
 * The conditions under which a TOTP code may be counted against a pending sign-in (second-step.ts checks the same
 * ones one by one): the user has a confirmed authenticator and, with the lockout on (`lockout` 1), is not locked.
 */
const totpAnswerable = (param: Param<ReserveValues>) => (eb: ExpressionBuilder<any, any>) =>
  eb.and([
    eb("f.verified", "=", dbBool(true)),
    eb("f.secret", "!=", ""),
    eb.or([eb(eb.val(param("lockout")), "=", 0), eb("f.lockedUntil", "is", null), eb("f.lockedUntil", "<=", param("now"))]),
  ]);

/**
 * PostgreSQL: counts a code against a pending sign-in whose user may answer it with TOTP now, and answers the
 * challenge, its user and their twoFactor row, in one statement.
 */
const reserveTotpAttemptReadAll = precompiled((db: Kysely<Database>, param: Param<ReserveValues>) =>
  db
    .updateTable("twoFactorChallenge as c")
    .from(["user as u", "twoFactor as f"])
    .set({ attempts: sql`${sql.ref("c.attempts")} + 1` })
    .where("c.id", "=", param("id"))
    .where("c.kind", "=", "sign-in")
    .where("c.expiresAt", ">", param("now"))
    .where("c.attempts", "<", param("max"))
    .whereRef("u.id", "=", "c.userId")
    .whereRef("f.userId", "=", "c.userId")
    .where(totpAnswerable(param))
    .returning(CHALLENGE_COLUMNS.map((column) => `c.${column}` as const))
    .returning(USER_COLUMNS.map((column) => `u.${column} as u_${column}` as const))
    .returning(FACTOR_COLUMNS.map((column) => `f.${column} as f_${column}` as const)),
  NAMED,
);

/** SQLite (whose RETURNING names the updated table only): the same count and conditions, the challenge answered. */
const reserveTotpAttempt = precompiled((db: Kysely<Database>, param: Param<ReserveValues>) =>
  db
    .updateTable("twoFactorChallenge")
    .set({ attempts: sql`${sql.ref("attempts")} + 1` })
    .where("id", "=", param("id"))
    .where("kind", "=", "sign-in")
    .where("expiresAt", ">", param("now"))
    .where("attempts", "<", param("max"))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("twoFactor as f")
          .innerJoin("user as u", "u.id", "f.userId")
          .select("f.id")
          .whereRef("f.userId", "=", "twoFactorChallenge.userId")
          .where(totpAnswerable(param)),
      ),
    )
    .returning("attempts"),
);

type StepValues = { userId: string; step: number; now: string };

/** Spends a TOTP step: only a later one than the last accepted; a right code forgets the wrong ones. */
const acceptStep = precompiled((db: Kysely<Database>, param: Param<StepValues>) =>
  db
    .updateTable("twoFactor")
    .set({ lastTotpStep: param("step"), failedVerificationCount: 0, lockedUntil: null, updatedAt: param("now") })
    .where("userId", "=", param("userId"))
    .where("verified", "=", dbBool(true))
    .where((eb) => eb.or([eb("lastTotpStep", "is", null), eb("lastTotpStep", "<", param("step"))])),
);

const deleteLiveChallenge = precompiled((db: Kysely<Database>, param: Param<{ id: string; now: string }>) =>
  db.deleteFrom("twoFactorChallenge").where("id", "=", param("id")).where("expiresAt", ">", param("now")),
);

/** The tables and columns of rows inserted with a statement (their values vary, these do not). */
interface RowShape {
  table: string;
  columns: readonly string[];
}

type Values = Record<string, unknown>;
type Run<R> = (db: Kysely<Database>, dialect: Dialect, values: Values) => Promise<QueryResult<R>>;

/**
 * A statement that also inserts rows given at each call (the session a second step opens and its sign-in event:
 * session/sign-in.ts's `store`), built and compiled once per shape of those rows (a sign-in writes one of very few:
 * events on or off), then run with the rows' values as parameters `r<i>_<column>`.
 */
function withRows<R>(build: (shape: readonly RowShape[]) => Run<R>) {
  // The shapes met so far (a sign-in writes one of very few), with each row's parameter names.
  const known: { shape: readonly RowShape[]; names: readonly (readonly string[])[]; run: Run<R> }[] = [];
  const sameShape = (shape: readonly RowShape[], rows: readonly ExtraRow[], columns: readonly string[][]) =>
    shape.length === rows.length &&
    shape.every(
      (row, i) =>
        row.table === rows[i]!.table &&
        row.columns.length === columns[i]!.length &&
        row.columns.every((column, j) => column === columns[i]![j]),
    );
  return (db: Kysely<Database>, dialect: Dialect, values: Values, rows: readonly ExtraRow[]): Promise<QueryResult<R>> => {
    const columns = rows.map((row) => Object.keys(row.values));
    let statement = known.find((entry) => sameShape(entry.shape, rows, columns));
    if (!statement) {
      const shape = rows.map((row, i) => ({ table: row.table, columns: columns[i]! }));
      statement = { shape, names: shape.map((row, i) => row.columns.map((column) => `r${i}_${column}`)), run: build(shape) };
      if (known.length >= 16) known.length = 0;
      known.push(statement);
    }
    const all: Values = { ...values };
    for (let i = 0; i < rows.length; i++) {
      const names = statement.names[i]!;
      const row = rows[i]!.values;
      for (let j = 0; j < names.length; j++) all[names[j]!] = row[columns[i]![j]!];
    }
    return statement.run(db, dialect, all);
  };
}

/** The rows of `shape` as WITH clauses of a statement, each inserted only when the clause `when` answered a row. */
const insertsWhen = (shape: readonly RowShape[], when: string, param: Param<Values>) =>
  sql.join(
    shape.map(
      ({ table, columns }, i) => sql`, ${sql.id(`r${i}`)} as (
        insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.id(column)))})
        select ${sql.join(columns.map((column) => param(`r${i}_${column}`)))}
        where exists (select 1 from ${sql.id(when)})
      )`,
    ),
    sql``,
  );

/**
 * The step spent and the challenge ended, as WITH clauses `accepted` and `consumed` after a clause `live` that
 * holds the challenge's row locked (after the user's twoFactor row: the order of every transaction that writes
 * both): only a later step than the last accepted is spent (which forgets the user's wrong codes), and the
 * challenge is deleted only if it was.
 */
const acceptAndConsume = (param: Param<Values>) => sql`
  accepted as (
    update "twoFactor"
    set "lastTotpStep" = ${param("step")}, "failedVerificationCount" = 0, "lockedUntil" = null, "updatedAt" = ${param("now")}
    where "userId" = ${param("userId")} and "verified" = ${dbBool(true)}
      and ("lastTotpStep" is null or "lastTotpStep" < ${param("step")})
      and exists (select 1 from live)
    returning "userId"
  ), consumed as (
    delete from "twoFactorChallenge"
    where "id" in (select "id" from live) and exists (select 1 from accepted)
    returning "id"
  )`;

/**
 * PostgreSQL, one statement: the user's twoFactor row locked, then the challenge's, the step spent, the challenge
 * deleted only if it was, and the rows inserted only if it was.
 */
const acceptStepConsumeChallenge = withRows((shape) =>
  precompiled((db: Kysely<Database>, param: Param<Values>) => ({
    compile: () =>
      sql<{ live: number | string; consumed: number | string }>`
        with factor as (
          select "userId" from "twoFactor" where "userId" = ${param("userId")} for update
        ), live as (
          select "id" from "twoFactorChallenge"
          where "id" = ${param("id")} and "expiresAt" > ${param("now")} and exists (select 1 from factor)
          for update
        ), ${acceptAndConsume(param)}${insertsWhen(shape, "consumed", param)}
        select (select count(*) from live) as live, (select count(*) from consumed) as consumed
      `.compile(db),
    }),
    NAMED,
  ),
);

type AnswerValues = ReserveValues & { userId: string; sealed: string; step: number };

/**
 * PostgreSQL, one statement (challengeStore.answerTotp): when the pending sign-in may be answered with TOTP now by
 * the secret the caller checked the code with (its twoFactor row locked, holding that sealed secret, confirmed, not
 * locked with `lockout`; the challenge's row locked, the user's, live, with attempts left; the user not banned),
 * either the step is spent, the challenge ended and the rows inserted, or (the step spent already) the code counted
 * as an attempt. Answers whether it was consumed, the count, and the user's row when it was consumed.
 */
const answerTotpStatement = withRows((shape) =>
  precompiled((db: Kysely<Database>, param: Param<Values>) => ({
    compile: () =>
      sql<Record<string, unknown> & { consumed: number | string; attempts: number | null }>`
        with factor as (
          select "userId" from "twoFactor"
          where "userId" = ${param("userId")} and "verified" = ${dbBool(true)} and "secret" = ${param("sealed")}
            and (${param("lockout")}::int = 0 or "lockedUntil" is null or "lockedUntil" <= ${param("now")})
          for update
        ), live as (
          select "id" from "twoFactorChallenge"
          where "id" = ${param("id")} and "kind" = 'sign-in' and "userId" = ${param("userId")}
            and "expiresAt" > ${param("now")} and "attempts" < ${param("max")}
            and exists (select 1 from factor)
            and exists (select 1 from "user" where "id" = ${param("userId")} and "banned" is not true)
          for update
        ), ${acceptAndConsume(param)}, counted as (
          update "twoFactorChallenge" set "attempts" = "attempts" + 1
          where "id" in (select "id" from live) and not exists (select 1 from accepted)
          returning "attempts"
        )${insertsWhen(shape, "consumed", param)}
        select (select count(*) from consumed) as consumed, (select "attempts" from counted) as attempts,
          ${sql.join(USER_COLUMNS.map((column) => sql`u.${sql.id(column)} as ${sql.id(`u_${column}`)}`))}
        from (select 1) as one left join "user" as u on u."id" = ${param("userId")} and exists (select 1 from consumed)
      `.compile(db),
    }),
    NAMED,
  ),
);

/** SQLite (answerTotp in a transaction): the user of a pending sign-in answerable as answerTotpStatement requires. */
const readAnswerable = precompiled((db: Kysely<Database>, param: Param<AnswerValues>) =>
  db
    .selectFrom("twoFactorChallenge as c")
    .innerJoin("user as u", "u.id", "c.userId")
    .innerJoin("twoFactor as f", "f.userId", "c.userId")
    .select(USER_COLUMNS.map((column) => `u.${column} as u_${column}` as const))
    .where("c.id", "=", param("id"))
    .where("c.kind", "=", "sign-in")
    .where("c.userId", "=", param("userId"))
    .where("c.expiresAt", ">", param("now"))
    .where("c.attempts", "<", param("max"))
    .where("f.secret", "=", param("sealed"))
    .where(totpAnswerable(param))
    .where((eb) => eb.or([eb("u.banned", "is", null), eb("u.banned", "=", dbBool(false))])),
);

/** What a TOTP code did to a pending sign-in this process knows (challengeStore.answerTotp). */
export type TotpAnswer = { outcome: "consumed"; user: User } | { outcome: "counted"; attempts: number };

/** Thrown inside acceptTotpAndConsume's SQLite transaction to roll the accepted step back. */
class ChallengeGone extends Error {}

/** Pending second steps and email-code enrolments. */
function challengeStore(db: Kysely<Database>, dialect: Dialect) {
  return {
    async createChallenge(challenge: TwoFactorChallenge): Promise<void> {
      await insertChallenge(db, dialect, challengeRow(challenge));
    },

    /**
     * A pending sign-in's challenge, stored, and the user's twoFactor row (which says what the step may be answered
     * with): one statement on PostgreSQL, two on SQLite.
     */
    async createSignInChallenge(challenge: TwoFactorChallenge): Promise<TwoFactorRecord | null> {
      const values = challengeRow(challenge);
      if (dialect === "postgres") {
        const { rows } = await insertChallengeReadFactor(db, dialect, values);
        return rows[0] ? toRecord(rows[0]) : null;
      }
      await insertChallenge(db, dialect, values);
      const { rows } = await readFactor(db, dialect, { userId: challenge.userId });
      return rows[0] ? toRecord(rows[0]) : null;
    },

    /**
     * The pending sign-in a cookie's token names (its id), while it lasts, with its user and their twoFactor row,
     * in one read. Null when there is none (or it is an enrolment's), or its user is gone.
     */
    async findPendingSignIn(id: string, now: Date): Promise<PendingSignIn | null> {
      const { rows } = await readPendingSignIn(db, dialect, { id, now: dbDate(now) });
      const row = rows[0];
      if (!row) return null;
      return { challenge: toChallenge(row), user: toUserFromJoined(row), factor: factorFromJoined(row) };
    },

    /**
     * Counts a TOTP code against the pending sign-in `id` names when its user may answer it with TOTP now (a
     * confirmed authenticator; not locked, with `lockout`), before the code is checked: answers the challenge (its
     * attempts counting this one), the user and their twoFactor row. Null when any of that does not hold: the caller
     * then finds out which (second-step.ts), as nothing was counted. One statement on PostgreSQL, two on SQLite.
     */
    async reserveTotpAttempt(
      id: string,
      { max, now, lockout }: { max: number; now: Date; lockout: boolean },
    ): Promise<PendingSignIn | null> {
      const values = { id, max, now: dbDate(now), lockout: lockout ? 1 : 0 };
      if (dialect === "postgres") {
        const row = (await reserveTotpAttemptReadAll(db, dialect, values)).rows[0];
        if (!row) return null;
        return { challenge: toChallenge(row), user: toUserFromJoined(row), factor: factorFromJoined(row) };
      }
      const reserved = (await reserveTotpAttempt(db, dialect, values)).rows[0];
      if (!reserved) return null;
      const { rows } = await readPendingSignIn(db, dialect, { id, now: values.now });
      if (!rows[0]) return null;
      const pending = { challenge: toChallenge(rows[0]), user: toUserFromJoined(rows[0]), factor: factorFromJoined(rows[0]) };
      return { ...pending, challenge: { ...pending.challenge, attempts: Number(reserved.attempts) } };
    },

    /**
     * A TOTP code's time step against a pending sign-in: the step spent (only a later step than the last one
     * accepted is, which forgets the user's wrong codes), the challenge ended and the `rows` written (the session
     * the step opens, with its event: session/sign-in.ts's `store`), all or nothing. "step-spent": the step was spent
     * already (nothing changed); "gone": the challenge is over or used (nothing changed). One statement on
     * PostgreSQL; on SQLite the writes in a transaction, rolled back when the challenge is gone.
     */
    async acceptTotpAndConsume(
      id: string,
      userId: string,
      step: number,
      now: Date,
      rows: readonly ExtraRow[] = [],
    ): Promise<TotpOutcome> {
      const values = { id, userId, step, now: dbDate(now) };
      if (dialect === "postgres") {
        const counts = (await acceptStepConsumeChallenge(db, dialect, values, rows)).rows[0]!;
        if (Number(counts.consumed) === 1) return "consumed";
        return Number(counts.live) === 1 ? "step-spent" : "gone";
      }
      const run = async (trx: Kysely<Database>): Promise<TotpOutcome> => {
        if (Number((await acceptStep(trx, dialect, values)).numAffectedRows) !== 1) return "step-spent";
        if (Number((await deleteLiveChallenge(trx, dialect, values)).numAffectedRows) !== 1) throw new ChallengeGone();
        await insertRows(trx, rows);
        return "consumed";
      };
      try {
        return db.isTransaction ? await run(db) : await db.transaction().execute(run);
      } catch (error) {
        if (error instanceof ChallengeGone) return "gone";
        throw error;
      }
    },

    /**
     * Answers the pending sign-in `id` names with the step of a TOTP code the caller checked against `sealedSecret`
     * (known-sign-ins.ts), when all of this holds: the challenge is the user's, live, with attempts left; their
     * twoFactor row still holds that secret, confirmed, and (with `lockout`) is not locked; the user is not banned.
     * Then either the step is spent (only a later one than the last accepted), the challenge ended and `rows`
     * written (the session and its event), all or nothing: "consumed", with the user as read then; or, the step
     * being spent already, the code is counted as an attempt: "counted", with the count. Null when any condition
     * does not hold: nothing changed, and the caller takes the full path (which finds out why). One statement on
     * PostgreSQL; on SQLite a transaction.
     */
    async answerTotp(
      answer: { id: string; userId: string; sealedSecret: string; step: number; now: Date; max: number; lockout: boolean },
      rows: readonly ExtraRow[],
    ): Promise<TotpAnswer | null> {
      const values: AnswerValues = {
        id: answer.id,
        userId: answer.userId,
        sealed: answer.sealedSecret,
        step: answer.step,
        now: dbDate(answer.now),
        max: answer.max,
        lockout: answer.lockout ? 1 : 0,
      };
      if (dialect === "postgres") {
        const row = (await answerTotpStatement(db, dialect, values, rows)).rows[0]!;
        if (Number(row.consumed) === 1) return { outcome: "consumed", user: toUserFromJoined(row) };
        return row.attempts === null ? null : { outcome: "counted", attempts: Number(row.attempts) };
      }
      const run = async (trx: Kysely<Database>): Promise<TotpAnswer | null> => {
        const found = (await readAnswerable(trx, dialect, values)).rows[0];
        if (!found) return null;
        if (Number((await acceptStep(trx, dialect, values)).numAffectedRows) !== 1) {
          const counted = (await reserveChallengeAttempt(trx, dialect, values)).rows[0];
          return counted ? { outcome: "counted", attempts: Number(counted.attempts) } : null;
        }
        if (Number((await deleteLiveChallenge(trx, dialect, values)).numAffectedRows) !== 1) throw new ChallengeGone();
        await insertRows(trx, rows);
        return { outcome: "consumed", user: toUserFromJoined(found) };
      };
      try {
        return db.isTransaction ? await run(db) : await db.transaction().execute(run);
      } catch (error) {
        if (error instanceof ChallengeGone) return null;
        throw error;
      }
    },

    /** The challenge, while it lasts. */
    async findChallenge(id: string, now: Date): Promise<TwoFactorChallenge | null> {
      const row = await db
        .selectFrom("twoFactorChallenge")
        .selectAll()
        .where("id", "=", id)
        .where("expiresAt", ">", dbDate(now))
        .executeTakeFirst();
      return row ? toChallenge(row) : null;
    },

    /**
     * Counts one code against the challenge before it is checked: answers the count, or null when the challenge is
     * gone, over, or has had `max` codes already. One statement: `max` codes at most, however many run at once.
     */
    async reserveAttempt(id: string, max: number, now: Date): Promise<number | null> {
      const row = (await reserveChallengeAttempt(db, dialect, { id, max, now: dbDate(now) })).rows[0];
      return row ? Number(row.attempts) : null;
    },

    /**
     * Ends the challenge and answers it, in one statement: of concurrent right answers exactly one gets it. With
     * `otpHash`, only while that is still its mailed code (a code sent since replaces it).
     */
    async consumeChallenge(id: string, now: Date, otpHash?: string): Promise<TwoFactorChallenge | null> {
      let query = db.deleteFrom("twoFactorChallenge").where("id", "=", id);
      if (otpHash !== undefined) query = query.where("otpHash", "=", otpHash);
      const rows = await query.returningAll().execute();
      const live = rows.map(toChallenge).filter((c) => c.expiresAt > now);
      return live[0] ?? null;
    },

    async deleteChallenge(id: string): Promise<void> {
      await db.deleteFrom("twoFactorChallenge").where("id", "=", id).execute();
    },

    /**
     * A new mailed code for the challenge (the previous one stops counting); false when the challenge is over. An
     * enrolment lives at least as long as its latest code (`extend`); a pending sign-in's life never grows.
     */
    async setOtp(id: string, otpHash: string, otpExpiresAt: Date, now: Date, extend = false): Promise<boolean> {
      const until = dbDate(otpExpiresAt);
      const result = await db
        .updateTable("twoFactorChallenge")
        .set({
          otpHash,
          otpExpiresAt: until,
          ...(extend
            ? { expiresAt: sql`case when ${sql.ref("expiresAt")} < ${until} then ${until} else ${sql.ref("expiresAt")} end` }
            : {}),
        })
        .where("id", "=", id)
        .where("expiresAt", ">", dbDate(now))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The user's pending second steps (a password change or "sign out everywhere" ends them). */
    async deleteUserChallenges(userId: string): Promise<void> {
      await db.deleteFrom("twoFactorChallenge").where("userId", "=", userId).execute();
    },

    /** Every challenge that is over, whoever's (the module's periodic sweep: policy.ts). */
    async deleteExpiredChallenges(now: Date): Promise<number> {
      const result = await db.deleteFrom("twoFactorChallenge").where("expiresAt", "<=", dbDate(now)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** Trusted devices: a row per browser, its token kept as a hash and replaced at each use. */
function trustedDeviceStore(db: Kysely<Database>) {
  return {
    async createTrustedDevice(device: TrustedDevice & { tokenHash: string }): Promise<void> {
      await db
        .insertInto("twoFactorTrustedDevice")
        .values({
          ...device,
          expiresAt: dbDate(device.expiresAt),
          createdAt: dbDate(device.createdAt),
          lastUsedAt: dbDate(device.lastUsedAt),
        })
        .execute();
    },

    /**
     * Uses a trusted device: while it lasts and its token is the one presented, the token is replaced and its life
     * renewed, in one statement (a stolen cookie used once stops working for the browser it was taken from, and
     * the other way round). False when it does not hold.
     */
    async rotateTrustedDevice(
      id: string,
      userId: string,
      tokenHash: string,
      next: { tokenHash: string; expiresAt: Date },
      now: Date,
    ): Promise<boolean> {
      const result = await db
        .updateTable("twoFactorTrustedDevice")
        .set({ tokenHash: next.tokenHash, expiresAt: dbDate(next.expiresAt), lastUsedAt: dbDate(now) })
        .where("id", "=", id)
        .where("userId", "=", userId)
        .where("tokenHash", "=", tokenHash)
        .where("expiresAt", ">", dbDate(now))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async listTrustedDevices(userId: string, now: Date): Promise<TrustedDevice[]> {
      const rows = await db
        .selectFrom("twoFactorTrustedDevice")
        .selectAll()
        .where("userId", "=", userId)
        .where("expiresAt", ">", dbDate(now))
        .orderBy("lastUsedAt", "desc")
        .execute();
      return rows.map(toTrustedDevice);
    },

    async deleteTrustedDevice(userId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("twoFactorTrustedDevice")
        .where("id", "=", id)
        .where("userId", "=", userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async deleteUserTrustedDevices(userId: string): Promise<number> {
      const result = await db.deleteFrom("twoFactorTrustedDevice").where("userId", "=", userId).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteExpiredTrustedDevices(userId: string, now: Date): Promise<void> {
      await db
        .deleteFrom("twoFactorTrustedDevice")
        .where("userId", "=", userId)
        .where("expiresAt", "<=", dbDate(now))
        .execute();
    },
  };
}

/** The two-factor module's repositories over one connection (or one transaction). */
export function twoFactorRepositories(db: Kysely<Database>, dialect: Dialect) {
  return {
    twoFactors: factorStore(db),
    twoFactorBackupCodes: backupCodeStore(db),
    twoFactorChallenges: challengeStore(db, dialect),
    trustedDevices: trustedDeviceStore(db),
  };
}

export type TwoFactorRepositories = ReturnType<typeof twoFactorRepositories>;
