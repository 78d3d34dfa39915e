import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { i18nReady } from "./i18n";
import { queries } from "./lib/data";
import { followSavedLanguage } from "./lib/language";
import { AppRoutes, preloadPage } from "./router";
import "./styles/tokens.css";
import "./styles/base.css";

// A signed-in user's saved language replaces the one the app started in, as soon as the session is known.
followSavedLanguage();

// What the service has turned on (GET /features: password and username rules, sign-in methods) shapes most pages:
// it is read now, beside the session and the first page's chunks, so the first render has it (read once a load).
queries.features().listen(() => {});

/**
 * A page's chunk that cannot be fetched is most often one a newer release has replaced while this tab stayed open:
 * the page is loaded again (once a minute at most, so a chunk that is really gone does not loop).
 */
const RELOADED_KEY = "gatehouse.chunkReload";
window.addEventListener("vite:preloadError", (event) => {
  try {
    const last = Number(window.sessionStorage.getItem(RELOADED_KEY) ?? 0);
    if (Date.now() - last < 60_000) return;
    window.sessionStorage.setItem(RELOADED_KEY, String(Date.now()));
  } catch {
    return;
  }
  event.preventDefault();
  window.location.reload();
});

// The first render waits for the visitor's language, the first page and the data that page shows first (router.tsx),
// fetched side by side: it shows the page whole, in that language, with no flash of English, no placeholder that
// shifts, and no second render per answer coming in.
void Promise.all([i18nReady, preloadPage(window.location.pathname)])
  .catch(() => undefined)
  .then(() => {
    const root = createRoot(document.getElementById("root")!);
    // A transition, so that React would render the first page in slices; the build's Preact (web/vite.config.ts)
    // renders it at once, in one task.
    startTransition(() => {
      root.render(
        <StrictMode>
          {/*
            Navigations are not transitions: the page shown always belongs to the address, so a guard never acts on
            the page being left (a transition kept it, and its session guard, while the next page's chunk came in).
          */}
          <BrowserRouter useTransitions={false}>
            <AppRoutes />
          </BrowserRouter>
        </StrictMode>,
      );
    });
  });
