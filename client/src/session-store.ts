import { atom, onMount, type ReadableAtom } from "nanostores";
import type { AuthError } from "./errors.js";
import type { Result } from "./fetcher.js";
import type { SessionData } from "./types.js";

/**
 * How long after a session-changing call the watcher signal fires, so its cookies are in place first. Which calls
 * change the session the server declares on each endpoint (`changesSession`, read from client/src/contract.gen.ts).
 */
export const SESSION_SIGNAL_DELAY_MS = 10;

export interface SessionSignal {
  /** Counts the session changes seen so far; the session store listens to it. */
  $signal: ReadableAtom<number>;
  /** Fires the signal SESSION_SIGNAL_DELAY_MS from now. */
  notify(): void;
}

export function createSessionSignal(): SessionSignal {
  const $signal = atom(0);
  return {
    $signal,
    notify() {
      setTimeout(() => $signal.set($signal.value + 1), SESSION_SIGNAL_DELAY_MS);
    },
  };
}

export interface SessionState {
  /** The session and user, or null when signed out (or not known yet). */
  data: SessionData | null;
  /** The last fetch's error; `data` then keeps what was known before it. */
  error: AuthError | null;
  /** True until the first answer (or failure) arrives. */
  isPending: boolean;
  /** True while a fetch runs after the first answer. */
  isRefetching: boolean;
}

export interface SessionStore extends ReadableAtom<SessionState> {
  /** Fetches the session now and resolves once the store holds the answer. */
  refetch(): Promise<void>;
}

export const INITIAL_SESSION_STATE: SessionState = Object.freeze({
  data: null,
  error: null,
  isPending: true,
  isRefetching: false,
});

/**
 * The session as a store. It fetches on first subscribe and again on every watcher signal while it has
 * listeners; nanostores' onMount drops it 1000 ms after its last listener leaves, and then it no longer
 * follows the signal until someone subscribes again (which fetches afresh).
 */
export function createSessionStore(
  load: () => Promise<Result<SessionData | null>>,
  $signal: ReadableAtom<number>,
): SessionStore {
  const $state = atom<SessionState>(INITIAL_SESSION_STATE);
  let answered = false;
  let latest = 0;
  let latestRun: Promise<void> = Promise.resolve();

  function refetch(): Promise<void> {
    const id = ++latest;
    // Read `.value`, not get(): get() on an unmounted store would mount it and start a second fetch.
    const before = $state.value;
    if (answered && !before.isRefetching) $state.set({ ...before, isRefetching: true });
    const run = load().then((result): Promise<void> | void => {
      // A newer fetch started meanwhile: its answer wins, and this call settles with it.
      if (id !== latest) return latestRun;
      answered = true;
      const current = $state.value;
      $state.set(
        result.error
          ? { data: current.data, error: result.error, isPending: false, isRefetching: false }
          : { data: result.data, error: null, isPending: false, isRefetching: false },
      );
    });
    latestRun = run;
    return run;
  }

  onMount($state, () => {
    void refetch();
    return $signal.listen(() => void refetch());
  });

  return Object.assign($state as ReadableAtom<SessionState>, { refetch });
}
