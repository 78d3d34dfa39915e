import { describe, expect, it } from "vitest";
import { ERROR_PAGE_TEXTS } from "../../../server/src/http/error-page-messages.gen.js";
import { de } from "./de";
import { en } from "./en";
import { es } from "./es";
import { fr } from "./fr";
import { LANGUAGES } from "./languages";
import { pl } from "./pl";
import { ru } from "./ru";
import { tr } from "./tr";
import { uk } from "./uk";

const LOCALES = { de, en, es, fr, pl, ru, tr, uk };

/**
 * The service's own error page takes its sentences from these translations (errorPage), through a generated
 * module; this fails while that module is out of date.
 */
describe("the service's error page texts (server/src/http/error-page-messages.gen.ts)", () => {
  it("cover the app's languages", () => {
    expect(Object.keys(ERROR_PAGE_TEXTS).sort()).toEqual(LANGUAGES.map((language) => language.code).sort());
  });

  it.each(Object.entries(LOCALES))("%s: are the web app's, as generated (npm run error-page-messages -w @gatehouse/web)", (code, messages) => {
    const page = messages.errorPage;
    expect(ERROR_PAGE_TEXTS[code as keyof typeof ERROR_PAGE_TEXTS]).toEqual({
      title: page.serviceTitle,
      codeLabel: page.codeLabel,
      back: page.backToApp,
      unknown: page.unknown,
      codes: page.codes,
    });
  });
});
