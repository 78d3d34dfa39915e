import type { SessionData } from "@gatehouse/client";
import { createContext, useContext } from "react";

/** The signed-in session, provided by RequireSession to the pages below it. */
export const CurrentSessionContext = createContext<SessionData | null>(null);

/** The session and user of a page behind RequireSession; never null there. */
export function useCurrentSession(): SessionData {
  const session = useContext(CurrentSessionContext);
  if (!session) throw new Error("useCurrentSession() is only available below <RequireSession>");
  return session;
}
