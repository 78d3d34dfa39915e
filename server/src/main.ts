#!/usr/bin/env node
import { createAdmin, CreateAdminError } from "./admin/create-admin.js";
import { ConfigError } from "./config/index.js";
import { loadCreateAdminInput, loadServiceSettings, type ServiceSettings } from "./config/env.js";
import { createGatehouse, type Gatehouse } from "./index.js";
import { createLogger, type Logger } from "./logger.js";
import { serveGatehouse } from "./node-server.js";
import { defaultWebRoot, loadWebApp } from "./web-app.js";

const USAGE = `Usage: gatehouse <command>

Commands:
  serve     apply pending migrations, then run the service (the default)
  migrate   apply pending migrations and exit
  create-admin --email EMAIL [--password PASSWORD] [--name NAME]
            create a site administrator (with a verified address), or give an existing user the admin
            role; the flags fall back to GATEHOUSE_ADMIN_EMAIL, GATEHOUSE_ADMIN_PASSWORD, GATEHOUSE_ADMIN_NAME

Configuration comes from the environment (PORT, HOST, BASE_URL, DATABASE_URL, REDIS_URL, GATEHOUSE_SECRET,
TRUSTED_ORIGINS, LOG_LEVEL, GATEHOUSE_CONFIG, GATEHOUSE_DATA_DIR, WEB_ROOT); see README.md.`;

function open(settings: ServiceSettings, logger: Logger): Gatehouse {
  for (const warning of settings.warnings) logger.warn({}, warning);
  return createGatehouse(settings.options, {
    nodeEnv: settings.nodeEnv,
    fallbackSecret: settings.fallbackSecret,
    logger,
  });
}

async function migrate(settings: ServiceSettings, logger: Logger): Promise<void> {
  const gatehouse = open(settings, logger);
  try {
    const applied = await gatehouse.migrate();
    logger.success({ applied, database: gatehouse.runtime.database.describe }, "migrations applied");
  } finally {
    await gatehouse.close();
  }
}

async function runCreateAdmin(settings: ServiceSettings, logger: Logger, args: string[]): Promise<void> {
  const input = loadCreateAdminInput(args);
  const gatehouse = open(settings, logger);
  try {
    await gatehouse.migrate();
    const { action, user } = await createAdmin(gatehouse.runtime, { email: input.email!, password: input.password, name: input.name });
    const what = {
      created: `created administrator ${user.email} (id ${user.id}, role ${user.role})`,
      promoted: `gave ${user.email} (id ${user.id}) the role ${user.role}; their password is unchanged`,
      unchanged: `${user.email} (id ${user.id}) is already an administrator (role ${user.role}); nothing changed`,
    }[action];
    console.log(`gatehouse: ${what}`);
  } finally {
    await gatehouse.close();
  }
}

async function runServer(settings: ServiceSettings, logger: Logger): Promise<void> {
  const gatehouse = open(settings, logger);
  const applied = await gatehouse.migrate();
  if (applied.length) logger.info({ applied }, "migrations applied");

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
      database: gatehouse.runtime.database.describe,
      redis: Boolean(gatehouse.config.redis),
      basePath: gatehouse.config.basePath,
    },
    `gatehouse listening on http://${settings.host === "0.0.0.0" ? "localhost" : settings.host}:${running.port}`,
  );

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
  let settings: ServiceSettings;
  let logger: Logger;
  try {
    settings = loadServiceSettings();
    logger = createLogger((settings.options.logger?.level as never) ?? "info");
  } catch (error) {
    console.error(`gatehouse: ${(error as Error).message}`);
    process.exit(1);
  }
  process.on("unhandledRejection", (reason) => logger.error({ err: String(reason) }, "unhandled rejection"));
  try {
    if (command === "serve") await runServer(settings, logger);
    else if (command === "migrate") await migrate(settings, logger);
    else if (command === "create-admin") await runCreateAdmin(settings, logger, argv.slice(1));
    else {
      console.error(`gatehouse: unknown command "${command}"\n\n${USAGE}`);
      process.exit(2);
    }
  } catch (error) {
    if (error instanceof ConfigError || error instanceof CreateAdminError) {
      console.error(`gatehouse: ${error.message}`);
      process.exit(1);
    }
    logger.error({ err: (error as Error).message }, "start-up failed");
    process.exit(1);
  }
}

void main(process.argv.slice(2));
