#!/usr/bin/env node
import { createAdmin, CreateAdminError } from "./admin/create-admin.js";
import {
  databaseTarget,
  databaseWarnings,
  hasGatehouseTables,
  missingDatabaseMessage,
  sqliteFileMissing,
  type DatabaseTarget,
} from "./cli/database-target.js";
import { ConfigError, resolveConfig } from "./config/index.js";
import { loadCreateAdminInput, loadServiceSettings, type ServiceSettings } from "./config/env.js";
import { CLIENT_USAGE, OidcCommandError, runClientCommand, runOidcCommand } from "./oidc-provider/cli.js";
import { IMPORT_USAGE, parseImportArgs } from "./import/import-options.js";
import { importUsers, type ImportSummary } from "./import/run-import.js";
import { createGatehouse, type Gatehouse } from "./index.js";
import { createLogger, type Logger } from "./logger.js";
import { lowerHelperThreads } from "./helper-threads.js";
import { serveGatehouse, startupNotes } from "./node-server.js";
import { SchemaMismatchError } from "./storage/reconcile.js";
import { defaultWebRoot, loadWebApp } from "./web-app.js";

const USAGE = `Usage: gatehouse <command> [--create]

Commands:
  serve     apply pending migrations, then run the service (the default); on first run it creates the
            database (the SQLite file, or Gatehouse's tables) and says so in its log
  migrate   apply pending migrations and exit
  create-admin --email EMAIL [--password PASSWORD] [--name NAME]
            create a site administrator (with a verified address), or give an existing user the admin
            role; the flags fall back to GATEHOUSE_ADMIN_EMAIL, GATEHOUSE_ADMIN_PASSWORD, GATEHOUSE_ADMIN_NAME
  ${IMPORT_USAGE}
  ${CLIENT_USAGE}

Every command prints the database it uses. migrate, create-admin and import never create one unless given
--create: a SQLite file that does not exist, or a database without Gatehouse's tables, is refused. A relative
DATABASE_URL (the default is sqlite://./data/gatehouse.db) is relative to the current folder.

Configuration comes from the environment (PORT, HOST, BASE_URL, DATABASE_URL, REDIS_URL, GATEHOUSE_SECRET,
TRUSTED_ORIGINS, LOG_LEVEL, GATEHOUSE_CONFIG, GATEHOUSE_DATA_DIR, WEB_ROOT); see README.md.`;

/** A command's refusal, worded for the operator (exit code 1). */
class CommandError extends Error {
  override name = "CommandError";
}

const say = (line: string) => console.log(`gatehouse: ${line}`);

/** The service for a command: its modules' background work (webhook deliveries, pruning) waits for startBackground. */
function open(settings: ServiceSettings, logger: Logger): Gatehouse {
  return createGatehouse(settings.options, {
    nodeEnv: settings.nodeEnv,
    fallbackSecret: settings.fallbackSecret,
    logger,
    background: false,
  });
}

function targetOf(settings: ServiceSettings): DatabaseTarget {
  return databaseTarget(resolveConfig(settings.options, { nodeEnv: settings.nodeEnv, fallbackSecret: settings.fallbackSecret }));
}

/**
 * Opens the database for a command other than serve, after printing which one it is. Without --create it refuses a
 * SQLite file that does not exist (before opening it, which would create it) and a database without Gatehouse's
 * tables: run from another folder, a relative DATABASE_URL names a new file, and the command must not quietly work
 * on a fresh database. Then applies pending migrations.
 */
async function openExisting(settings: ServiceSettings, logger: Logger, command: string, create: boolean): Promise<Gatehouse> {
  const target = targetOf(settings);
  say(`database ${target.label}`);
  if (!create && sqliteFileMissing(target)) throw new CommandError(missingDatabaseMessage(target, command));
  const gatehouse = open(settings, logger);
  try {
    const existing = await hasGatehouseTables(gatehouse.database);
    if (!create && !existing) throw new CommandError(missingDatabaseMessage(target, command));
    const applied = await gatehouse.migrate();
    if (!existing) say(`created a new database (--create): ${target.label}`);
    else if (applied.length) say(`brought the database up to date: ${applied.join(", ")}`);
    return gatehouse;
  } catch (error) {
    await gatehouse.close();
    throw error;
  }
}

async function migrate(settings: ServiceSettings, logger: Logger, create: boolean): Promise<void> {
  const gatehouse = await openExisting(settings, logger, "migrate", create);
  await gatehouse.close();
  say("the database is up to date");
}

async function runCreateAdmin(settings: ServiceSettings, logger: Logger, args: string[], create: boolean): Promise<void> {
  const input = loadCreateAdminInput(args);
  const gatehouse = await openExisting(settings, logger, "create-admin", create);
  try {
    const { action, user } = await createAdmin(gatehouse.runtime, { email: input.email!, password: input.password, name: input.name });
    const what = {
      created: `created administrator ${user.email} (id ${user.id}, role ${user.role})`,
      promoted: `gave ${user.email} (id ${user.id}) the role ${user.role}; their password is unchanged`,
      unchanged: `${user.email} (id ${user.id}) is already an administrator (role ${user.role}); nothing changed`,
    }[action];
    say(what);
  } finally {
    await gatehouse.close();
  }
}

/** `gatehouse client ...` and `gatehouse oidc ...` (oidc-provider/cli.ts). */
async function runOidc(settings: ServiceSettings, logger: Logger, command: "client" | "oidc", args: string[], create: boolean): Promise<void> {
  const gatehouse = await openExisting(settings, logger, command, create);
  try {
    if (command === "client") await runClientCommand(gatehouse.runtime, args, say);
    else await runOidcCommand(gatehouse.runtime, args, say);
  } finally {
    await gatehouse.close();
  }
}

const count = (n: number) => n.toLocaleString("en-US");

/** `gatehouse import`: exit code 0 when every line was imported or skipped, 3 when some were rejected. */
async function runImport(settings: ServiceSettings, logger: Logger, args: string[], create: boolean): Promise<number> {
  const options = parseImportArgs(args);
  const gatehouse = await openExisting(settings, logger, "import", create);
  let summary: ImportSummary;
  try {
    summary = await importUsers(gatehouse.runtime, options, { out: process.stdout, err: process.stderr });
  } finally {
    await gatehouse.close();
  }
  const lines = `${count(summary.lines)} lines: ${count(summary.skipped)} skipped as already there, ${count(summary.rejected)} rejected`;
  const timing = `in ${summary.seconds.toFixed(1)} s, ${count(Math.round(summary.usersPerSecond))} users/s`;
  if (options.dryRun) say(`dry run, nothing written: ${count(summary.imported)} users would be imported (${lines}) ${timing}`);
  else say(`imported ${count(summary.imported)} users (${lines}) ${timing}`);
  if (options.report && (summary.rejected || summary.skipped)) say(`the lines not imported and why: ${options.report}`);
  return summary.rejected > 0 ? 3 : 0;
}

async function runServer(settings: ServiceSettings, logger: Logger): Promise<void> {
  for (const warning of settings.warnings) logger.warn({}, warning);
  // The event loop first: the helper threads (signatures, garbage collection) yield to it (helper-threads.ts).
  if (settings.helperThreadNice > 0) {
    const lowered = await lowerHelperThreads(settings.helperThreadNice);
    logger.debug({ threads: lowered, nice: settings.helperThreadNice }, "helper threads lowered");
  }
  const target = targetOf(settings);
  const gatehouse = open(settings, logger);
  // A database written by Better Auth has tables but no migration bookkeeping: every migration applies to it.
  const existing = await hasGatehouseTables(gatehouse.database);
  const applied = await gatehouse.migrate();
  // serve creates the database on first run (npm start's quick start); it says so, naming where.
  if (!existing) logger.info({ database: target.label }, "created a new database");
  if (applied.length) logger.info({ applied }, "migrations applied");
  for (const warning of await databaseWarnings(gatehouse.database)) logger.warn({ database: target.label }, warning);
  // Only now: the dispatcher and the prune read tables the migrations may just have made.
  gatehouse.startBackground();

  const webApp = settings.webRoot === "" ? null : loadWebApp(settings.webRoot ?? defaultWebRoot());
  if (!webApp && settings.webRoot !== "") {
    logger.warn({ root: settings.webRoot ?? defaultWebRoot() }, "web app not built: serving the API only (run npm run build)");
  }
  let running;
  try {
    running = await serveGatehouse(gatehouse, { port: settings.port, hostname: settings.host, webApp });
  } catch (error) {
    logger.error({ err: (error as Error).message, port: settings.port }, "cannot listen");
    await gatehouse.close();
    process.exit(1);
  }
  logger.success(
    {
      port: running.port,
      host: settings.host,
      database: target.label,
      redis: Boolean(gatehouse.config.redis),
      basePath: gatehouse.config.basePath,
    },
    `gatehouse listening on http://${settings.host === "0.0.0.0" ? "localhost" : settings.host}:${running.port}`,
  );
  for (const note of startupNotes(gatehouse, running)) logger[note.level](note.fields, note.message);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(0), 10_000);
    force.unref();
    void running.close().then(() => gatehouse.close().finally(() => process.exit(0)));
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

async function main(argv: string[]): Promise<void> {
  const command = argv[0] ?? "serve";
  if (command === "help" || command === "--help" || command === "-h") {
    console.log(USAGE);
    return;
  }
  if (!["serve", "migrate", "create-admin", "import", "client", "oidc"].includes(command)) {
    console.error(`gatehouse: unknown command "${command}"\n\n${USAGE}`);
    process.exit(2);
  }
  // --create: the one option every command takes (serve creates its database anyway).
  const args = argv.slice(1).filter((arg) => arg !== "--create");
  const create = args.length < argv.length - 1;
  let settings: ServiceSettings;
  let logger: Logger;
  try {
    settings = loadServiceSettings(process.env, { writeSecret: command === "serve" });
    logger = createLogger((settings.options.logger?.level as never) ?? "info");
  } catch (error) {
    console.error(`gatehouse: ${(error as Error).message}`);
    process.exit(1);
  }
  process.on("unhandledRejection", (reason) => logger.error({ err: String(reason) }, "unhandled rejection"));
  try {
    if (command === "serve") await runServer(settings, logger);
    else if (command === "migrate") await migrate(settings, logger, create);
    else if (command === "create-admin") await runCreateAdmin(settings, logger, args, create);
    else if (command === "client" || command === "oidc") await runOidc(settings, logger, command, args, create);
    else process.exitCode = await runImport(settings, logger, args, create);
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof CreateAdminError ||
      error instanceof CommandError ||
      error instanceof OidcCommandError ||
      error instanceof SchemaMismatchError
    ) {
      console.error(`gatehouse: ${error.message}`);
      process.exit(1);
    }
    logger.error({ err: (error as Error).message }, command === "serve" ? "start-up failed" : `${command} failed`);
    process.exit(1);
  }
}

void main(process.argv.slice(2));
