import { describe, expect, it } from "vitest";
import { goOnPath, interactionPath, readReturnTo, secondStepTarget, signInAgain } from "./return-to";

const ORIGIN = "https://auth.example.com";

describe("sign-in returnTo of the OpenID Provider (#16)", () => {
  it("accepts only the provider's interaction path on this origin", () => {
    expect(interactionPath("/api/auth/oauth2/interaction/abc123", ORIGIN)).toBe("/api/auth/oauth2/interaction/abc123");
    for (const refused of [
      "//evil.example/api/auth/oauth2/interaction/x",
      "https://evil.example/api/auth/oauth2/interaction/x",
      `${ORIGIN}/api/auth/oauth2/interaction/x`,
      "javascript:alert(1)//api/auth/oauth2/interaction/",
      "/api/auth/oauth2/interaction/../../sign-out",
      "/api/auth/oauth2/interaction/",
      "/api/auth/sign-out",
      "/account",
      "",
      null,
      42,
    ]) {
      expect(interactionPath(refused, ORIGIN), String(refused)).toBeNull();
    }
  });

  it("reads returnTo and prompt=login from the sign-in URL", () => {
    const returnTo = encodeURIComponent("/api/auth/oauth2/interaction/u1");
    expect(readReturnTo(`?returnTo=${returnTo}`, ORIGIN)).toEqual({ path: "/api/auth/oauth2/interaction/u1", promptLogin: false });
    expect(readReturnTo(`?returnTo=${returnTo}&prompt=login`, ORIGIN)).toEqual({ path: "/api/auth/oauth2/interaction/u1", promptLogin: true });
    expect(readReturnTo("?returnTo=%2F%2Fevil.example&prompt=login", ORIGIN)).toEqual({ path: null, promptLogin: false });
    expect(readReturnTo("", ORIGIN)).toEqual({ path: null, promptLogin: false });
  });

  it("goes on to pages of the app or to the interaction, nothing else", () => {
    expect(goOnPath("/account?x=1", ORIGIN)).toBe("/account?x=1");
    expect(goOnPath("/api/auth/oauth2/interaction/u1", ORIGIN)).toBe("/api/auth/oauth2/interaction/u1");
    for (const home of ["/api/auth/sign-out", "//evil.example", "https://evil.example/", "javascript:alert(1)", undefined]) {
      expect(goOnPath(home, ORIGIN), String(home)).toBe("/");
    }
  });

  it("lets the second step go on to pages of the app or to the interaction, nothing else", () => {
    expect(secondStepTarget("/api/auth/oauth2/interaction/u1", ORIGIN)).toBe("/api/auth/oauth2/interaction/u1");
    expect(secondStepTarget(`${ORIGIN}/account/security?tab=1`, ORIGIN)).toBe("/account/security?tab=1");
    expect(secondStepTarget("/organization", ORIGIN)).toBe("/organization");
    for (const home of [
      "/api/auth/delete-user/callback?token=x",
      `${ORIGIN}/api/auth/magic-link/verify?token=x`,
      "/api/auth/oauth2/interaction/../../sign-out",
      "//evil.example/api/auth/oauth2/interaction/u1",
      "https://evil.example/account",
      null,
    ]) {
      expect(secondStepTarget(home, ORIGIN), String(home)).toBe("/");
    }
  });

  it("starts a sign-in over towards the same place: the interaction in the URL, a page of the app in the state", () => {
    expect(signInAgain("/api/auth/oauth2/interaction/u1")).toEqual({ to: "/sign-in?returnTo=%2Fapi%2Fauth%2Foauth2%2Finteraction%2Fu1" });
    expect(signInAgain("/account")).toEqual({ to: "/sign-in", state: { from: "/account" } });
    expect(signInAgain("/")).toEqual({ to: "/sign-in" });
  });
});
