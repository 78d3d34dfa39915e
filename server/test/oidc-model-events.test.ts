import { afterAll, beforeAll, expect, it } from "vitest";
import { modelEventPrefix, oidcService } from "../src/oidc-provider/service.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * service.ts gives each of oidc-provider's stored models an `emit` with its event name's prefix worked out once; the
 * events must keep the names oidc-provider gives them (`access_token.saved`, `refresh_token.consumed`, ...).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer("sqlite");
});
afterAll(() => server?.close());

const MODELS = ["AccessToken", "AuthorizationCode", "RefreshToken", "ClientCredentials", "DeviceCode", "BackchannelAuthenticationRequest", "InitialAccessToken", "RegistrationAccessToken", "PushedAuthorizationRequest", "Session", "Grant", "Interaction", "ReplayDetection"];

it("names each model's events as oidc-provider does, and emits them on the provider", async () => {
  const path = "oidc-provider/lib/helpers/_/snake_case.js";
  const { default: snakeCase } = (await import(path)) as { default: (value: string) => string };
  for (const name of MODELS) expect(modelEventPrefix(name)).toBe(snakeCase(name));
  expect(modelEventPrefix("BackchannelAuthenticationRequest")).toBe("backchannel_authentication_request");

  const provider = (await oidcService(server.gatehouse.runtime).provider()) as unknown as Record<string, { name: string; prototype: { emit(event: string): void } }> & {
    on(event: string, listener: (model: unknown) => void): void;
  };
  for (const name of MODELS) {
    const model = provider[name]!;
    expect(model.name).toBe(name);
    // Its own emit (oidc-provider's is its base class's), which announces the same name.
    expect(Object.prototype.hasOwnProperty.call(model.prototype, "emit")).toBe(true);
    const heard: unknown[] = [];
    provider.on(`${snakeCase(name)}.saved`, (instance) => heard.push(instance));
    const instance = { kind: name };
    model.prototype.emit.call(instance, "saved");
    expect(heard).toEqual([instance]);
  }
});
