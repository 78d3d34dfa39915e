import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../src/config/index.js";
import type { AnyEndpoint } from "../src/http/endpoint.js";
import { buildOpenApiDocument } from "../src/http/openapi.js";
import {
  OAuthBodyError,
  OAuthNetworkError,
  OAuthRefusedError,
  OAuthStatusError,
  OAuthTokenError,
} from "../src/social/errors.js";
import { requestJson } from "../src/social/http.js";
import { placeholderEmail } from "../src/social/provider.js";
import { discordAvatar } from "../src/social/providers/discord.js";
import { GitHubProvider } from "../src/social/providers/github.js";
import { MicrosoftProvider } from "../src/social/providers/microsoft.js";
import { createTokenVault } from "../src/social/token-vault.js";
import { ENDPOINTS } from "../src/routes.js";
import { startTestIdentityProvider, type TestIdentityProvider } from "./helpers/test-identity-provider.js";

const SECRET = "unit-test-secret-that-is-long-enough-1234567890";

describe("token vault (account.encryptOAuthTokens)", () => {
  const context = { providerId: "google", accountId: "123", field: "accessToken" as const };

  it("seals as gh1:base64url(iv | ciphertext | tag) and opens it again", () => {
    const vault = createTokenVault(SECRET, true);
    const sealed = vault.seal("ya29.secret-token", context)!;
    expect(sealed).toMatch(/^gh1:[A-Za-z0-9_-]+$/);
    expect(Buffer.from(sealed.slice(4), "base64url")).toHaveLength(12 + "ya29.secret-token".length + 16);
    expect(sealed).not.toBe(vault.seal("ya29.secret-token", context)); // a fresh IV each time
    expect(vault.open(sealed, context)).toBe("ya29.secret-token");
  });

  it("does not open a token moved to another account or column, tampered with, or sealed with another secret", () => {
    const vault = createTokenVault(SECRET, true);
    const sealed = vault.seal("token", context)!;
    expect(vault.open(sealed, { ...context, accountId: "456" })).toBeNull();
    expect(vault.open(sealed, { ...context, field: "refreshToken" })).toBeNull();
    const raw = Buffer.from(sealed.slice(4), "base64url");
    raw[14] = raw[14]! ^ 1;
    expect(vault.open(`gh1:${raw.toString("base64url")}`, context)).toBeNull();
    expect(createTokenVault(`${SECRET}-rotated`, true).open(sealed, context)).toBeNull();
  });

  it("writes plain tokens when off and reads plain tokens either way", () => {
    expect(createTokenVault(SECRET, false).seal("plain", context)).toBe("plain");
    expect(createTokenVault(SECRET, true).open("plain-from-before", context)).toBe("plain-from-before");
    expect(createTokenVault(SECRET, true).seal(null, context)).toBeNull();
  });
});

describe("provider HTTP failures", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const answers: Record<string, [number, string, string]> = {
        "/ok": [200, "application/json", '{"id":1}'],
        "/list": [200, "application/json", "[1,2]"],
        "/refused": [400, "application/json", '{"error":"invalid_token","error_description":"expired"}'],
        "/unauthorized": [401, "text/plain", "no"],
        "/broken": [502, "text/html", "<h1>Bad gateway</h1>"],
        "/garbage": [200, "text/html", "<html>not json</html>"],
      };
      const [status, type, body] = answers[req.url ?? ""] ?? [404, "text/plain", ""];
      res.writeHead(status, { "content-type": type }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("tells network failure, refusal, unexpected status and unreadable body apart", async () => {
    expect(await requestJson("p", `${base}/ok`)).toEqual({ id: 1 });
    expect(await requestJson("p", `${base}/list`)).toEqual({ items: [1, 2] });
    await expect(requestJson("p", `${base}/refused`)).rejects.toMatchObject({
      constructor: OAuthRefusedError,
      error: "invalid_token",
      description: "expired",
      status: 400,
    });
    await expect(requestJson("p", `${base}/unauthorized`)).rejects.toBeInstanceOf(OAuthRefusedError);
    await expect(requestJson("p", `${base}/broken`)).rejects.toMatchObject({ constructor: OAuthStatusError, status: 502 });
    await expect(requestJson("p", `${base}/garbage`)).rejects.toBeInstanceOf(OAuthBodyError);
    await expect(requestJson("p", "http://127.0.0.1:1/unreachable")).rejects.toBeInstanceOf(OAuthNetworkError);
  });

  it("reports an unreachable token endpoint as a network failure", async () => {
    const github = new GitHubProvider(
      {
        clientId: "id",
        clientSecret: "secret",
        scopes: [],
        disableDefaultScope: false,
        endpoints: { token: "http://127.0.0.1:1/token" },
        disableSignUp: false,
        disableImplicitSignUp: false,
        disableIdTokenSignIn: false,
        idTokenAudiences: [],
      },
      () => new Date(),
    );
    await expect(
      github.validateAuthorizationCode({ code: "c", state: "s", codeVerifier: "v".repeat(43), nonce: null, redirectURI: "http://x.test/cb" }),
    ).rejects.toBeInstanceOf(OAuthNetworkError);
  });
});

describe("Microsoft: the issuer names the user's tenant", () => {
  let idp: TestIdentityProvider;
  const CONSUMERS = "9188040d-6c67-4c5b-b112-36a304b66dad";
  const WORK = "72f988bf-86f1-41af-91ab-2d7cd011db47";
  beforeAll(async () => {
    idp = await startTestIdentityProvider();
    idp.start([]);
  });
  afterAll(async () => idp?.close());

  const provider = (tenantId: string) =>
    new MicrosoftProvider(
      {
        clientId: "ms-client",
        tenantId,
        scopes: [],
        disableDefaultScope: false,
        endpoints: { jwks: `${idp.issuer}/jwks` },
        disableSignUp: false,
        disableImplicitSignUp: false,
        disableIdTokenSignIn: false,
        idTokenAudiences: [],
      },
      () => new Date(),
    );
  const token = (tid: string, iss = `https://login.microsoftonline.com/${tid}/v2.0`) =>
    idp.signIdToken({ iss, tid, sub: "ms-sub", aud: "ms-client", email: "ada@contoso.example" });

  it("accepts any tenant with common, and the work tenant's issuer only when it matches tid", async () => {
    await expect(provider("common").verifyIdToken({ token: await token(WORK) })).resolves.toMatchObject({
      user: { id: "ms-sub", email: "ada@contoso.example", emailVerified: false },
    });
    await expect(
      provider("common").verifyIdToken({ token: await token(WORK, `https://login.microsoftonline.com/${CONSUMERS}/v2.0`) }),
    ).rejects.toBeInstanceOf(OAuthTokenError);
  });

  it("keeps personal accounts out of organizations and work accounts out of consumers", async () => {
    await expect(provider("organizations").verifyIdToken({ token: await token(CONSUMERS) })).rejects.toBeInstanceOf(OAuthTokenError);
    await expect(provider("consumers").verifyIdToken({ token: await token(WORK) })).rejects.toBeInstanceOf(OAuthTokenError);
    const personal = await provider("consumers").verifyIdToken({ token: await token(CONSUMERS) });
    expect(personal.user.emailVerified).toBe(true);
  });

  it("pins the issuer to a tenant named by id", async () => {
    await expect(provider(WORK).verifyIdToken({ token: await token(WORK) })).resolves.toBeDefined();
    await expect(provider(WORK).verifyIdToken({ token: await token(CONSUMERS) })).rejects.toBeInstanceOf(OAuthTokenError);
  });
});

describe("provider quirks and options", () => {
  it("builds Discord's default avatar from the id (new usernames) or the old discriminator", () => {
    expect(discordAvatar("80351110224678912", null, "0")).toBe(
      `https://cdn.discordapp.com/embed/avatars/${Number((80351110224678912n >> 22n) % 6n)}.png`,
    );
    expect(discordAvatar("1", null, "1337")).toBe("https://cdn.discordapp.com/embed/avatars/2.png");
    expect(discordAvatar("1", "abc", "0")).toBe("https://cdn.discordapp.com/avatars/1/abc.png");
  });

  it("gives providers without an email a reserved .invalid placeholder", () => {
    expect(placeholderEmail("tiktok", "ABC_123")).toBe("abc_123@tiktok.invalid");
  });

  it("validates socialProviders and account options at start", () => {
    const base = { secret: SECRET };
    const config = resolveConfig({
      ...base,
      socialProviders: { google: { clientId: "g", clientSecret: "s" }, oidc: [{ id: "corp", issuer: "https://id.corp.example", clientId: "c" }] },
      account: { accountLinking: { trustedProviders: ["corp"] } },
    });
    expect(config.socialProviders.google).toMatchObject({ accessType: "offline", scopes: [], disableSignUp: false });
    expect(config.account).toEqual({
      encryptOAuthTokens: false,
      accountLinking: { enabled: true, trustedProviders: ["corp"], allowDifferentEmails: false, allowUnlinkingAll: false },
    });
    const bad = (options: Record<string, unknown>) => () => resolveConfig({ ...base, ...options } as never);
    expect(bad({ socialProviders: { google: { clientId: "g", endpoints: { token: "http://idp.example/token" } } } })).toThrow(
      /socialProviders\.google\.endpoints\.token: must be an https:\/\/ URL/,
    );
    expect(bad({ socialProviders: { myspace: { clientId: "x" } } })).toThrow(ConfigError);
    expect(bad({ socialProviders: { oidc: [{ id: "google", issuer: "https://x.example", clientId: "c" }] } })).toThrow(
      /must not be a built-in provider id/,
    );
    expect(bad({ socialProviders: { github: { clientId: "g", endpoints: { token: "http://127.0.0.1:9/token" } } } })).not.toThrow();
  });
});

describe("OpenAPI document of the social routes", () => {
  it("gives GET and POST /callback/{id} distinct operation ids (ids are unique)", () => {
    const document = buildOpenApiDocument(Object.values(ENDPOINTS) as AnyEndpoint[], "/api/auth", "test");
    const ids = Object.values(document.paths).flatMap((ops) => Object.values(ops).map((op) => (op as { operationId: string }).operationId));
    expect(new Set(ids).size).toBe(ids.length);
    const callback = document.paths["/callback/{id}"] as Record<string, { operationId: string }>;
    expect([callback.get!.operationId, callback.post!.operationId]).toEqual(["callback", "callbackPost"]);
  });
});
