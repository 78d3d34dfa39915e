import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * One local HTTP server that plays the OAuth 2.0-only providers: an authorization endpoint that approves at once
 * (302 back with a code), and token and profile endpoints that check requests the way each provider does (client
 * authentication, PKCE, its own extra parameters and headers) and answer in each provider's own shape.
 */

export interface ProviderRequest {
  method: string;
  url: URL;
  headers: IncomingMessage["headers"];
  body: string;
  form: URLSearchParams;
}

export interface ProfileRoute {
  /** Path under /{provider}/. */
  path: string;
  method?: "GET" | "POST";
  /** Checks the request (returns a problem, or null) and answers. */
  answer(req: ProviderRequest, accessToken: string | null): { status?: number; json: unknown };
}

export interface ProviderFixture {
  id: string;
  clientAuth: "basic" | "post" | "tiktok";
  pkce: boolean;
  /** The scopes expected in the authorization URL, and how they are joined. */
  scopes: string[];
  scopeSeparator?: string;
  /** Parameters the authorization URL must carry besides the standard ones. */
  authorizationParams?: Record<string, string>;
  /** The token answer for a fresh grant (or a refresh). */
  tokenAnswer(tokens: { access: string; refresh: string }): Record<string, unknown>;
  /** An extra check on the token request. */
  checkToken?(req: ProviderRequest): string | null;
  /** How the provider answers an unknown code. */
  badCodeAnswer?: { status: number; json: unknown };
  profile: ProfileRoute[];
  /** What the service should make of the profile. */
  expected: { accountId: string; email: string; emailVerified: boolean; name: string; image: string | null };
}

export const CLIENT_SECRET = "fake-secret";
export const clientIdOf = (id: string) => `${id}-client-id`;

export interface FakeProviders {
  base: string;
  endpoints(id: string): { authorization: string; token: string; userInfo: string };
  /** Problems the server noticed in requests (each makes the flow fail; tests assert the list is empty). */
  problems: string[];
  /** Token requests received, by provider. */
  tokenRequests: Map<string, ProviderRequest[]>;
  close(): Promise<void>;
}

const s256 = (verifier: string) => createHash("sha256").update(verifier).digest("base64url");
const token = (prefix: string) => `${prefix}-${randomBytes(12).toString("hex")}`;

function send(res: ServerResponse, status: number, json: unknown, type = "application/json") {
  res.statusCode = status;
  res.setHeader("content-type", type);
  res.end(typeof json === "string" ? json : JSON.stringify(json));
}

export async function startFakeProviders(fixtures: readonly ProviderFixture[]): Promise<FakeProviders> {
  const byId = new Map(fixtures.map((f) => [f.id, f]));
  const problems: string[] = [];
  const tokenRequests = new Map<string, ProviderRequest[]>();
  const grants = new Map<string, { provider: string; challenge: string | null; redirectUri: string; deviceId: string }>();
  const accessTokens = new Map<string, string>();
  const refreshTokens = new Map<string, string>();

  const problem = (fixture: ProviderFixture, res: ServerResponse, text: string) => {
    problems.push(`${fixture.id}: ${text}`);
    send(res, 400, { error: "invalid_request", error_description: text });
  };

  const authorize = (fixture: ProviderFixture, req: ProviderRequest, res: ServerResponse) => {
    const q = req.url.searchParams;
    const clientParam = fixture.clientAuth === "tiktok" ? "client_key" : "client_id";
    if (q.get(clientParam) !== clientIdOf(fixture.id)) return problem(fixture, res, `authorize: ${clientParam} missing`);
    if (q.get("response_type") !== "code") return problem(fixture, res, "authorize: response_type");
    const scope = q.get("scope") ?? "";
    const expectedScope = fixture.scopes.join(fixture.scopeSeparator ?? " ");
    if (scope !== expectedScope) return problem(fixture, res, `authorize: scope "${scope}" is not "${expectedScope}"`);
    for (const [key, value] of Object.entries(fixture.authorizationParams ?? {})) {
      if (q.get(key) !== value) return problem(fixture, res, `authorize: ${key} should be ${value}`);
    }
    const challenge = q.get("code_challenge");
    if (fixture.pkce !== (challenge !== null)) return problem(fixture, res, `authorize: PKCE ${fixture.pkce ? "missing" : "unexpected"}`);
    if (challenge && q.get("code_challenge_method") !== "S256") return problem(fixture, res, "authorize: not S256");
    const code = token("code");
    const deviceId = token("device");
    const redirectUri = q.get("redirect_uri") ?? "";
    grants.set(code, { provider: fixture.id, challenge, redirectUri, deviceId });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    back.searchParams.set("state", q.get("state") ?? "");
    if (fixture.id === "vk") back.searchParams.set("device_id", deviceId);
    res.statusCode = 302;
    res.setHeader("location", back.href);
    res.end();
  };

  const checkClientAuth = (fixture: ProviderFixture, req: ProviderRequest): string | null => {
    const id = clientIdOf(fixture.id);
    if (fixture.clientAuth === "basic") {
      // RFC 6749 section 2.3.1: both parts are form-encoded before they are joined and base64-encoded.
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
      const [user = "", password = ""] = Buffer.from(basic, "base64").toString("utf8").split(":");
      const decode = (v: string) => decodeURIComponent(v.replace(/\+/g, " "));
      return decode(user) === id && decode(password) === CLIENT_SECRET ? null : "token: expected HTTP Basic client authentication";
    }
    const key = fixture.clientAuth === "tiktok" ? "client_key" : "client_id";
    if (req.form.get(key) !== id || req.form.get("client_secret") !== CLIENT_SECRET) {
      return `token: expected ${key} and client_secret in the body`;
    }
    return null;
  };

  const tokenEndpoint = (fixture: ProviderFixture, req: ProviderRequest, res: ServerResponse) => {
    tokenRequests.set(fixture.id, [...(tokenRequests.get(fixture.id) ?? []), req]);
    const authProblem = checkClientAuth(fixture, req) ?? fixture.checkToken?.(req) ?? null;
    if (authProblem) return problem(fixture, res, authProblem);
    const issue = () => {
      const access = token(`${fixture.id}-access`);
      const refresh = token(`${fixture.id}-refresh`);
      accessTokens.set(access, fixture.id);
      refreshTokens.set(refresh, fixture.id);
      return fixture.tokenAnswer({ access, refresh });
    };
    const grantType = req.form.get("grant_type");
    if (grantType === "refresh_token") {
      const refresh = req.form.get("refresh_token") ?? "";
      if (refreshTokens.get(refresh) !== fixture.id) return send(res, 400, { error: "invalid_grant" });
      refreshTokens.delete(refresh);
      return send(res, 200, issue());
    }
    if (grantType !== "authorization_code") return problem(fixture, res, `token: grant_type ${grantType}`);
    const code = req.form.get("code") ?? "";
    const grant = grants.get(code);
    if (!grant || grant.provider !== fixture.id) {
      const bad = fixture.badCodeAnswer ?? { status: 400, json: { error: "invalid_grant" } };
      return send(res, bad.status, bad.json);
    }
    grants.delete(code);
    if (req.form.get("redirect_uri") !== grant.redirectUri) return problem(fixture, res, "token: redirect_uri differs");
    const verifier = req.form.get("code_verifier");
    if (grant.challenge && (!verifier || s256(verifier) !== grant.challenge)) return problem(fixture, res, "token: PKCE failed");
    if (!grant.challenge && verifier) return problem(fixture, res, "token: code_verifier without a challenge");
    if (fixture.id === "vk" && (req.form.get("device_id") !== grant.deviceId || !req.form.get("state"))) {
      return problem(fixture, res, "token: VK needs device_id and state");
    }
    // GitHub answers form-encoded unless asked for JSON.
    if (fixture.id === "github" && !(req.headers.accept ?? "").includes("application/json")) {
      return send(res, 200, new URLSearchParams(issue() as Record<string, string>).toString(), "application/x-www-form-urlencoded");
    }
    send(res, 200, issue());
  };

  const server = createServer((incoming, res) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (c: Buffer) => chunks.push(c));
    incoming.on("end", () => {
      const url = new URL(incoming.url ?? "/", "http://fake.invalid");
      const body = Buffer.concat(chunks).toString("utf8");
      const req: ProviderRequest = { method: incoming.method ?? "GET", url, headers: incoming.headers, body, form: new URLSearchParams(body) };
      const [, id = "", ...rest] = url.pathname.split("/");
      const fixture = byId.get(id);
      const path = rest.join("/");
      if (!fixture) return send(res, 404, { error: "not_found" });
      if (path === "authorize") return authorize(fixture, req, res);
      if (path === "token" && req.method === "POST") return tokenEndpoint(fixture, req, res);
      const route = fixture.profile.find((r) => r.path === path && (r.method ?? "GET") === req.method);
      if (!route) return problem(fixture, res, `no route ${req.method} ${path}`);
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null;
      const accessToken = bearer ?? req.form.get("access_token");
      if (!accessToken || accessTokens.get(accessToken) !== fixture.id) return send(res, 401, { error: "invalid_token" });
      const answer = route.answer(req, accessToken);
      if (answer.status === 400 && typeof answer.json === "string") return problem(fixture, res, answer.json);
      send(res, answer.status ?? 200, answer.json);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    endpoints: (id) => ({
      authorization: `${base}/${id}/authorize`,
      token: `${base}/${id}/token`,
      userInfo: `${base}/${id}/${byId.get(id)!.profile[0]!.path}`,
    }),
    problems,
    tokenRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A profile check: a problem text makes the route answer 400 and records it. */
export const refuse = (text: string) => ({ status: 400, json: text });
