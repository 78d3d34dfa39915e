import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRemoteJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oidcService } from "../src/oidc-provider/service.js";
import { buildCli, runCli, type CliBuild } from "./helpers/cli.js";
import { DIALECTS, type TestDatabase } from "./helpers/databases.js";
import { startTestServer, TEST_SECRET, type TestServer } from "./helpers/server.js";

/**
 * `gatehouse client create|list|rotate-secret|delete` and `gatehouse oidc rotate-keys` as operators run them (their
 * own process, on the service's database), with the running service answering for what they changed.
 */
let cli: CliBuild;
const folders: string[] = [];

beforeAll(() => {
  cli = buildCli();
});
afterAll(() => {
  cli?.remove();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

function cliEnv(database: TestDatabase, dir: string): Record<string, string> {
  const env: Record<string, string> = { DATABASE_URL: database.url, GATEHOUSE_SECRET: TEST_SECRET, LOG_LEVEL: "error", GATEHOUSE_DATA_DIR: dir };
  if (database.schema) {
    const config = join(dir, "gatehouse.json");
    writeFileSync(config, JSON.stringify({ database: { schema: database.schema } }));
    env.GATEHOUSE_CONFIG = config;
  }
  return env;
}

describe.each(DIALECTS)("gatehouse client and oidc commands on %s", (dialect) => {
  let server: TestServer;
  let dir: string;
  let env: Record<string, string>;
  const run = (args: string[]) => runCli(cli, args, { cwd: dir, env });

  beforeAll(async () => {
    server = await startTestServer(dialect);
    dir = mkdtempSync(join(tmpdir(), "gatehouse-oidc-cli-"));
    folders.push(dir);
    env = cliEnv(server.database, dir);
  });
  afterAll(async () => server?.close());

  it("creates a machine client whose secret is printed once and works; lists, rotates and deletes it", async () => {
    const created = await run([
      "client",
      "create",
      "--name",
      "Nightly export",
      "--type",
      "machine",
      "--scope",
      "exports:write",
      "--audience",
      "https://exports.example.test",
    ]);
    expect(created.status).toBe(0);
    const clientId = /client id: (\S+)/.exec(created.stdout)![1]!;
    const secret = /client secret \(shown this once, stored hashed\): (\S+)/.exec(created.stdout)![1]!;
    expect(secret).toHaveLength(43);

    const config = await oidc.discovery(new URL(server.url), clientId, undefined, oidc.ClientSecretBasic(secret), {
      execute: [oidc.allowInsecureRequests],
    });
    const token = await oidc.clientCredentialsGrant(config, { scope: "exports:write" });
    const jwks = createRemoteJWKSet(new URL(`${server.url}/api/auth/jwks`));
    const { payload } = await jwtVerify(token.access_token, jwks, { issuer: server.url, audience: "https://exports.example.test" });
    expect(payload).toMatchObject({ client_id: clientId, scope: "exports:write" });

    const listed = await run(["client", "list"]);
    expect(listed.stdout).toMatch(new RegExp(`${clientId}\\tmachine\\tNightly export\\tadmin`));
    expect(listed.stdout).not.toContain(secret);

    const rotated = await run(["client", "rotate-secret", clientId]);
    expect(rotated.status).toBe(0);
    const fresh = /no longer works\): (\S+)/.exec(rotated.stdout)![1]!;
    await expect(oidc.clientCredentialsGrant(config, { scope: "exports:write" })).rejects.toBeTruthy();
    const renewed = await oidc.discovery(new URL(server.url), clientId, undefined, oidc.ClientSecretBasic(fresh), {
      execute: [oidc.allowInsecureRequests],
    });
    expect((await oidc.clientCredentialsGrant(renewed, { scope: "exports:write" })).access_token).toBeTruthy();

    expect((await run(["client", "delete", clientId])).stdout).toContain(`deleted client ${clientId}`);
    await expect(oidc.clientCredentialsGrant(renewed, { scope: "exports:write" })).rejects.toBeTruthy();
  });

  it("refuses bad options, naming them", async () => {
    const noType = await run(["client", "create", "--name", "X"]);
    expect(noType.status).toBe(1);
    expect(noType.stderr).toMatch(/--type must be web, public, machine/);
    const badRedirect = await run(["client", "create", "--name", "X", "--type", "web", "--redirect-url", "http://example.com/cb"]);
    expect(badRedirect.status).toBe(1);
    expect(badRedirect.stderr).toMatch(/redirectURLs\.0: must be https:\/\//);
    const unknown = await run(["client", "create", "--nmae", "X"]);
    expect(unknown.stderr).toMatch(/unknown option --nmae/);
    const missing = await run(["client", "delete", "nope"]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/OIDC client not found/);
    const web = await run(["client", "create", "--name", "Site", "--type", "web", "--redirect-url", "https://site.example.test/cb"]);
    expect(web.stdout).toMatch(/created web client "Site"/);
  });

  it("rotates the signing keys: published at once, signing after the delay, the old ones kept for the overlap", async () => {
    const jwksNow = async () => (await (await fetch(`${server.url}/api/auth/jwks`)).json()) as JSONWebKeySet;
    const before = await jwksNow();
    expect(before.keys).toHaveLength(2);
    const rotated = await run(["oidc", "rotate-keys", "--activate-in", "0", "--overlap", "600"]);
    expect(rotated.status).toBe(0);
    expect(rotated.stdout).toMatch(/new RS256 signing key \S+, published now, signing from/);
    expect(rotated.stdout).toMatch(/new ES256 signing key/);
    // The running service picks it up within a minute; here at once.
    await oidcService(server.gatehouse.runtime).reloadKeys();
    const after = await jwksNow();
    expect(after.keys).toHaveLength(4);
    expect(after.keys.map((k) => k.kid)).toEqual(expect.arrayContaining(before.keys.map((k) => k.kid)));
    const current = await oidcService(server.gatehouse.runtime).keySet();
    expect(before.keys.map((k) => k.kid)).not.toContain(current.current.get("RS256")!.kid);
    const bad = await run(["oidc", "rotate-keys", "--overlap", "-5"]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--overlap must be a number of seconds/);
  });
});
