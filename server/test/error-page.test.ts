import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGES } from "../src/email/language.js";
import { ERROR_PAGE_CODES, ERROR_PAGE_MESSAGES } from "../src/http/error-page-messages.js";
import { escapeHtml } from "../src/http/html.js";
import { DIALECTS } from "./helpers/databases.js";
import { TestClient } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/** The text of the page's first element of a kind, tags stripped. */
const textOf = (html: string, tag: string) => new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`).exec(html)?.[1] ?? null;

describe.each(DIALECTS)("#14 Text: the /error page speaks the visitor's language on %s", (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { baseURL: "http://app.test" });
  });
  afterAll(async () => server?.close());
  const page = (query: string, acceptLanguage?: string) =>
    new TestClient(server.base).get(`/error${query}`, { headers: acceptLanguage ? { "accept-language": acceptLanguage } : {} });

  it("#14: Russian and Polish visitors get the page in their language, marked lang=ru / lang=pl, saying what the code means", async () => {
    const russian = await page("?error=state_not_found", "ru-RU,ru;q=0.9,en;q=0.5");
    expect(russian.status).toBe(200);
    expect(russian.text).toContain('<html lang="ru">');
    expect(russian.headers.get("content-language")).toBe("ru");
    expect(russian.headers.get("vary")).toMatch(/accept-language/i);
    expect(textOf(russian.text, "title")).toBe("Ошибка аутентификации");
    expect(textOf(russian.text, "h1")).toBe("Ошибка аутентификации");
    expect(russian.text).toContain(escapeHtml("Сеанс входа истёк или был открыт в другом браузере. Начните заново."));
    expect(russian.text).toContain("Код ошибки: <code>state_not_found</code>");
    expect(russian.text).toContain('<a href="/">Вернуться в приложение</a>');

    const polish = await page("?error=banned&error_description=You%20have%20been%20banned", "pl");
    expect(polish.text).toContain('<html lang="pl">');
    expect(textOf(polish.text, "title")).toBe("Błąd uwierzytelniania");
    expect(polish.text).toContain(escapeHtml(ERROR_PAGE_MESSAGES.pl.codes.banned));
    expect(polish.text).toContain("Kod błędu: <code>banned</code>");
    // The description is anyone's words (it rides in the link), so the page does not repeat them.
    expect(polish.text).not.toContain("You have been banned");
  });

  it("#14: the best of the eight languages by q-value; English when none fits or no header is sent", async () => {
    expect((await page("?error=no_code", "ja, uk;q=0.8, de;q=0.9")).text).toContain('<html lang="de">');
    expect((await page("?error=no_code", "ja, uk;q=0.8, de;q=0.9")).text).toContain(escapeHtml(ERROR_PAGE_MESSAGES.de.codes.no_code));
    expect((await page("?error=no_code", "zh-CN, ja")).text).toContain('<html lang="en">');
    const plain = await page("?error=no_code");
    expect(plain.text).toContain('<html lang="en">');
    expect(textOf(plain.text, "title")).toBe("Authentication Error");
    expect(plain.text).toContain("The sign-in provider didn&#39;t confirm your sign-in. Please try again.");
    expect(plain.text).toContain("Error code: <code>no_code</code>");
  });

  it("#14: an unknown code gets the generic sentence, still escaped; so do names of object properties", async () => {
    const hostile = await page("?error=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E", "fr");
    expect(hostile.text).toContain('<html lang="fr">');
    expect(hostile.text).toContain(escapeHtml(ERROR_PAGE_MESSAGES.fr.unknown));
    expect(hostile.text).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(hostile.text).not.toContain("<img");
    for (const code of ["__proto__", "constructor", "toString"]) {
      const res = await page(`?error=${code}`, "tr");
      expect(res.status, code).toBe(200);
      expect(res.text, code).toContain(escapeHtml(ERROR_PAGE_MESSAGES.tr.unknown));
      expect(res.text, code).toContain(`<code>${code}</code>`);
    }
    const missing = await page("", "uk");
    expect(missing.text).toContain('<html lang="uk">');
    expect(missing.text).toContain("<code>UNKNOWN</code>");
    expect(missing.text).toContain(escapeHtml(ERROR_PAGE_MESSAGES.uk.unknown));
  });

  it("#14: every redirect error code has its own sentence in each of the eight languages", async () => {
    for (const language of LANGUAGES) {
      const res = await page(`?error=${ERROR_PAGE_CODES.join("&error=")}`, language);
      // Repeated ?error= takes the first.
      expect(res.text, language).toContain(escapeHtml(ERROR_PAGE_MESSAGES[language].codes[ERROR_PAGE_CODES[0]]));
    }
    for (const code of ERROR_PAGE_CODES) {
      const res = await page(`?error=${code}`, "es");
      expect(res.text, code).toContain(escapeHtml(ERROR_PAGE_MESSAGES.es.codes[code]));
    }
  });
});

describe("#14 Text: the error page's wording", () => {
  it("#14: every language words the title, label, link, generic sentence and each code, not in English", () => {
    const english = ERROR_PAGE_MESSAGES.en;
    for (const language of LANGUAGES) {
      const messages = ERROR_PAGE_MESSAGES[language];
      expect(Object.keys(messages.codes).sort(), language).toEqual([...ERROR_PAGE_CODES].sort());
      const texts: [string, string, string][] = [
        ["title", messages.title, english.title],
        ["codeLabel", messages.codeLabel, english.codeLabel],
        ["back", messages.back, english.back],
        ["unknown", messages.unknown, english.unknown],
        ...ERROR_PAGE_CODES.map((code): [string, string, string] => [code, messages.codes[code], english.codes[code]]),
      ];
      for (const [key, text, inEnglish] of texts) {
        expect(text.trim().length, `${language}.${key}`).toBeGreaterThan(0);
        if (language !== "en") expect(text, `${language}.${key}`).not.toBe(inEnglish);
      }
    }
  });
});
