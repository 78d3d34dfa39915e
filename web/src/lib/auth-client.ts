import { createAuthClient } from "@gatehouse/client/react";
import { i18n } from "../i18n";

/**
 * The app's only way to the API. The app is served by the service itself (or proxied to it by Vite in
 * development), so calls go to the page's own origin under /api/auth.
 *
 * Every call says which language the app is showing: the service writes mail in the user's saved language,
 * else in this one, so a visitor who resets a password from the German page gets a German email.
 */
export const authClient = createAuthClient({
  headers: () => ({ "accept-language": i18n.language }),
});
