import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { withDeadline } from "./browser.js";

/** axe-core's browser bundle, read once. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules) on what the page shows now and returns its violations, each with the
 * selectors of the elements at fault. The script goes in through page.evaluate, not a <script> tag: the app's
 * Content-Security-Policy refuses injected scripts, and evaluate runs outside it.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await withDeadline(page.evaluate(() => "axe" in window), 30_000, "axe-core: is it loaded");
  if (!loaded) await withDeadline(page.evaluate(AXE_SOURCE), 30_000, "axe-core: loading it");
  const run = page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
    interface AxeResults {
      violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
    }
    const results = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.map(String).join(" ")),
    }));
  });
  return withDeadline(run, 30_000, `axe-core on ${page.url()}`);
}

/** Fails with axe-core's findings, one line each, when the page shows any violation. */
export async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  if (violations.length > 0) {
    const lines = violations.map((v) => `${v.id} (${v.impact ?? "?"}): ${v.help} at ${v.targets.join(", ")}`);
    throw new Error(`axe-core on ${where}:\n${lines.join("\n")}`);
  }
}

/**
 * Opens `path` (unless null: the page as it is), waits until its h1 reads `heading`, and fails on any axe-core
 * violation of what it then shows.
 */
export async function expectPageAccessible(page: Page, path: string | null, heading: string, where = path ?? heading): Promise<void> {
  if (path !== null) await page.goto(path);
  await page.getByRole("heading", { level: 1, name: heading, exact: true }).waitFor();
  await expectNoAxeViolations(page, where);
}
