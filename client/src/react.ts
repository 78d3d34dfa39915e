import { useStore } from "@nanostores/react";
import { createAuthClient as createBaseClient, type AuthClient, type AuthClientOptions } from "./client.js";
import type { AuthError } from "./errors.js";
import type { SessionData } from "./types.js";

export interface UseSessionResult {
  data: SessionData | null;
  error: AuthError | null;
  isPending: boolean;
  isRefetching: boolean;
  refetch(): Promise<void>;
}

/** The session of a client, re-rendering the component whenever it changes. */
export function useSession(client: Pick<AuthClient, "$session">): UseSessionResult {
  const state = useStore(client.$session);
  return {
    data: state.data,
    error: state.error,
    isPending: state.isPending,
    isRefetching: state.isRefetching,
    refetch: client.$session.refetch,
  };
}

export type ReactAuthClient = AuthClient & {
  /** `useSession(client)` bound to this client. */
  useSession(): UseSessionResult;
};

/** The same client as `@gatehouse/client`'s, with a `useSession()` hook. */
export function createAuthClient(options?: AuthClientOptions): ReactAuthClient {
  const client = createBaseClient(options);
  return Object.assign(client, { useSession: () => useSession(client) });
}

export type { AuthClient, AuthClientOptions } from "./client.js";
