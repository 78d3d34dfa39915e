import { useEffect, type RefObject } from "react";

/** What takes focus when a submit fails: an invalid field, or the form-level message. */
const FOCUS_TARGETS = '[aria-invalid="true"], [data-focus-target]';

/**
 * After each failed submit (when `attempt` changes), moves focus to the first invalid field or form-level
 * message in document order, so keyboard and screen-reader users land on what needs fixing.
 */
export function useFocusFirstError(container: RefObject<HTMLElement | null>, attempt: number): void {
  useEffect(() => {
    if (attempt === 0) return;
    const target = container.current?.querySelector<HTMLElement>(FOCUS_TARGETS);
    target?.focus();
  }, [attempt, container]);
}
