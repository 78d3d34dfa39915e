import { useEffect, useState } from "react";

/**
 * False while a component first renders, true from the render after the browser has painted it (an effect flips it,
 * and the build's Preact runs effects after the paint, in a task of their own). A long page draws what is below the
 * fold in that second render, so no single task of main-thread work blocks the phone for long (Lighthouse's Total
 * Blocking Time counts what each task takes beyond 50 ms; bench/README.md, "Web performance").
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => setPainted(true), []);
  return painted;
}
