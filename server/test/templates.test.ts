import { describe, expect, it } from "vitest";
import { fromAcceptLanguage, LANGUAGE_IDS, LANGUAGES, pickLanguage, toLanguage } from "../src/email/language.js";
import { CATALOGS } from "../src/email/locales/index.js";
import { renderMail, renderNotice, type MailKind } from "../src/email/templates.js";
import { formatDuration } from "../src/email/duration.js";

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

/** A link's life in each unit, for the duration tests: 1, 2, 5, 21, 22 and 25 of them. */
const AMOUNTS = [1, 2, 5, 21, 22, 25];
const SECONDS = { minute: 60, hour: 3600, day: 86_400 } as const;

describe("#14 durations in mail: CLDR plural rules and the case the sentence needs", () => {
  // Days start at two (one day is said as 24 hours), so "1 day" is checked through 86 400 s = 24 hours below.
  const EXPECTED: Record<"pl" | "ru" | "uk", Record<keyof typeof SECONDS, string[]>> = {
    pl: {
      minute: ["1 minutę", "2 minuty", "5 minut", "21 minut", "22 minuty", "25 minut"],
      hour: ["1 godzinę", "2 godziny", "5 godzin", "21 godzin", "22 godziny", "25 godzin"],
      day: ["1 dzień", "2 dni", "5 dni", "21 dni", "22 dni", "25 dni"],
    },
    ru: {
      minute: ["1 минуту", "2 минуты", "5 минут", "21 минуту", "22 минуты", "25 минут"],
      hour: ["1 час", "2 часа", "5 часов", "21 час", "22 часа", "25 часов"],
      day: ["1 день", "2 дня", "5 дней", "21 день", "22 дня", "25 дней"],
    },
    uk: {
      minute: ["1 хвилину", "2 хвилини", "5 хвилин", "21 хвилину", "22 хвилини", "25 хвилин"],
      hour: ["1 годину", "2 години", "5 годин", "21 годину", "22 години", "25 годин"],
      day: ["1 день", "2 дні", "5 днів", "21 день", "22 дні", "25 днів"],
    },
  };

  it.each(["pl", "ru", "uk"] as const)("#14: %s says 1, 2, 5, 21, 22 and 25 minutes, hours and days in its own forms", (language) => {
    for (const unit of ["minute", "hour"] as const) {
      expect(AMOUNTS.map((n) => formatDuration(n * SECONDS[unit], language)), `${language} ${unit}`).toEqual(EXPECTED[language][unit]);
    }
    // One day is 24 hours; from two days up a whole number of days is said in days.
    const days = AMOUNTS.map((n) => formatDuration(n * SECONDS.day, language));
    expect(days.slice(1), `${language} day`).toEqual(EXPECTED[language].day.slice(1));
  });

  it("#14: the other languages say one and many", () => {
    expect([3600, 7200, 60, 300, 172_800].map((s) => formatDuration(s, "en"))).toEqual([
      "1 hour",
      "2 hours",
      "1 minute",
      "5 minutes",
      "2 days",
    ]);
    expect([3600, 7200, 60, 172_800].map((s) => formatDuration(s, "de"))).toEqual(["1 Stunde", "2 Stunden", "1 Minute", "2 Tage"]);
    expect([3600, 7200, 60, 172_800].map((s) => formatDuration(s, "es"))).toEqual(["1 hora", "2 horas", "1 minuto", "2 días"]);
    expect([3600, 7200, 60, 172_800].map((s) => formatDuration(s, "fr"))).toEqual(["1 heure", "2 heures", "1 minute", "2 jours"]);
    expect([3600, 7200, 60, 172_800].map((s) => formatDuration(s, "tr"))).toEqual(["1 saat", "2 saat", "1 dakika", "2 gün"]);
  });

  it("#14: the Polish verification mail says the link is valid for 1 godzinę (not godzina)", () => {
    const mail = renderMail("verification", "pl", { name: "Ola", email: "ola@example.com", url: "https://x.example/v", expiresIn: 3600 });
    expect(mail.text).toContain("Link jest ważny przez 1 godzinę.");
    expect(mail.text).not.toContain("godzina");
    const reset = renderMail("resetPassword", "ru", { name: "Оля", email: "o@example.com", url: "https://x.example/r", expiresIn: 21 * 60 });
    expect(reset.text).toContain("Ссылка действительна 21 минуту.");
  });
});
