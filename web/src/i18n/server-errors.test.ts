import { describe, expect, it } from "vitest";
import { allErrorCodes, ERROR_CATALOGUES } from "../../../server/src/http/error-catalogue.js";
import { de } from "./de";
import { en } from "./en";
import { es } from "./es";
import { fr } from "./fr";
import { pl } from "./pl";
import { ru } from "./ru";
import { tr } from "./tr";
import { uk } from "./uk";

const LOCALES = { en, de, es, fr, pl, ru, tr, uk };

/** Every code the service sends (its error catalogues, server/src/http/error-catalogue.ts). */
const CODES = allErrorCodes();

describe("serverErrors", () => {
  describe.each(Object.entries(LOCALES))("%s", (_language, messages) => {
    const translated = messages.serverErrors as Record<string, string>;

    it("has a sentence for every code of the service", () => {
      expect(CODES.filter((code) => typeof translated[code] !== "string" || translated[code].trim() === "")).toEqual([]);
    });

    it("has no sentence for a code the service no longer sends", () => {
      expect(Object.keys(translated).filter((key) => !CODES.includes(key))).toEqual([]);
    });
  });

  it("speaks to people, not in the server's words: no English sentence repeats the service's message", () => {
    const serverWords = new Set(Object.values(ERROR_CATALOGUES).flatMap((catalogue) => Object.values(catalogue) as string[]));
    const echoed = Object.entries(en.serverErrors).filter(([, sentence]) => serverWords.has(sentence));
    expect(echoed).toEqual([]);
  });
});
