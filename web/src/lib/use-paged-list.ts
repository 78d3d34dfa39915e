import { useState } from "react";
import { useDebounced } from "./use-debounced";

export interface PagedList<C extends object, Q> {
  /** The list's controls (search box, filters, sort) as they are now. */
  controls: C;
  /** Sets one control; the list goes back to its first page. */
  set<K extends keyof C>(name: K, value: C[K]): void;
  /** Moves to another page, the controls unchanged. */
  setOffset(offset: number): void;
  /** The request for the controls and page, once typing has paused (250 ms). */
  query: Q;
}

/**
 * The state of a paged, searchable list (the administrators' users and organizations): its controls and the page
 * shown, where changing any control returns to the first page, and the request `build` makes of them, held back
 * while the visitor types so that each keystroke does not ask the server.
 */
export function usePagedList<C extends object, Q>(initial: C, build: (controls: C, offset: number) => Q): PagedList<C, Q> {
  const [state, setState] = useState({ controls: initial, offset: 0 });
  const query = useDebounced(JSON.stringify(build(state.controls, state.offset)), 250);
  return {
    controls: state.controls,
    set: (name, value) => setState((current) => ({ controls: { ...current.controls, [name]: value }, offset: 0 })),
    setOffset: (offset) => setState((current) => ({ ...current, offset })),
    query: JSON.parse(query) as Q,
  };
}
