import { useEffect, useState } from "react";

/**
 * How many of a page's `count` slices are drawn: 1 as the page first renders, one more in each render after the
 * browser has painted the last (an effect adds it, and the build's Preact runs effects after the paint, in a task of
 * their own), up to `count`. A long page draws what a phone shows first in the first slice and the rest below the
 * fold in the next ones, so no single task of main-thread work blocks the phone for long (Lighthouse's Total
 * Blocking Time counts what each task takes beyond 50 ms; bench/README.md, "Web performance").
 */
export function usePaintedSlices(count: number): number {
  const [painted, setPainted] = useState(1);
  useEffect(() => {
    if (painted < count) setPainted(painted + 1);
  }, [painted, count]);
  return painted;
}

/** False while a component first renders, true from the render after the browser has painted it (two slices). */
export function useAfterFirstPaint(): boolean {
  return usePaintedSlices(2) === 2;
}
