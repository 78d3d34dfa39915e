import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const ARTIFACTS = resolve(dirname(fileURLToPath(import.meta.url)), "../artifacts");

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** The system's Chromium, headless, with everything that phones home switched off. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/**
 * Waits until the page has drawn two more frames (layout settled, a transition started), or 1 s at most: a page
 * headless Chromium is not drawing (one behind another window) runs no requestAnimationFrame callback, and a wait
 * on one alone would never end (page.evaluate has no timeout).
 */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((done) => {
        const fallback = setTimeout(done, 1_000);
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            clearTimeout(fallback);
            done();
          }),
        );
      }),
  );
}

/**
 * Gives `work` (a page.evaluate, which has no timeout of its own) `ms` to finish, and fails naming `what` when it
 * does not, so a page that stopped answering fails its step instead of hanging the journey until its timeout.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Saves full-page screenshots of what the page shows now, at desktop and phone sizes, as
 * e2e/artifacts/<name>-desktop.png and <name>-phone.png; the page is left at desktop size.
 */
export async function screenshotBothSizes(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.bringToFront();
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    // From the top (a sticky header would otherwise be drawn mid-page), once layout has settled and any
    // focus ring or transition has finished.
    await page.evaluate(() => window.scrollTo(0, 0));
    await nextFrames(page);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${size}.png`), fullPage: true, animations: "disabled" });
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}

/**
 * Opens pages for a journey file, each in a browser context of its own (its own cookies: another person, or the
 * same person on another device), at desktop size, on the service's URL unless told otherwise. `closeAll()` ends
 * them at the end of the file. The browser and URL are read when a page opens (they exist only after beforeAll).
 */
export function pageOpener(browser: () => Browser, baseURL: () => string) {
  const contexts: BrowserContext[] = [];
  return {
    async newPage(options: { baseURL?: string; userAgent?: string } = {}): Promise<Page> {
      const context = await browser().newContext({ baseURL: baseURL(), viewport: VIEWPORTS.desktop, ...options });
      contexts.push(context);
      return context.newPage();
    },
    closeAll: () => Promise.allSettled(contexts.map((context) => context.close())),
  };
}
