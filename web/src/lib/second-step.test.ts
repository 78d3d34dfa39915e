import { describe, expect, it } from "vitest";
import { appPath, isSecondStep, secondStepPath } from "./second-step";

const ORIGIN = "https://auth.example.com";

describe("second step (#15)", () => {
  it("goes on only to a page of this origin", () => {
    expect(appPath("/account/security?tab=1#passkeys", ORIGIN)).toBe("/account/security?tab=1#passkeys");
    expect(appPath(`${ORIGIN}/organization`, ORIGIN)).toBe("/organization");
    expect(appPath("/api/auth/oauth2/authorize?client_id=a", ORIGIN)).toBe("/api/auth/oauth2/authorize?client_id=a");
    for (const elsewhere of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "http://auth.example.com/"]) {
      expect(appPath(elsewhere, ORIGIN), elsewhere).toBe("/");
    }
    for (const nothing of [undefined, null, "", 42, {}]) expect(appPath(nothing, ORIGIN)).toBe("/");
  });

  it("tells the second-step answer from a session", () => {
    expect(isSecondStep({ twoFactorRedirect: true, twoFactorMethods: ["totp"] })).toBe(true);
    expect(isSecondStep({ token: "t", user: {} })).toBe(false);
    expect(isSecondStep({ twoFactorRedirect: "true" })).toBe(false);
    expect(isSecondStep(null)).toBe(false);
  });

  it("carries where to go on in the second step's URL", () => {
    expect(secondStepPath("/")).toBe("/two-factor");
    expect(secondStepPath("/invitation/abc?x=1")).toBe("/two-factor?callbackURL=%2Finvitation%2Fabc%3Fx%3D1");
  });
});
