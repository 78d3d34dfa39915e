import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { allErrorCodes, ERROR_CATALOGUES, FIXED_CODES } from "../src/http/error-catalogue.js";
import { codeOf, fillMessage } from "../src/http/errors.js";

/**
 * Every fixed code, by domain, and why its message does not give it (http/error-catalogue.ts FIXED_CODES).
 * Adding an exception means adding it here: none slips in unnoticed.
 */
const EXPECTED_FIXED_CODES: Record<
  keyof typeof FIXED_CODES,
  Record<string, "configured" | "value" | "status" | "spelling" | "plugin">
> = {
  http: { VALIDATION_ERROR: "value", UNSUPPORTED_MEDIA_TYPE: "value", CONTENT_TYPE_IS_REQUIRED: "value", SERVICE_UNAVAILABLE: "status" },
  credentials: { BANNED_USER: "configured", EMAIL_NOT_VERIFIED: "spelling" },
  user: { FIELD_NOT_ALLOWED: "value" },
  social: { PROVIDER_NOT_FOUND: "value", TOKEN_REFRESH_NOT_SUPPORTED: "value" },
  organization: { INVITATION_NOT_FOUND: "spelling" },
  admin: { USER_NOT_FOUND: "spelling" },
  // Better Auth's twoFactor plugin sends these codes with messages that do not give them (API-NOTES-PLUGINS.md 2.5).
  twoFactor: {
    TOTP_ALREADY_ENABLED: "plugin",
    TWO_FACTOR_NOT_ENABLED: "plugin",
    BACKUP_CODES_NOT_ENABLED: "plugin",
    TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: "plugin",
    ACCOUNT_TEMPORARILY_LOCKED: "plugin",
  },
};

const catalogueEntries = Object.entries(ERROR_CATALOGUES).flatMap(([domain, catalogue]) =>
  Object.entries(catalogue as Record<string, string>).map(([code, message]) => ({ domain, code, message })),
);

const SOURCE_ROOT = fileURLToPath(new URL("../src", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("error catalogues", () => {
  it("gives every entry its message's code as key (SPEC.md section 8: upper-cased, spaces as underscores)", () => {
    const wrong = catalogueEntries
      .filter(({ code, message }) => codeOf(message) !== code)
      .map(({ domain, code, message }) => `${domain}.${code}: ${JSON.stringify(message)} gives ${codeOf(message)}`);
    expect(wrong).toEqual([]);
  });

  it("never gives one code two different messages across catalogues", () => {
    const byCode = new Map<string, Set<string>>();
    for (const { code, message } of catalogueEntries) byCode.set(code, (byCode.get(code) ?? new Set()).add(message));
    const clashes = [...byCode].filter(([, messages]) => messages.size > 1).map(([code, messages]) => `${code}: ${[...messages].join(" | ")}`);
    expect(clashes).toEqual([]);
  });

  it("holds exactly the fixed codes listed here, each an exception for the reason given", () => {
    const actual = Object.fromEntries(
      Object.entries(FIXED_CODES).map(([domain, section]) => [domain, Object.keys(section).sort()]),
    );
    const expected = Object.fromEntries(
      Object.entries(EXPECTED_FIXED_CODES).map(([domain, codes]) => [domain, Object.keys(codes).sort()]),
    );
    expect(actual).toEqual(expected);

    const catalogued = new Map(catalogueEntries.map(({ code, message }) => [code, message]));
    for (const [domain, section] of Object.entries(FIXED_CODES)) {
      for (const [code, message] of Object.entries(section as Record<string, string>)) {
        const reason = EXPECTED_FIXED_CODES[domain as keyof typeof FIXED_CODES][code];
        const where = `${domain}.${code}`;
        const placeholders = message.match(/\{\w+\}/g) ?? [];
        if (reason === "spelling") {
          // A second spelling of a catalogued code: the same code, a message other than the catalogue's.
          expect(codeOf(message), where).toBe(code);
          expect(catalogued.get(code), where).toBeDefined();
          expect(catalogued.get(code), where).not.toBe(message);
        } else {
          expect(codeOf(message), where).not.toBe(code);
        }
        if (reason === "value") expect(placeholders.length, `${where} names its value`).toBeGreaterThan(0);
        else expect(placeholders, where).toEqual([]);
      }
    }
  });

  it("lists every code once, sorted, catalogued and fixed", () => {
    const codes = allErrorCodes();
    expect(codes).toEqual([...new Set(codes)].sort());
    expect(codes).toContain("BANNED_USER");
    expect(codes).toContain("VALIDATION_ERROR");
    expect(codes).toContain("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    for (const { code } of catalogueEntries) expect(codes).toContain(code);
  });

  it("fills a fixed message's placeholders and leaves unknown ones", () => {
    expect(fillMessage(FIXED_CODES.user.FIELD_NOT_ALLOWED, { field: "role" })).toBe("role is not allowed to be set");
    expect(fillMessage("{a} and {b}", { a: "x" })).toBe("x and {b}");
  });

  it("is where every APIError takes its message: no `new APIError(` in server/src with a literal message", () => {
    const literal = /new APIError\(\s*[^,()]+,\s*["'`]/g;
    for (const sample of ['new APIError("BAD_REQUEST", "Oops")', "new APIError(\n  415,\n  `Type ${type}`)"]) {
      expect(sample).toMatch(literal);
      literal.lastIndex = 0;
    }
    expect('new APIError("BAD_REQUEST", HTTP_MESSAGES.NOT_FOUND)').not.toMatch(literal);
    literal.lastIndex = 0;
    const offenders: string[] = [];
    for (const file of sourceFiles(SOURCE_ROOT)) {
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(literal)) {
        const line = text.slice(0, match.index).split("\n").length;
        offenders.push(`${relative(SOURCE_ROOT, file)}:${line}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
