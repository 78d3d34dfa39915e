import { useTranslation } from "react-i18next";
import { EVENT_NOUNS, EVENT_TYPES, isKnownEventType, type EventType } from "../../lib/event-types";
import { useEventText } from "../../lib/use-event-text";

/** One kind of events ("user"): the noun of its types. */
export type EventNoun = (typeof EVENT_NOUNS)[number];

/**
 * What an endpoint's filter asks for, as the form edits it: every event, or whole kinds (`user.*`) and single
 * types. The service takes the same patterns (exact types, `noun.*`, `*`); a newer kind it knows and this app does
 * not is kept as it was written.
 */
export interface EventChoice {
  every: boolean;
  nouns: Set<string>;
  types: Set<string>;
}

export const EVERY_EVENT: EventChoice = { every: true, nouns: new Set(), types: new Set() };

export function choiceOf(patterns: readonly string[] | null): EventChoice {
  if (patterns === null || patterns.includes("*")) return EVERY_EVENT;
  const nouns = new Set(patterns.filter((p) => p.endsWith(".*")).map((p) => p.slice(0, -2)));
  const types = new Set(patterns.filter((p) => !p.endsWith(".*")));
  return { every: false, nouns, types };
}

/** The patterns to send: null for every event; a type inside a chosen kind is left out (the kind covers it). */
export function patternsOf(choice: EventChoice): string[] | null {
  if (choice.every) return null;
  const kinds = [...choice.nouns].map((noun) => `${noun}.*`);
  const single = [...choice.types].filter((type) => !choice.nouns.has(type.split(".")[0] ?? ""));
  return [...kinds, ...single];
}

/** The types of a kind, in the service's order. */
export function typesOf(noun: string): EventType[] {
  return EVENT_TYPES.filter((type) => type.startsWith(`${noun}.`));
}

/** An endpoint's filter in words: "Every event", or its kinds and types by name. */
export function useEventFilterText(): (patterns: readonly string[] | null) => string[] {
  const { t } = useTranslation();
  const text = useEventText();
  return (patterns) => {
    if (patterns === null || patterns.includes("*")) return [t("admin.webhooks.allEvents")];
    return patterns.map((pattern) => {
      if (pattern.endsWith(".*")) {
        const noun = pattern.slice(0, -2);
        return (EVENT_NOUNS as readonly string[]).includes(noun)
          ? t("admin.webhooks.everyOfKind", { kind: t(`activity.nouns.${noun as EventNoun}`) })
          : pattern;
      }
      return isKnownEventType(pattern) ? text.label(pattern) : pattern;
    });
  };
}
