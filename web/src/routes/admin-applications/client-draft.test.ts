import type { AuthError, OidcClient } from "@gatehouse/client";
import { describe, expect, it } from "vitest";
import { createBody, draftOf, issuesOf, newDraft, updateBody, withType } from "./client-draft";

const CLIENT: OidcClient = {
  clientId: "billing-portal",
  name: "Billing Portal",
  type: "web",
  redirectURLs: ["https://billing.example.com/callback", "http://localhost:3000/callback"],
  postLogoutRedirectURLs: [],
  scopes: ["openid", "email", "invoices:read"],
  grantTypes: ["authorization_code", "refresh_token"],
  skipConsent: false,
  accessTokenFormat: "opaque",
  audience: [],
  signingAlg: "RS256",
  logoUri: null,
  clientUri: "https://billing.example.com",
  policyUri: null,
  tosUri: null,
  disabled: false,
  source: "admin",
  hasSecret: true,
  secretCreatedAt: "2025-01-01T00:00:00.000Z",
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

const validationError = (...paths: string[]): AuthError => ({
  status: 400,
  code: "VALIDATION_ERROR",
  message: "Invalid body",
  issues: paths.map((path) => ({ path, message: "must be https://" })),
});

describe("the client form's values", () => {
  it("sends a web client's lists without blank lines, users' scopes before the APIs', and no client ID when none is typed", () => {
    const draft = {
      ...newDraft("web"),
      name: "  Billing Portal ",
      redirectURLs: "\n https://billing.example.com/callback \n\nhttp://localhost:3000/callback\n",
      apiScopes: "invoices:read, invoices:write email",
      clientCredentials: true,
    };
    expect(createBody(draft)).toEqual({
      name: "Billing Portal",
      type: "web",
      redirectURLs: ["https://billing.example.com/callback", "http://localhost:3000/callback"],
      postLogoutRedirectURLs: [],
      // "email" typed among the API scopes is not sent twice.
      scopes: ["openid", "profile", "email", "offline_access", "invoices:read", "invoices:write"],
      grantTypes: ["authorization_code", "refresh_token", "client_credentials"],
      skipConsent: false,
      accessTokenFormat: "opaque",
      audience: [],
      signingAlg: "RS256",
      logoUri: null,
      clientUri: null,
      policyUri: null,
      tosUri: null,
    });
    expect(createBody({ ...draft, clientId: " my-app " }).clientId).toBe("my-app");
  });

  it("gives a machine client client credentials, its API scopes and JWTs, and nothing about users", () => {
    const draft = { ...withType({ ...newDraft("web"), redirectURLs: "https://x.example/cb", skipConsent: true, logoUri: "https://x.example/l.png" }, "machine"), apiScopes: "jobs:run" };
    expect(createBody(draft)).toMatchObject({
      type: "machine",
      redirectURLs: [],
      scopes: ["jobs:run"],
      grantTypes: ["client_credentials"],
      skipConsent: false,
      accessTokenFormat: "jwt",
      logoUri: null,
    });
  });

  it("sends only what an edit changed, and nothing when nothing changed", () => {
    expect(updateBody(CLIENT, draftOf(CLIENT))).toBeNull();
    const edited = { ...draftOf(CLIENT), name: "Billing", skipConsent: true, redirectURLs: `${draftOf(CLIENT).redirectURLs}\n` };
    expect(updateBody(CLIENT, edited)).toEqual({ clientId: "billing-portal", name: "Billing", skipConsent: true });
    expect(updateBody(CLIENT, { ...draftOf(CLIENT), clientUri: "" })).toEqual({ clientId: "billing-portal", clientUri: null });
  });

  it("places the service's issues on the field and value they are about", () => {
    const draft = { ...newDraft("web"), redirectURLs: "https://ok.example/cb\n\nhttp://bad.example/cb", apiScopes: "bad\"scope" };
    expect(issuesOf(validationError("body.redirectURLs.1", "body.scopes.4", "body.grantTypes", "body.logoUri", "body.redirectURLs"), draft)).toEqual([
      { field: "redirectURLs", value: "http://bad.example/cb", path: "redirectURLs" },
      { field: "apiScopes", value: "bad\"scope", path: "scopes" },
      { field: null, value: undefined, path: "grantTypes" },
      { field: "logoUri", value: undefined, path: "logoUri" },
      { field: "redirectURLs", value: undefined, path: "redirectURLs" },
    ]);
  });
});
