import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import "./i18n";
import { followSavedLanguage } from "./lib/language";
import { router } from "./router";
import "./styles/tokens.css";
import "./styles/base.css";

// A signed-in user's saved language replaces the one the app started in, as soon as the session is known.
followSavedLanguage();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
