import { describe, expect, it } from "vitest";
import { EVENT_TYPES as SERVER_TYPES, typesMatching } from "../../../server/src/events/types.js";
import { en } from "../i18n/en";
import { CHANGE_TYPES, EVENT_NOUNS, EVENT_TYPES, ORGANIZATION_TYPES, SECURITY_TYPES, SIGN_IN_TYPES, typeFilterOf } from "./event-types";

describe("event types (issue #17)", () => {
  it("lists the service's types in its order, each with a label", () => {
    expect([...EVENT_TYPES]).toEqual([...SERVER_TYPES]);
    const labels = en.activity.types as Record<string, Record<string, string>>;
    for (const type of EVENT_TYPES) {
      const [noun, verb] = type.split(".") as [string, string];
      expect(labels[noun]?.[verb], type).toBeTruthy();
    }
    for (const noun of EVENT_NOUNS) expect(en.activity.nouns[noun], noun).toBeTruthy();
  });

  it("keeps only filters the service takes from an address", () => {
    expect(typeFilterOf("user.banned")).toBe("user.banned");
    expect(typeFilterOf("sign_in.*")).toBe("sign_in.*");
    expect(typeFilterOf("")).toBe("");
    expect(typeFilterOf(null)).toBe("");
    for (const bad of ["user", "user.", "*", "nothing.*", "user.banned,user.created", "USER.BANNED"]) expect(typeFilterOf(bad), bad).toBe("");
  });

  it("asks the security page's and organization page's views with prefixes that each name types", () => {
    for (const pattern of [...SECURITY_TYPES, ...SIGN_IN_TYPES, ...CHANGE_TYPES, ...ORGANIZATION_TYPES]) {
      expect(typesMatching(pattern).length, pattern).toBeGreaterThan(0);
    }
    // The security page's views are parts of its whole; no organization event is in it.
    const all = new Set(SECURITY_TYPES.flatMap(typesMatching));
    for (const pattern of [...SIGN_IN_TYPES, ...CHANGE_TYPES]) for (const type of typesMatching(pattern)) expect(all.has(type), type).toBe(true);
    for (const type of ORGANIZATION_TYPES.flatMap(typesMatching)) expect(all.has(type), type).toBe(false);
  });
});
