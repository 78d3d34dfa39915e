import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Alert } from "./ui/alert";

/** What the last action on a page came to, and which part of the page it belongs to. */
export interface ActionOutcome {
  /** The part of the page that ran the action ("members", "teams"); its <ActionMessage> shows the text. */
  scope: string;
  variant: "success" | "error";
  text: string;
}

interface Store {
  outcome: (ActionOutcome & { serial: number }) | null;
  set(outcome: ActionOutcome | null): void;
}

const ActionContext = createContext<Store | null>(null);

/**
 * One message per page, for the last action taken on it: each action replaces (or, when it starts, clears)
 * the message of the one before, wherever on the page that was, so an old error never sits beside a later
 * success. `initial` is a result carried over from the page that sent the user here.
 */
export function ActionMessages({ initial = null, children }: { initial?: ActionOutcome | null; children: ReactNode }) {
  const [outcome, setOutcome] = useState<Store["outcome"]>(initial ? { ...initial, serial: 0 } : null);
  const serial = useRef(0);
  const set = useCallback((next: ActionOutcome | null) => {
    serial.current += 1;
    setOutcome(next ? { ...next, serial: serial.current } : null);
  }, []);
  const store = useMemo(() => ({ outcome, set }), [outcome, set]);
  return <ActionContext.Provider value={store}>{children}</ActionContext.Provider>;
}

export interface ActionReporter {
  /** Clears the page's message as an action starts. */
  start(): void;
  succeed(text: string): void;
  fail(text: string): void;
}

/** How a part of the page reports its actions' results. */
export function useActionReporter(scope: string): ActionReporter {
  const store = useContext(ActionContext);
  if (!store) throw new Error("useActionReporter needs <ActionMessages> above it");
  const { set } = store;
  return useMemo(
    () => ({
      start: () => set(null),
      succeed: (text: string) => set({ scope, variant: "success", text }),
      fail: (text: string) => set({ scope, variant: "error", text }),
    }),
    [scope, set],
  );
}

/**
 * Where a part of the page shows the result of its last action: successes politely (role="status"), errors
 * as alerts. When the action took away the control that ran it (a removed row), focus lands on the message
 * instead of being lost.
 */
export function ActionMessage({ scope, className }: { scope: string; className?: string }) {
  const store = useContext(ActionContext);
  const ref = useRef<HTMLDivElement>(null);
  const outcome = store?.outcome?.scope === scope ? store.outcome : null;
  const serial = outcome?.serial;

  useEffect(() => {
    if (serial === undefined) return;
    // After the commit that closed a dialog and restored (or could not restore) focus.
    const timer = window.setTimeout(() => {
      const focused = document.activeElement;
      if (!focused || focused === document.body) ref.current?.focus();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [serial]);

  if (!outcome) return null;
  return (
    <div className={className}>
      <Alert key={outcome.serial} ref={ref} variant={outcome.variant} focusable>
        {outcome.text}
      </Alert>
    </div>
  );
}
