import { appendFileSync, createReadStream, statSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import type { FirebaseHashConfig } from "../credentials/hash-formats.js";
import type { Runtime } from "../runtime.js";
import { isUniqueViolation } from "../storage/constraint-errors.js";
import { isUnavailableError } from "../storage/database.js";
import type { ImportedUser } from "../storage/imported-users.js";
import type { CoreStores as Stores } from "../storage/index.js";
import { parseImportLine } from "./import-line.js";
import { progressBar, type ImportCounts } from "./progress.js";

export interface ImportSettings {
  file: string;
  dryRun: boolean;
  /** Users per transaction. */
  batchSize: number;
  /** JSON Lines file of the lines not imported (rejected and skipped), instead of stderr lines for the rejected. */
  report?: string | undefined;
  firebase?: FirebaseHashConfig | undefined;
}

export interface ImportOutput {
  /** The progress bar (only drawn when it is a terminal) and the summary. */
  out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** One line per rejected line, when there is no report file. */
  err: NodeJS.WritableStream;
}

export interface ImportSummary extends ImportCounts {
  seconds: number;
  /** Users written (or, in a dry run, that would be) per second. */
  usersPerSecond: number;
}

interface Entry {
  line: number;
  record: ImportedUser;
  email: string;
  username: string | null;
  providerKeys: string[];
}

type Outcome = { line: number; status: "rejected" | "skipped"; reason: string };

/**
 * `gatehouse import FILE`: reads users as JSON Lines and writes them in batches, each batch in one transaction
 * (a batch that fails is written again one user per transaction, so that one bad user cannot take the others down
 * and no user is ever half written). A line that does not parse or check is rejected with its number and reason;
 * a user whose email or username is already there (in the database, or on an earlier line) is skipped, so a second
 * run of the same file writes nothing. A dry run does every check and lookup and writes nothing.
 */
export async function importUsers(runtime: Runtime, settings: ImportSettings, output: ImportOutput): Promise<ImportSummary> {
  const startedAt = Date.now();
  const now = runtime.now();
  const counts: ImportCounts = { lines: 0, imported: 0, skipped: 0, rejected: 0 };
  const bar = progressBar(output.out, statSync(settings.file).size, startedAt);
  if (settings.report) writeFileSync(settings.report, "");

  // Every email, username and provider identity taken by a line written (or skipped) so far: a later line with the
  // same one is skipped (or, for a provider identity, rejected) like one already in the database.
  const seenEmails = new Set<string>();
  const seenUsernames = new Set<string>();
  const seenProviders = new Set<string>();

  let reportBuffer: string[] = [];
  const flushReport = () => {
    if (settings.report && reportBuffer.length) appendFileSync(settings.report, reportBuffer.join(""));
    reportBuffer = [];
  };
  const record = (outcome: Outcome) => {
    counts[outcome.status]++;
    if (settings.report) {
      reportBuffer.push(JSON.stringify(outcome) + "\n");
    } else if (outcome.status === "rejected") {
      bar.clear();
      output.err.write(`line ${outcome.line}: rejected: ${outcome.reason}\n`);
    }
  };

  /** Sorts a batch into users to write and lines skipped or rejected, against what the database already holds. */
  const classify = async (stores: Stores, entries: Entry[]) => {
    const taken = await stores.imports.findTakenIdentities({
      emails: entries.map((e) => e.email),
      usernames: entries.flatMap((e) => (e.username ? [e.username] : [])),
      providerAccounts: entries.flatMap((e) =>
        e.record.accounts.filter((a) => a.providerId !== "credential").map((a) => ({ providerId: a.providerId, accountId: a.accountId })),
      ),
    });
    const toWrite: Entry[] = [];
    const outcomes: Outcome[] = [];
    const emails = new Set<string>();
    const usernames = new Set<string>();
    const providers = new Set<string>();
    for (const entry of entries) {
      if (taken.emails.has(entry.email) || seenEmails.has(entry.email) || emails.has(entry.email)) {
        outcomes.push({ line: entry.line, status: "skipped", reason: "a user with this email is already there" });
        continue;
      }
      if (entry.username && (taken.usernames.has(entry.username) || seenUsernames.has(entry.username) || usernames.has(entry.username))) {
        outcomes.push({ line: entry.line, status: "skipped", reason: "a user with this username is already there" });
        continue;
      }
      const linked = entry.providerKeys.find((k) => taken.providerAccounts.has(k) || seenProviders.has(k) || providers.has(k));
      if (linked) {
        const [providerId, accountId] = linked.split("\u0000");
        outcomes.push({ line: entry.line, status: "rejected", reason: `accounts: ${providerId} account ${accountId} is already linked to another user` });
        continue;
      }
      emails.add(entry.email);
      if (entry.username) usernames.add(entry.username);
      for (const key of entry.providerKeys) providers.add(key);
      toWrite.push(entry);
    }
    return { toWrite, outcomes };
  };

  const remember = (entry: Entry) => {
    seenEmails.add(entry.email);
    if (entry.username) seenUsernames.add(entry.username);
    for (const key of entry.providerKeys) seenProviders.add(key);
  };

  /**
   * One batch in one transaction; answers the outcomes, or throws (nothing of the batch is then written). A dry run
   * makes the same lookups in a transaction of its own and writes nothing.
   */
  const writeBatch = async (entries: Entry[]): Promise<{ written: Entry[]; outcomes: Outcome[] }> =>
    runtime.stores.transaction(async (stores) => {
      await stores.imports.planLookups();
      const { toWrite, outcomes } = await classify(stores, entries);
      if (settings.dryRun) return { written: toWrite, outcomes };
      const ids = await stores.imports.insertImportedUsers(toWrite.map((e) => e.record));
      const written: Entry[] = [];
      for (const entry of toWrite) {
        if (ids.has(entry.record.user.id)) written.push(entry);
        // Taken between the lookup and the insert (a sign-up racing the import).
        else outcomes.push({ line: entry.line, status: "skipped", reason: "a user with this email or username is already there" });
      }
      return { written, outcomes };
    });

  /** Rejections found while parsing, reported with the batch they came with, so that the report is in line order. */
  let pending: Outcome[] = [];

  const finishBatch = (result: { written: Entry[]; outcomes: Outcome[] }) => {
    for (const entry of result.written) remember(entry);
    counts.imported += result.written.length;
    for (const outcome of result.outcomes) pending.push(outcome);
  };

  const write = async (batch: Entry[]): Promise<void> => {
    if (!batch.length) return;
    try {
      finishBatch(await writeBatch(batch));
    } catch (error) {
      // The database gone stops the import: every batch before this one is written, none after.
      if (isUnavailableError(error)) throw error;
      if (batch.length === 1) {
        pending.push({ line: batch[0]!.line, status: "rejected", reason: writeFailure(error) });
        return;
      }
      // The batch failed as a whole (a provider identity linked meanwhile, say): again, one user at a time.
      for (const entry of batch) await write([entry]);
    }
  };

  const flush = async (batch: Entry[]) => {
    await write(batch);
    for (const outcome of pending.sort((a, b) => a.line - b.line)) record(outcome);
    pending = [];
    flushReport();
  };

  const input = createReadStream(settings.file);
  const lines = createInterface({ input, crlfDelay: Infinity });
  let batch: Entry[] = [];
  let bytes = 0;
  let number = 0;
  try {
    for await (const raw of lines) {
      number++;
      bytes += Buffer.byteLength(raw) + 1;
      const text = number === 1 ? raw.replace(/^\uFEFF/, "") : raw;
      if (text.trim() === "") continue;
      counts.lines++;
      const parsed = parseImportLine(text, { runtime, firebase: settings.firebase, now });
      if (!parsed.ok) pending.push({ line: number, status: "rejected", reason: parsed.reason });
      else batch.push({ line: number, record: parsed.record, email: parsed.email, username: parsed.username, providerKeys: parsed.providerKeys });
      if (batch.length + pending.length >= settings.batchSize) {
        await flush(batch);
        batch = [];
      }
      bar.update(counts, bytes);
    }
    await flush(batch);
  } finally {
    lines.close();
    input.destroy();
    bar.finish(counts, bytes);
  }
  const seconds = (Date.now() - startedAt) / 1000;
  return { ...counts, seconds, usersPerSecond: counts.imported / Math.max(seconds, 0.001) };
}

function writeFailure(error: unknown): string {
  if (isUniqueViolation(error)) return "conflicts with a row written meanwhile (an email, username or provider account taken)";
  return `could not be written: ${(error as Error).message}`;
}
