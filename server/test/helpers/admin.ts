import { signUp, type TestClient } from "./http-client.js";
import type { TestServer } from "./server.js";

/**
 * Signs a fresh user up through the API, then makes them a site administrator through storage (the way
 * `gatehouse create-admin` does: no route hands out the first administrator role). The client holds their session.
 */
export async function signUpAdmin(server: TestServer, client: TestClient, overrides: Record<string, unknown> = {}) {
  const signed = await signUp(client, overrides);
  const user = await server.gatehouse.runtime.stores.users.updateUser(signed.user.id, {
    role: "admin",
    updatedAt: new Date(),
  });
  return { ...signed, user: user! };
}
