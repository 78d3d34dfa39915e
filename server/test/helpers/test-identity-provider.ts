import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from "jose";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** What the provider knows about a person (the claims it releases). */
export interface IdentityAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
  picture?: string;
}

export interface IdentityClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  token_endpoint_auth_method: "client_secret_basic" | "client_secret_post";
}

/**
 * A real OpenID provider (oidc-provider 8) on 127.0.0.1 for the tests. Interactions complete by themselves: the
 * login and consent steps sign in as the account named by `loginAs` and grant every requested scope, or answer
 * access_denied after `denyNext`. Its signing key is the test's, so tests can also mint ID tokens it would accept.
 */
export interface TestIdentityProvider {
  issuer: string;
  /** The RSA key the provider signs with (kid "test-key"). */
  privateKey: CryptoKey;
  addAccount(account: IdentityAccount): void;
  loginAs(sub: string): void;
  denyNext(): void;
  /** Creates the provider with its clients (their redirect URIs are known only once the service runs). */
  start(clients: IdentityClient[]): void;
  /** Signs an ID token with the provider's key (or another one), claims defaulted from the provider. */
  signIdToken(claims: JWTPayload, opts?: { key?: CryptoKey; kid?: string }): Promise<string>;
  close(): Promise<void>;
}

export const SIGNING_KID = "test-key";

/** oidc-provider's storage, in memory (its built-in one warns on every start). */
class MemoryAdapter {
  private static rows = new Map<string, Record<string, unknown> & { consumed?: number }>();
  constructor(private readonly model: string) {}
  private key = (id: string) => `${this.model}:${id}`;
  async upsert(id: string, payload: Record<string, unknown>) {
    MemoryAdapter.rows.set(this.key(id), payload);
  }
  async find(id: string) {
    return MemoryAdapter.rows.get(this.key(id));
  }
  async findByUid(uid: string) {
    for (const [key, row] of MemoryAdapter.rows) if (key.startsWith(`${this.model}:`) && row.uid === uid) return row;
    return undefined;
  }
  async findByUserCode() {
    return undefined;
  }
  async consume(id: string) {
    const row = MemoryAdapter.rows.get(this.key(id));
    if (row) row.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    MemoryAdapter.rows.delete(this.key(id));
  }
  async revokeByGrantId(grantId: string) {
    for (const [key, row] of MemoryAdapter.rows) if (row.grantId === grantId) MemoryAdapter.rows.delete(key);
  }
}

export async function startTestIdentityProvider(): Promise<TestIdentityProvider> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: SIGNING_KID, alg: "RS256", use: "sig" };
  const accounts = new Map<string, IdentityAccount>();
  let nextLogin = "";
  let deny = false;
  let provider: Provider | null = null;
  let callback: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;

  const interact = async (req: IncomingMessage, res: ServerResponse) => {
    const details = await provider!.interactionDetails(req, res);
    if (deny) {
      deny = false;
      await provider!.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "End-User aborted interaction" },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const accountId = nextLogin;
    const grant = new provider!.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope ?? "openid"));
    const grantId = await grant.save();
    await provider!.interactionFinished(
      req,
      res,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  const server = createServer((req, res) => {
    if (!callback) {
      res.statusCode = 503;
      res.end();
      return;
    }
    if (req.url?.startsWith("/interaction/")) {
      interact(req, res).catch((error: Error) => {
        res.statusCode = 500;
        res.end(error.message);
      });
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    privateKey,
    addAccount: (account) => accounts.set(account.sub, account),
    loginAs: (sub) => {
      nextLogin = sub;
    },
    denyNext: () => {
      deny = true;
    },
    start(clients) {
      provider = new Provider(issuer, {
        clients: clients.map((c) => ({ ...c, grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] })),
        jwks: { keys: [jwk] },
        adapter: MemoryAdapter,
        cookies: { keys: ["test-identity-provider-cookie-key"] },
        // ID tokens outlive the tests' clock moves (up to two hours) so refreshed ones still check out.
        ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 86_400, Interaction: 600, Grant: 86_400, Session: 86_400, RefreshToken: 86_400 },
        claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
        // Claims requested by scope go into the ID token too (as Google's and Apple's do).
        conformIdTokenClaims: false,
        features: { devInteractions: { enabled: false } },
        // Apple takes no PKCE; the stand-in accepts flows without it (those that send it are still checked).
        pkce: { required: () => false },
        interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
        issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
          client.grantTypeAllowed("refresh_token"),
        findAccount: async (_ctx: unknown, sub: string) => {
          const account = accounts.get(sub);
          return account ? { accountId: sub, claims: async () => ({ ...account }) } : undefined;
        },
      });
      // oidc-provider reports expected protocol errors as events; the tests look at the outcomes instead.
      provider.on("server_error", (...args: unknown[]) => console.error("identity provider error", ...args));
      callback = provider.callback();
    },
    async signIdToken(claims, opts = {}) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg: "RS256", kid: opts.kid ?? SIGNING_KID })
        .sign(opts.key ?? privateKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
