import { describe, expect, expectTypeOf, it } from "vitest";
import {
  changesSession,
  createAuthClient,
  ERROR_CODES,
  NAVIGATIONS,
  ROUTES,
  type ErrorCode,
  type FullOrganization,
  type RouteData,
  type User,
} from "../src/index.js";
import { kebabToCamel } from "../src/method-tree.js";

/**
 * The client is built from the generated contract (src/contract.gen.ts), never from a table of its own: these
 * tests read the generated tables and check the client follows them. server/test/contract.test.ts checks the file
 * is what the server's endpoints print.
 */
describe("the client built from the generated contract", () => {
  const client = createAuthClient({ baseURL: "https://auth.example.com" });

  it("has a method for every route of the table", () => {
    for (const path of Object.keys(ROUTES)) {
      const method = path
        .slice(1)
        .split("/")
        .map(kebabToCamel)
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], client);
      expect(typeof method, path).toBe("function");
    }
    // Routes the hand-written table lacked before the contract was generated.
    expect(typeof client.organization.getOrganization).toBe("function");
    expect(typeof client.organization.setActiveTeam).toBe("function");
    expect(typeof client.organization.getActiveMemberRole).toBe("function");
  });

  it("reads which calls change the session from the server's declarations", () => {
    expect(changesSession("/sign-in/email")).toBe(true);
    expect(changesSession("/organization/set-active")).toBe(true);
    expect(changesSession("/admin/stop-impersonating")).toBe(true);
    expect(changesSession("/ok")).toBe(false);
    expect(changesSession("/revoke-other-sessions")).toBe(false);
    expect(changesSession("/not-a-route")).toBe(false);
  });

  it("builds the URLs of navigation routes instead of fetching them", () => {
    expect(Object.keys(NAVIGATIONS)).toEqual(expect.arrayContaining(["/callback/:id", "/reset-password/:token", "/error"]));
    expect(client.$url("/callback/:id", { params: { id: "google" } })).toBe("https://auth.example.com/api/auth/callback/google");
    expect(client.$url("/reset-password/:token", { params: { token: "a/b" }, query: { callbackURL: "/reset" } })).toBe(
      "https://auth.example.com/api/auth/reset-password/a%2Fb?callbackURL=%2Freset",
    );
    expect(client.$url("/error", { query: { error: "state_mismatch" } })).toBe(
      "https://auth.example.com/api/auth/error?error=state_mismatch",
    );
    const typeOnly = () => {
      // @ts-expect-error a path with a parameter needs it
      void client.$url("/callback/:id");
      // @ts-expect-error fetch routes are methods, not navigation URLs
      void client.$url("/sign-in/email");
    };
    expect(typeof typeOnly).toBe("function");
  });

  it("types answers from the server's response schemas", () => {
    expectTypeOf<RouteData<"/admin/update-user">>().toEqualTypeOf<User>();
    expectTypeOf<User["banned"]>().toEqualTypeOf<boolean>();
    expectTypeOf<FullOrganization["members"][number]["user"]["email"]>().toEqualTypeOf<string>();
    expectTypeOf<Awaited<ReturnType<typeof client.organization.getOrganization>>["data"]>().toEqualTypeOf<
      RouteData<"/organization/get-organization"> | null
    >();
  });

  it("lists the server's error codes", () => {
    expect(ERROR_CODES.length).toBeGreaterThan(50);
    expect(ERROR_CODES).toContain("INVALID_EMAIL_OR_PASSWORD");
    expectTypeOf<"INVALID_EMAIL_OR_PASSWORD">().toMatchTypeOf<ErrorCode>();
  });
});
