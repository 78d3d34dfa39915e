import type { AdminUserDetail, AuthError } from "@gatehouse/client";

/**
 * Runs one action on the user (`name` marks which button shows it running), then the page says how it went at
 * its top and reads the user again.
 */
export type Act = (name: string, call: () => Promise<{ error: AuthError | null }>, success: string) => Promise<boolean>;

/** What every card of the user page is given. */
export interface UserCardProps {
  user: AdminUserDetail;
  /** The action running now, if any: every card's buttons wait for it. */
  busy: string | null;
  act: Act;
}
