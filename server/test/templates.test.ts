import { describe, expect, it } from "vitest";
import { fromAcceptLanguage, LANGUAGE_IDS, LANGUAGES, pickLanguage, toLanguage } from "../src/email/language.js";
import { CATALOGS } from "../src/email/locales/index.js";
import { renderMail, renderNotice, type MailKind } from "../src/email/templates.js";

const KINDS: MailKind[] = ["verification", "resetPassword", "changeEmail", "deleteAccount", "invitation"];

/** Every key path of a catalog, e.g. "verification.subject". */
function keysOf(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe("mail templates", () => {
  const english = keysOf(CATALOGS.en).sort();

  it.each(LANGUAGES)("%s has every message key English has, each non-empty", (language) => {
    const keys = keysOf(CATALOGS[language]).sort();
    expect(keys).toEqual(english);
    for (const key of keys) {
      const text = key.split(".").reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], CATALOGS[language]);
      expect(typeof text === "string" && text.trim().length > 0, `${language}.${key}`).toBe(true);
    }
  });

  it.each(LANGUAGES)("%s renders every message as text and HTML with the link and no placeholder left", (language) => {
    for (const kind of KINDS) {
      const url = "https://auth.example.com/api/auth/x?token=abc&callbackURL=%2F";
      const mail = renderMail(kind, language, {
        name: "Zoë <b>",
        email: "zoe@example.com",
        url,
        expiresIn: 3600,
        newEmail: "new@example.com",
        organizationName: "Acme & <Co>",
        inviterName: "Ada Lovelace",
        inviterEmail: "ada@example.com",
      });
      expect(mail.subject.length).toBeGreaterThan(0);
      expect(mail.text).toContain(url);
      expect(mail.html).toContain(url.replace(/&/g, "&amp;"));
      expect(mail.html).toContain(`lang="${language}"`);
      expect(mail.html).not.toContain("<b>");
      expect(mail.html).toContain("Zoë &lt;b&gt;");
      for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toMatch(/\{[a-zA-Z]+\}/);
      if (kind === "changeEmail") expect(mail.text).toContain("new@example.com");
      if (kind === "invitation") {
        // The invitation names the organization and the inviter, escaped in HTML, and closes with its own line.
        for (const part of [mail.subject, mail.text]) expect(part).toContain("Acme & <Co>");
        expect(mail.text).toContain("Ada Lovelace");
        expect(mail.text).toContain("ada@example.com");
        expect(mail.html).toContain("Acme &amp; &lt;Co&gt;");
        expect(mail.html).not.toContain("<Co>");
        expect(mail.text).toContain(CATALOGS[language].invitation.ignore);
        expect(mail.text).not.toContain(CATALOGS[language].ignore);
      }
    }
  });

  it.each(LANGUAGES)("#14: %s renders the password-changed and email-changed notices: what happened, what to do, no token", (language) => {
    const password = renderNotice("passwordChanged", language, {
      name: "Zoë <b>",
      email: "zoe@example.com",
      url: "https://app.example.com/forgot-password",
    });
    expect(password.subject).toBe(CATALOGS[language].passwordChanged.subject);
    expect(password.text).toContain("zoe@example.com");
    expect(password.text).toContain(CATALOGS[language].passwordChanged.advice);
    expect(password.text).toContain(`${CATALOGS[language].passwordChanged.action}: https://app.example.com/forgot-password`);
    expect(password.html).toContain('href="https://app.example.com/forgot-password"');
    const email = renderNotice("emailChanged", language, { name: "Zoë <b>", email: "old@example.com", newEmail: "new@example.com" });
    expect(email.text).toContain("old@example.com");
    expect(email.text).toContain("new@example.com");
    expect(email.text).not.toMatch(/https?:/);
    for (const mail of [password, email]) {
      expect(mail.html).toContain(`lang="${language}"`);
      expect(mail.html).toContain("Zoë &lt;b&gt;");
      expect(mail.html).not.toContain("<b>");
      // A notice asks for nothing: no expiry line, no "ignore this email".
      expect(mail.text).not.toContain(CATALOGS[language].ignore);
      for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toMatch(/\{[a-zA-Z]+\}/);
    }
  });

  it("#14: the confirmation sent to the current address says it asks to confirm a change, not a new address", () => {
    expect(CATALOGS.en.changeEmail.subject).toBe("Confirm the change of your email address");
    for (const language of LANGUAGES) expect(CATALOGS[language].changeEmail.subject).not.toBe(CATALOGS[language].verification.subject);
  });

  it("maps SPEC.md's numeric ids and Accept-Language to the eight languages", () => {
    expect(LANGUAGE_IDS).toEqual({ 0: "ru", 1: "uk", 3: "en", 4: "es", 6: "de", 15: "pl", 16: "fr", 82: "tr" });
    expect(toLanguage(82)).toBe("tr");
    expect(toLanguage("15")).toBe("pl");
    expect(toLanguage("de-AT")).toBe("de");
    expect(toLanguage(2)).toBeNull();
    expect(fromAcceptLanguage("ja, uk;q=0.8, ru;q=0.9")).toBe("ru");
    expect(fromAcceptLanguage("zh-CN")).toBeNull();
    expect(pickLanguage("es", "de")).toBe("es");
    expect(pickLanguage(null, "de-DE,de;q=0.9")).toBe("de");
    expect(pickLanguage(null, undefined)).toBe("en");
  });
});
