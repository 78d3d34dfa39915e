import { describe, expect, it } from "vitest";
import type { Call, Fetcher } from "../src/fetcher.js";
import { buildMethods, kebabToCamel } from "../src/method-tree.js";
import { shape } from "../src/route-spec.js";

/** Unit tests of how the route table becomes methods; the calls never leave the process. */
describe("buildMethods", () => {
  const sent: { path: string; call: Call }[] = [];
  const fetcher: Fetcher = async (path, call) => {
    sent.push({ path, call });
    return { data: path, error: null };
  };
  const routes = {
    "/delete-user": { method: "POST", body: shape<{ password?: string } | void>(), data: shape<string>() },
    "/delete-user/callback": { method: "GET", query: shape<{ token: string }>(), data: shape<string>() },
    "/organization/list-invitations": { method: "GET", query: shape<{ organizationId: string }>(), data: shape<string>() },
    "/organization/create": { method: "POST", body: shape<{ name: string }>(), data: shape<string>() },
    "/reset-password": { method: "POST", body: shape<{ newPassword: string }>(), query: shape<{ token?: string }>(), data: shape<string>() },
    "/ok": { method: "GET", data: shape<string>() },
  } as const;
  const methods = buildMethods(routes, fetcher);

  it("turns kebab-case segments into camelCase", () => {
    expect(kebabToCamel("revoke-other-sessions")).toBe("revokeOtherSessions");
    expect(kebabToCamel("sign-in")).toBe("signIn");
    expect(kebabToCamel("ok")).toBe("ok");
  });

  it("nests by path and sends a POST's first argument as its body", async () => {
    await methods.organization.create({ name: "Acme" }, { headers: { "x-test": "1" } });
    expect(sent.at(-1)).toEqual({
      path: "/organization/create",
      call: { method: "POST", body: { name: "Acme" }, query: undefined, headers: { "x-test": "1" } },
    });
  });

  it("sends a GET's first argument as its query", async () => {
    await methods.organization.listInvitations({ organizationId: "o1" });
    expect(sent.at(-1)).toEqual({
      path: "/organization/list-invitations",
      call: { method: "GET", body: undefined, query: { organizationId: "o1" } },
    });
  });

  it("makes a route that is also a parent both callable and a holder of its children", async () => {
    expect(await methods.deleteUser()).toEqual({ data: "/delete-user", error: null });
    expect(await methods.deleteUser.callback({ token: "t" })).toEqual({ data: "/delete-user/callback", error: null });
    expect(sent.at(-1)?.call.query).toEqual({ token: "t" });
  });

  it("takes call options first when a route has no input, and a POST's query from the options", async () => {
    await methods.ok({ disableRedirect: true });
    expect(sent.at(-1)?.call).toEqual({ method: "GET", body: undefined, query: undefined, disableRedirect: true });
    await methods.resetPassword({ newPassword: "x" }, { query: { token: "abc" } });
    expect(sent.at(-1)?.call).toEqual({ method: "POST", body: { newPassword: "x" }, query: { token: "abc" } });
  });
});
