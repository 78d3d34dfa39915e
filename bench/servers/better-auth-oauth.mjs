// Better Auth 1.7 as an OpenID Provider: the existing bench server's settings (servers/better-auth.mjs), with its
// `jwt` plugin and `@better-auth/oauth-provider`, one confidential first-party client registered at start-up.
// Run by bench/lib/oidc.mjs as its own process.
// Env: PORT, BA_DATABASE (sqlite://PATH or postgres://...), BA_COOKIE_CACHE (1 = on), BA_SECRET, BA_POOL_SIZE,
// BA_OAUTH_CLIENT_ID, BA_OAUTH_CLIENT_SECRET, BA_OAUTH_REDIRECT, BA_OAUTH_SCOPES, BA_OAUTH_CODE_LIFETIME (s),
// BA_OAUTH_RESOURCE (an API the client may ask JWT access tokens for), BA_JWT_ALG (RS256 or ES256).
import { createServer } from "node:http";
import Database from "better-sqlite3";
import pg from "pg";
import { oauthProvider } from "@better-auth/oauth-provider";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import { toNodeHandler } from "better-auth/node";
import { jwt } from "better-auth/plugins";

const port = Number(process.env.PORT ?? 3100);
const url = process.env.BA_DATABASE ?? "sqlite://./better-auth.db";
const clientId = process.env.BA_OAUTH_CLIENT_ID ?? "bench-client";
const clientSecret = process.env.BA_OAUTH_CLIENT_SECRET ?? "bench-oidc-client-secret-0123456789-abcdefghijklmnop";
const redirect = process.env.BA_OAUTH_REDIRECT ?? "https://app.bench.example/callback";
const scopes = (process.env.BA_OAUTH_SCOPES ?? "openid profile email offline_access").split(" ");
const resource = process.env.BA_OAUTH_RESOURCE ?? "https://api.bench.example";
const alg = process.env.BA_JWT_ALG ?? "RS256";

let database;
if (url.startsWith("sqlite://")) {
  // The same pragmas Gatehouse sets on its SQLite connection.
  database = new Database(url.slice("sqlite://".length));
  database.pragma("journal_mode = WAL");
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
} else {
  database = new pg.Pool({ connectionString: url, max: Number(process.env.BA_POOL_SIZE ?? 10) });
}

const options = {
  database,
  secret: process.env.BA_SECRET ?? "bench-secret-bench-secret-bench-secret",
  baseURL: `http://127.0.0.1:${port}`,
  emailAndPassword: { enabled: true },
  session: {
    expiresIn: 604_800,
    updateAge: 86_400,
    cookieCache: { enabled: process.env.BA_COOKIE_CACHE === "1", maxAge: 300 },
  },
  rateLimit: { enabled: false },
  telemetry: { enabled: false },
  logger: { disabled: true },
  plugins: [
    // ID tokens (and JWT access tokens) signed like Gatehouse's: RS256 with RSA 2048 by default (the plugin's own
    // default is EdDSA).
    jwt({ jwks: { keyPairConfig: alg === "RS256" ? { alg: "RS256", modulusLength: 2048 } : { alg: "ES256" } } }),
    oauthProvider({
      // Never reached: the client skips consent and every authorization comes from a signed-in browser.
      loginPage: "/sign-in",
      consentPage: "/consent",
      scopes,
      // Its defaults, written out: codes live 10 minutes, access tokens an hour, refresh tokens 30 days, tokens
      // and client secrets stored hashed.
      codeExpiresIn: Number(process.env.BA_OAUTH_CODE_LIFETIME ?? 600),
      accessTokenExpiresIn: 3600,
      refreshTokenExpiresIn: 2_592_000,
      // The one client, first-party: its id and secret are the bench's, and it is cached in memory like the
      // clients Gatehouse reads from its configuration file.
      generateClientId: () => clientId,
      generateClientSecret: () => clientSecret,
      cachedTrustedClients: new Set([clientId]),
      // The API a JWT access token is for (RFC 8707), as Gatehouse's JWT client's `audience`.
      resources: [resource],
      cachedResources: new Set([resource]),
    }),
  ],
};

const { runMigrations } = await getMigrations(options);
await runMigrations();

const auth = betterAuth(options);

// The client, registered through the provider's admin API by a user made for that (the API wants a session).
const existing = await (await auth.$context).adapter.findOne({ model: "oauthClient", where: [{ field: "clientId", value: clientId }] });
if (!existing) {
  const signedUp = await auth.api.signUpEmail({
    body: { name: "Bench Admin", email: `bench-admin-${Date.now()}@bench.example`, password: "bench-admin-password-0123" },
    returnHeaders: true,
  });
  const cookie = signedUp.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const headers = new Headers({ cookie });
  const created = await auth.api.adminCreateOAuthClient({
    headers,
    body: {
      client_name: "Bench",
      redirect_uris: [redirect],
      scope: scopes.join(" "),
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
      skip_consent: true,
    },
  });
  if (created.client_id !== clientId) throw new Error(`the client was registered as ${created.client_id}`);
  await auth.api.adminLinkClientResource({ headers, params: { identifier: resource, client_id: clientId } });
}

const server = createServer(toNodeHandler(auth));
server.listen(port, "127.0.0.1", () => process.send?.({ ready: true, port }));
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
