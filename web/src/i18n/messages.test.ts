import { describe, expect, it } from "vitest";
import { de } from "./de";
import { en } from "./en";
import { es } from "./es";
import { fr } from "./fr";
import { LANGUAGES } from "./languages";
import { pl } from "./pl";
import { ru } from "./ru";
import { tr } from "./tr";
import { uk } from "./uk";

/** Every translation beside English, by language code. */
const TRANSLATIONS: Record<string, unknown> = { de, es, fr, pl, ru, tr, uk };

/** Every string of a message tree, by its dotted key ("signIn.heading"). */
function flatten(tree: unknown, prefix = ""): Map<string, unknown> {
  const entries = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "object" && value !== null) for (const entry of flatten(value, path)) entries.set(...entry);
    else entries.set(path, value);
  }
  return entries;
}

/** The interpolation placeholders of a message, sorted: "{{email}} and {{name}}" gives ["email", "name"]. */
function placeholders(message: string): string[] {
  return [...message.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1]!).sort();
}

const english = flatten(en);

describe("translations", () => {
  it("covers every language of the switcher, and only those", () => {
    expect(Object.keys(TRANSLATIONS).concat("en").sort()).toEqual(LANGUAGES.map((language) => language.code).sort());
  });

  describe.each(Object.entries(TRANSLATIONS))("%s", (code, messages) => {
    const translated = flatten(messages);

    it("has every English key, as a non-empty string, and no others", () => {
      const missing = [...english.keys()].filter((key) => !translated.has(key));
      const extra = [...translated.keys()].filter((key) => !english.has(key));
      const empty = [...translated].filter(([, value]) => typeof value !== "string" || value.trim() === "").map(([key]) => key);
      expect({ missing, extra, empty }).toEqual({ missing: [], extra: [], empty: [] });
    });

    it("uses the same placeholders as English in every message", () => {
      const mismatched = [...english]
        .filter(([key, value]) => {
          const other = translated.get(key);
          return typeof other === "string" && placeholders(other).join() !== placeholders(String(value)).join();
        })
        .map(([key]) => key);
      expect(mismatched).toEqual([]);
    });

    it("is a translation, not a copy of the English text", () => {
      // The product name and a few words shared across languages may match; most messages must not.
      const same = [...english].filter(([key, value]) => translated.get(key) === value).map(([key]) => key);
      expect(same.length, `${code} repeats English in: ${same.join(", ")}`).toBeLessThan(english.size / 20);
    });
  });

  it("#14: names leaving an organization and signing out differently in every language (they sit side by side)", () => {
    for (const [code, messages] of Object.entries({ en, ...TRANSLATIONS })) {
      const words = flatten(messages);
      const signOut = words.get("nav.signOut");
      for (const key of ["organization.members.leave", "organization.members.leaving"]) {
        expect(words.get(key), `${code} ${key}`).not.toBe(signOut);
      }
      expect(words.get("organization.members.leaving"), code).not.toBe(words.get("nav.signingOut"));
    }
  });

  it("has no empty English message and well-formed placeholders", () => {
    for (const [key, value] of english) {
      expect(typeof value === "string" && value.trim() !== "", key).toBe(true);
      const braces = String(value).match(/\{\{|\}\}/g) ?? [];
      expect(braces.length, key).toBe(placeholders(String(value)).length * 2);
    }
  });
});
