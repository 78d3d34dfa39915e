import { createAuthClient } from "@gatehouse/client/react";

/**
 * The app's only way to the API. The app is served by the service itself (or proxied to it by Vite in
 * development), so calls go to the page's own origin under /api/auth.
 */
export const authClient = createAuthClient();
