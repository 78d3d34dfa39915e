import { nanoquery, type FetcherStore } from "@nanostores/query";
import { useStore } from "@nanostores/react";
import { atom, computed, type ReadableAtom } from "nanostores";
import {
  AuthClientError,
  type AdminListEventsQuery,
  type AdminListOrganizationsQuery,
  type AdminListUsersQuery,
  type AdminWebhooksListDeliveriesQuery,
  type WebhookDelivery,
  type ListSecurityEventsQuery,
  type OrganizationListEventsQuery,
  type AuthError,
  type Result,
  type SessionData,
} from "@gatehouse/client";
import { authClient } from "./auth-client";
import { registerPasskey } from "./passkeys";

/*
 * The web app's one data layer: every read of the API goes through a query here (cached, shared by the
 * components that show it, read again when a change makes it stale), and every change that makes a read stale
 * goes through a mutation here, which says which reads it touched.
 *
 * Built on @nanostores/query (about 2 kB), since nanostores is already the client's session store.
 *
 * Keys. A key is "<scope>/<path>": the scope is "g" for what is the same for everyone (GET /features, whether
 * a username is free) and "s:<session id>" for what the signed-in session may see. Another session (signing
 * out and in, impersonating) therefore reads everything afresh and never shows the previous user's cache.
 * Paths end with "/", so a path is also the prefix of everything below it ("org/" covers each organization).
 */

/** Every answer read, by key (nanoquery's cache, ours so that entries can be marked stale without a read). */
const cache = new Map<string, { data?: unknown; error?: unknown; created?: number; expires?: number }>();

const [createFetcherStore, , { revalidateKeys }] = nanoquery({
  cache,
  // Each component that shows a query reads it again as it mounts (as the pages always did), but shows the
  // cached answer meanwhile; components mounting together share one read.
  dedupeTime: 0,
  // A failed read says so (with a "Try again" button) instead of retrying behind the user's back.
  onErrorRetry: false,
  // A tab that comes back to the front reads again what it shows.
  revalidateOnFocus: true,
});

/** A cached read: `useQuery(query)` shows it. */
export type Query<T> = FetcherStore<T, AuthError>;

/** The key paths, session-relative unless said otherwise; mutations name the ones they make stale. */
export const keys = {
  /** Global: GET /features. */
  features: "features/",
  /** Global: whether a username is free (`username/<name>/`). */
  username: "username/",
  /** Global: whether an organization slug is free (`slug/<slug>/`). */
  slug: "slug/",
  /** Global: the development outbox. */
  devOutbox: "dev-outbox/",
  /** The user's pending invitations (`invitations/<verified>/`). */
  invitations: "invitations/",
  /** One invitation's details (`invitation/<id>/<verified>/`). */
  invitation: (id: string) => `invitation/${encodeURIComponent(id)}/`,
  /** The organizations the user belongs to. */
  organizations: "organizations/",
  /** Everything about one organization (`org/<id>/…`); `keys.organization()` is every organization. */
  organization: (id?: string | null) => (id === undefined ? "org/" : `org/${id ?? "-"}/`),
  sessions: "sessions/",
  accounts: "accounts/",
  /** The user's passkeys. */
  passkeys: "passkeys/",
  /** The user's second factors and trusted browsers (GET /two-factor/get-factors). */
  factors: "factors/",
  /** The user's own security activity, page by page (`security-events/<query>/`). */
  securityEvents: "security-events/",
  /** Administration: user lists (`admin/users/<query>/`). */
  adminUsers: "admin/users/",
  /** Administration: one user and their sessions (`admin/user/<id>/…`). */
  adminUser: (id?: string) => (id === undefined ? "admin/user/" : `admin/user/${id}/`),
  /** Administration: the audit log, page by page (`admin/events/<query>/`). */
  adminEvents: "admin/events/",
  /** Administration: organization lists (`admin/organizations/<query>/`). */
  adminOrganizations: "admin/organizations/",
  /** Administration: one organization (`admin/organization/<id>/`). */
  adminOrganization: (id?: string) => (id === undefined ? "admin/organization/" : `admin/organization/${id}/`),
  /** Administration: webhook endpoints (`admin/webhooks/endpoints/`) and delivery logs (`admin/webhooks/deliveries/<query>/`). */
  adminWebhooks: "admin/webhooks/",
  /** Administration: the OpenID Provider's clients (`admin/oauth2/clients/`, `admin/oauth2/client/<id>/`). */
  adminOauthClients: "admin/oauth2/",
  /** Administration: the applications one user granted (under the user's key, so a change to the user reads them again). */
  adminUserGrants: (userId: string) => `admin/user/${userId}/oauth2-grants/`,
} as const;

/** The key's path, without its scope. */
function pathOf(key: string): string {
  return key.slice(key.indexOf("/") + 1);
}

const session = authClient.$session;

/** A key under the signed-in session, or null (nothing is read) while nobody is signed in. */
function sessionKey(path: (data: SessionData) => string): ReadableAtom<string | null> {
  return computed(session, (state) => (state.data ? `s:${state.data.session.id}/${path(state.data)}` : null));
}

/** The SDK's `{ data, error }` as a value or a thrown error, as the query store expects. */
async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  const { data, error } = await call;
  if (error) throw new AuthClientError(error);
  return data as T;
}

const stores = new Map<string, Query<unknown>>();

/**
 * One query store per `id`, made on first use: `key` gives the store's cache key (a global string, or a session
 * key that follows the session), `load` is the SDK call.
 */
function defineQuery<T>(
  id: string,
  key: () => string | ReadableAtom<string | null>,
  load: () => Promise<Result<T>>,
  settings: { dedupeTime?: number; onError?: (error: unknown) => void } = {},
): Query<T> {
  let store = stores.get(id) as Query<T> | undefined;
  if (!store) {
    const input = key();
    store = createFetcherStore<T, AuthError>(typeof input === "string" ? input : [input], { fetcher: () => unwrap(load()), ...settings });
    stores.set(id, store as Query<unknown>);
  }
  return store;
}

const globalKey = (path: string) => `g/${path}`;

/**
 * For configuration: read once per page load. A failed read is forgotten at once, so the next component to
 * mount asks again. (Every cached failure goes: the other queries read again on each mount anyway.)
 */
const ONCE = {
  dedupeTime: Infinity,
  onError: () =>
    queueMicrotask(() => {
      for (const [key, entry] of cache) if (entry.error !== undefined) cache.delete(key);
    }),
};

export const queries = {
  /** GET /features. */
  features: () => defineQuery("features", () => globalKey(keys.features), () => authClient.features(), ONCE),
  /** Whether `username` is free (GET /is-username-available). */
  usernameAvailable: (username: string) =>
    defineQuery(`username:${username}`, () => globalKey(`${keys.username}${encodeURIComponent(username)}/`), () =>
      authClient.isUsernameAvailable({ username }),
    ),
  /** Whether `slug` is free: the check answers an error when it is taken. */
  slugAvailable: (slug: string) =>
    defineQuery(`slug:${slug}`, () => globalKey(`${keys.slug}${encodeURIComponent(slug)}/`), async (): Promise<Result<boolean>> => {
      const { error } = await authClient.organization.checkSlug({ slug });
      // Any refusal counts as taken, as before; only a failure to ask at all (the network) is an error.
      return error && error.status === 0 ? { data: null, error } : { data: !error, error: null };
    }),
  /** The mail the service kept instead of sending (development only; 404 otherwise). */
  devOutbox: () => defineQuery("dev-outbox", () => globalKey(keys.devOutbox), () => authClient.dev.outbox()),

  /** The user's pending invitations; read again once their address is verified. */
  invitations: () =>
    defineQuery(
      "invitations",
      () => sessionKey((data) => `${keys.invitations}${Number(data.user.emailVerified)}/`),
      () => authClient.organization.listUserInvitations(),
    ),
  /** One invitation, as the invitee sees it; read again once their address is verified. */
  invitation: (id: string) =>
    defineQuery(
      `invitation:${id}`,
      () => sessionKey((data) => `${keys.invitation(id)}${Number(data.user.emailVerified)}/`),
      () => authClient.organization.getInvitation({ id }),
    ),
  /** The organizations the user belongs to. */
  organizations: () => defineQuery("organizations", () => sessionKey(() => keys.organizations), () => authClient.organization.list()),
  /** The session's active organization with its members, invitations and teams; null when none is active. */
  activeOrganization: () =>
    defineQuery(
      "active-organization",
      () => sessionKey((data) => `${keys.organization(data.session.activeOrganizationId ?? null)}full/`),
      () => authClient.organization.getFullOrganization(),
    ),
  /** The teams of an organization the user belongs to. */
  ownTeams: (organizationId: string) =>
    defineQuery(`own-teams:${organizationId}`, () => sessionKey(() => `${keys.organization(organizationId)}own-teams/`), () =>
      authClient.organization.listUserTeams({ organizationId }),
    ),
  /** One team's members. */
  teamMembers: (organizationId: string, teamId: string) =>
    defineQuery(`team-members:${teamId}`, () => sessionKey(() => `${keys.organization(organizationId)}team/${teamId}/members/`), () =>
      authClient.organization.listTeamMembers({ teamId }),
    ),
  /** The user's sessions. */
  sessions: () => defineQuery("sessions", () => sessionKey(() => keys.sessions), () => authClient.listSessions()),
  /** The user's accounts: "credential" for the password, one per connected provider. */
  accounts: () => defineQuery("accounts", () => sessionKey(() => keys.accounts), () => authClient.listAccounts()),
  /** The user's passkeys. */
  passkeys: () => defineQuery("passkeys", () => sessionKey(() => keys.passkeys), () => authClient.passkey.listUserPasskeys()),
  /** The user's second factors (kinds, dates, backup codes left) and trusted browsers. */
  factors: () => defineQuery("factors", () => sessionKey(() => keys.factors), () => authClient.twoFactor.getFactors()),
  /** One page of the user's own security activity (GET /list-security-events). */
  securityEvents: (query: ListSecurityEventsQuery) => {
    const path = `${keys.securityEvents}${encodeURIComponent(JSON.stringify(query))}/`;
    return defineQuery(path, () => sessionKey(() => path), () => authClient.listSecurityEvents(query));
  },
  /**
   * One page of an organization's activity, for its owners and admins (GET /organization/list-events); under the
   * organization's key, so every change to it reads the activity again.
   */
  organizationEvents: (organizationId: string, query: Omit<OrganizationListEventsQuery, "organizationId">) => {
    const path = `${keys.organization(organizationId)}events/${encodeURIComponent(JSON.stringify(query))}/`;
    return defineQuery(path, () => sessionKey(() => path), () => authClient.organization.listEvents({ ...query, organizationId }));
  },

  /**
   * Whether the signed-in user may open the administration console: the service's answer to POST
   * /admin/has-permission for its first action, listing users (README.md, "Administration"). Asked again
   * when the user's role string changes.
   */
  administrator: () =>
    defineQuery(
      "administrator",
      () => sessionKey((data) => `administrator/${encodeURIComponent(data.user.role ?? "")}/`),
      async (): Promise<Result<boolean>> => {
        const { data, error } = await authClient.admin.hasPermission({ permissions: { user: ["list"] } });
        return error ? { data: null, error } : { data: data.success, error: null };
      },
      ONCE,
    ),
  /** Administration: the site roles the service accepts (configuration: read once per page load). */
  siteRoles: () =>
    defineQuery("site-roles", () => sessionKey(() => "admin/roles/"), () => authClient.admin.listRoles(), ONCE),
  /** Administration: one page of users. */
  adminUsers: (query: AdminListUsersQuery) => {
    const path = `${keys.adminUsers}${encodeURIComponent(JSON.stringify(query))}/`;
    return defineQuery(path, () => sessionKey(() => path), () => authClient.admin.listUsers(query));
  },
  /** Administration: one user. */
  adminUser: (id: string) => defineQuery(`admin-user:${id}`, () => sessionKey(() => keys.adminUser(id)), () => authClient.admin.getUser({ id })),
  /** Administration: one user's sign-in factors (kinds, dates and counts; never secrets). */
  adminUserFactors: (id: string) =>
    defineQuery(`admin-user-factors:${id}`, () => sessionKey(() => `${keys.adminUser(id)}factors/`), () =>
      authClient.admin.listUserFactors({ userId: id }),
    ),
  /** Administration: one user's sessions. */
  adminUserSessions: (id: string) =>
    defineQuery(`admin-user-sessions:${id}`, () => sessionKey(() => `${keys.adminUser(id)}sessions/`), () =>
      authClient.admin.listUserSessions({ userId: id }),
    ),
  /** Administration: one page of the audit log. */
  adminEvents: (query: AdminListEventsQuery) => {
    const path = `${keys.adminEvents}${encodeURIComponent(JSON.stringify(query))}/`;
    return defineQuery(path, () => sessionKey(() => path), () => authClient.admin.listEvents(query));
  },
  /** Administration: one page of organizations. */
  adminOrganizations: (query: AdminListOrganizationsQuery) => {
    const path = `${keys.adminOrganizations}${encodeURIComponent(JSON.stringify(query))}/`;
    return defineQuery(path, () => sessionKey(() => path), () => authClient.admin.listOrganizations(query));
  },
  /** Administration: one organization with its members. */
  adminOrganization: (id: string) =>
    defineQuery(`admin-organization:${id}`, () => sessionKey(() => keys.adminOrganization(id)), () => authClient.admin.getOrganization({ id })),
  /** Administration: every webhook endpoint (the configuration file's, then the API's) and the event types. */
  adminWebhookEndpoints: () =>
    defineQuery("admin-webhook-endpoints", () => sessionKey(() => `${keys.adminWebhooks}endpoints/`), () =>
      authClient.admin.webhooks.listEndpoints(),
    ),
  /** Administration: every client of the OpenID Provider (the configuration file's, then those registered here). */
  adminOauthClients: () =>
    defineQuery("admin-oauth-clients", () => sessionKey(() => `${keys.adminOauthClients}clients/`), () => authClient.admin.oauth2.listClients()),
  /** Administration: one client of the OpenID Provider. */
  adminOauthClient: (clientId: string) =>
    defineQuery(`admin-oauth-client:${clientId}`, () => sessionKey(() => `${keys.adminOauthClients}client/${encodeURIComponent(clientId)}/`), () =>
      authClient.admin.oauth2.getClient({ clientId }),
    ),
  /** Administration: the applications a user granted, with what each may access. */
  adminUserGrants: (userId: string) =>
    defineQuery(`admin-user-grants:${userId}`, () => sessionKey(() => keys.adminUserGrants(userId)), () =>
      authClient.admin.oauth2.listUserGrants({ userId }),
    ),
  /** Administration: one page of an endpoint's delivery log, as a cursor page (components/cursor-pages.tsx). */
  adminWebhookDeliveries: (query: AdminWebhooksListDeliveriesQuery) => {
    const path = `${keys.adminWebhooks}deliveries/${encodeURIComponent(JSON.stringify(query))}/`;
    return defineQuery(path, () => sessionKey(() => path), async (): Promise<Result<{ events: WebhookDelivery[]; nextCursor: string | null }>> => {
      const { data, error } = await authClient.admin.webhooks.listDeliveries(query);
      return error ? { data: null, error } : { data: { events: data.deliveries, nextCursor: data.nextCursor }, error: null };
    });
  },
};

/**
 * Marks every cached read under the given paths stale and reads again those shown now; resolves once they
 * have answered (so a mutation's success message comes with the list it changed).
 */
export async function refresh(...paths: string[]): Promise<void> {
  const matches = (key: string) => paths.some((path) => pathOf(key).startsWith(path));
  revalidateKeys(matches);
  await answers(matches);
}

/** Waits for the reads now running under keys that `matches` accepts. */
async function answers(matches: (key: string) => boolean): Promise<void> {
  // `.value`, not get(): get() would mount a store nobody shows, and so read it.
  const running = [...stores.values()].filter((store) => store.key !== undefined && matches(store.key) && store.value?.loading);
  await Promise.allSettled(running.map((store) => store.value?.promise));
}

/** Any query, whatever its data, as `prefetch` takes it. */
export type AnyQuery = Pick<Query<unknown>, "key" | "listen">;

/** How long an answer read ahead of its components (`prefetch`) counts as fresh, and its store stays mounted. */
const PREFETCH_FRESH_MS = 5_000;

/**
 * Reads `list` ahead of the components that show them: main.tsx asks the first page's queries beside its chunks
 * (router.tsx), so the first render draws the page with its data, once, instead of drawing "Loading…" and then
 * again as each answer comes in. Resolves once every query has answered or failed (at once for session queries
 * when nobody is signed in). The answers count as fresh for PREFETCH_FRESH_MS, and the stores stay mounted that
 * long, so the components mounting meanwhile show them without reading them again (with `dedupeTime: 0` each
 * mount otherwise reads afresh); later mounts, a tab coming back to the front and mutations read again as usual.
 */
export function prefetch(list: AnyQuery[]): Promise<void> {
  if (list.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const waiting = new Set(list);
    const stops: (() => void)[] = [];
    const answered = (store: AnyQuery) => {
      if (!waiting.delete(store)) return;
      const entry = store.key === undefined ? undefined : cache.get(store.key);
      if (store.key !== undefined && entry) cache.set(store.key, { ...entry, created: Date.now() + PREFETCH_FRESH_MS });
      if (waiting.size > 0) return;
      resolve();
      setTimeout(() => stops.forEach((stop) => stop()), PREFETCH_FRESH_MS);
    };
    // Session queries have no key, and read nothing, until the session is known; signed out they never will.
    stops.push(
      session.subscribe((state) => {
        if (!state.isPending && !state.data) for (const store of [...waiting]) if (store.key === undefined) answered(store);
      }),
    );
    for (const store of list) {
      stops.push(
        store.listen((value) => {
          if (!value.loading && (value.data !== undefined || value.error !== undefined)) answered(store);
        }),
      );
    }
  });
}

/** What a query has come to. `data` stays while it is read again (`refreshing`). */
export type QueryState<T> =
  | { state: "loading"; data: undefined; error: null }
  | { state: "failed"; data: T | undefined; error: AuthError }
  | { state: "ready"; data: T; error: null };

export type QueryResult<T> = QueryState<T> & {
  /** True while the query is read again with its last answer still shown. */
  refreshing: boolean;
  /** Reads it again ("Try again", "Refresh"); resolves with the answer. */
  reload(): Promise<void>;
};

const idle: ReadableAtom<{ loading: boolean; data?: undefined; error?: undefined }> = atom({ loading: false });

function asAuthError(error: unknown): AuthError {
  if (error && typeof error === "object" && "code" in error && "status" in error) return error as AuthError;
  return { status: 0, code: "NETWORK_ERROR", message: error instanceof Error ? error.message : String(error) };
}

/** A query in a component: loading, failed (with the error) or ready (with the data). `null` reads nothing. */
export function useQuery<T>(query: Query<T> | null): QueryResult<T> {
  const value = useStore((query ?? idle) as ReadableAtom<{ loading: boolean; data?: T; error?: unknown }>);
  const reload = () => (query?.key ? refreshKey(query.key) : Promise.resolve());
  if (value.error !== undefined) return { state: "failed", data: value.data, error: asAuthError(value.error), refreshing: false, reload };
  if (value.data !== undefined) return { state: "ready", data: value.data, error: null, refreshing: value.loading, reload };
  return { state: "loading", data: undefined, error: null, refreshing: false, reload };
}

async function refreshKey(key: string): Promise<void> {
  revalidateKeys(key);
  await answers((other) => other === key);
}

// ---------------------------------------------------------------------------------------------------------
// Mutations: each makes its SDK call and, when it succeeded, refreshes what it changed. They answer the SDK's
// `{ data, error }`, so forms place errors as before.

/** Refetching the session (its active organization, or the user, changed). */
const SESSION = Symbol("session");
/**
 * What a mutation changed: a path whose reads are refreshed, the session, or `{ stale }`: a path whose cached
 * reads are only marked stale (read again when next shown), for a page the mutation is about to leave.
 */
type Effect = string | typeof SESSION | { stale: string };

async function settle(effects: Effect[]): Promise<void> {
  const paths = effects.filter((effect): effect is string => typeof effect === "string");
  for (const effect of effects) {
    if (typeof effect !== "object") continue;
    for (const [key, entry] of cache) if (pathOf(key).startsWith(effect.stale)) cache.set(key, { ...entry, created: -Infinity });
  }
  await Promise.all([effects.includes(SESSION) ? session.refetch() : undefined, paths.length > 0 ? refresh(...paths) : undefined]);
}

/** Runs `call`; once it succeeded (or, with `always`, whatever it answered) refreshes `effects`. */
async function mutate<D>(call: Promise<Result<D>>, effects: Effect[], always = false): Promise<Result<D>> {
  const result = await call;
  if (!result.error || always) await settle(effects);
  return result;
}

type Input<F extends (...args: any[]) => unknown> = NonNullable<Parameters<F>[0]>;
const org = authClient.organization;
const admin = authClient.admin;

/** Everything that changes when the user joins or switches organizations. */
const MEMBERSHIP: Effect[] = [SESSION, keys.organizations, keys.organization()];
/** Leaving or deleting one: its page is about to be left, so its reads are only marked stale. */
const DEPARTURE: Effect[] = [SESSION, keys.organizations, { stale: keys.organization() }];

export const mutations = {
  // Invitations the user answers.
  acceptInvitation: (input: Input<typeof org.acceptInvitation>) =>
    mutate(org.acceptInvitation(input), [...MEMBERSHIP, keys.invitations, { stale: keys.invitation(input.invitationId) }]),
  rejectInvitation: (input: Input<typeof org.rejectInvitation>) =>
    mutate(org.rejectInvitation(input), [keys.invitations, { stale: keys.invitation(input.invitationId) }]),

  // Organizations.
  /** A refusal too reads the list again: most often the organization was deleted or the user removed meanwhile. */
  setActiveOrganization: (input: Input<typeof org.setActive>) => mutate(org.setActive(input), MEMBERSHIP, true),
  createOrganization: (input: Input<typeof org.create>) => mutate(org.create(input), [...MEMBERSHIP, keys.slug]),
  updateOrganization: (input: Input<typeof org.update>) =>
    mutate(org.update(input), [keys.organizations, keys.organization(), keys.slug]),
  deleteOrganization: (input: Input<typeof org.delete>) => mutate(org.delete(input), [...DEPARTURE, keys.slug]),
  leaveOrganization: (input: Input<typeof org.leave>) => mutate(org.leave(input), DEPARTURE),
  updateMemberRole: (input: Input<typeof org.updateMemberRole>) => mutate(org.updateMemberRole(input), [keys.organization()]),
  removeMember: (input: Input<typeof org.removeMember>) => mutate(org.removeMember(input), [keys.organization()]),
  inviteMember: (input: Input<typeof org.inviteMember>) => mutate(org.inviteMember(input), [keys.organization()]),
  cancelInvitation: (input: Input<typeof org.cancelInvitation>) => mutate(org.cancelInvitation(input), [keys.organization()]),
  createTeam: (input: Input<typeof org.createTeam>) => mutate(org.createTeam(input), [keys.organization()]),
  updateTeam: (input: Input<typeof org.updateTeam>) => mutate(org.updateTeam(input), [keys.organization()]),
  removeTeam: (input: Input<typeof org.removeTeam>) => mutate(org.removeTeam(input), [keys.organization()]),
  addTeamMember: (input: Input<typeof org.addTeamMember>) => mutate(org.addTeamMember(input), [keys.organization()]),
  removeTeamMember: (input: Input<typeof org.removeTeamMember>) => mutate(org.removeTeamMember(input), [keys.organization()]),

  // The user's own account (the SDK refetches the session itself after update-user).
  updateUser: (input: Input<typeof authClient.updateUser>) => mutate(authClient.updateUser(input), [keys.username]),
  /** Signing out the other sessions with it changes the sessions list. */
  changePassword: (input: Input<typeof authClient.changePassword>) =>
    mutate(authClient.changePassword(input), input.revokeOtherSessions ? [keys.sessions] : []),
  /** A refused revoke too reads the list again (the session may be gone already); the security activity gains its event. */
  revokeSession: (input: Input<typeof authClient.revokeSession>) =>
    mutate(authClient.revokeSession(input), [keys.sessions, keys.securityEvents], true),
  revokeOtherSessions: () => mutate(authClient.revokeOtherSessions(), [keys.sessions, keys.securityEvents], true),
  /** A refused disconnect too reads the list again. */
  unlinkAccount: (input: Input<typeof authClient.unlinkAccount>) => mutate(authClient.unlinkAccount(input), [keys.accounts], true),

  // Second factors (README.md, "Second factors"): turning them on or off changes the user (twoFactorEnabled) and
  // replaces the session; a new session also ends every other one's trusted-device state.
  enableTwoFactor: (input: Input<typeof authClient.twoFactor.enable>) =>
    mutate(authClient.twoFactor.enable(input), [SESSION, keys.factors]),
  /** Enrolment: the first code from the app turns two-step sign-in on. */
  verifyTotp: (input: Input<typeof authClient.twoFactor.verifyTotp>) =>
    mutate(authClient.twoFactor.verifyTotp(input), [SESSION, keys.sessions, keys.factors, keys.securityEvents]),
  /** Enrolment by email: the code mailed by sendOtp turns it on. */
  verifyOtp: (input: Input<typeof authClient.twoFactor.verifyOtp>) =>
    mutate(authClient.twoFactor.verifyOtp(input), [SESSION, keys.sessions, keys.factors, keys.securityEvents]),
  disableTwoFactor: (input: Input<typeof authClient.twoFactor.disable>) =>
    mutate(authClient.twoFactor.disable(input), [SESSION, keys.sessions, keys.factors, keys.securityEvents]),
  /** New backup codes replace the old ones and end every trusted browser. */
  generateBackupCodes: (input: Input<typeof authClient.twoFactor.generateBackupCodes>) =>
    mutate(authClient.twoFactor.generateBackupCodes(input), [keys.factors]),
  /** One trusted browser (`id`), or every one, meets the second step again. A refusal too reads the list again. */
  forgetTrustedDevices: (input: Input<typeof authClient.twoFactor.forgetTrustedDevices> = {}) =>
    mutate(authClient.twoFactor.forgetTrustedDevices(input), [keys.factors], true),

  // Passkeys. A refused delete too reads the list again (the passkey may be gone already). The security page's
  // activity shows these changes (and the second factors' above), so it is read again with them.
  addPasskey: (name?: string) => mutate(registerPasskey(name), [keys.passkeys, keys.securityEvents]),
  renamePasskey: (input: Input<typeof authClient.passkey.updatePasskey>) => mutate(authClient.passkey.updatePasskey(input), [keys.passkeys]),
  deletePasskey: (input: Input<typeof authClient.passkey.deletePasskey>) =>
    mutate(authClient.passkey.deletePasskey(input), [keys.passkeys, keys.securityEvents], true),

  // Administration.
  createUser: (input: Input<typeof admin.createUser>) => mutate(admin.createUser(input), [keys.adminUsers, keys.username]),
  adminUpdateUser: (input: Input<typeof admin.updateUser>) =>
    mutate(admin.updateUser(input), [keys.adminUsers, keys.adminUser(input.userId), keys.username]),
  setRole: (input: Input<typeof admin.setRole>) => mutate(admin.setRole(input), [keys.adminUsers, keys.adminUser(input.userId)]),
  banUser: (input: Input<typeof admin.banUser>) => mutate(admin.banUser(input), [keys.adminUsers, keys.adminUser(input.userId)]),
  unbanUser: (input: Input<typeof admin.unbanUser>) => mutate(admin.unbanUser(input), [keys.adminUsers, keys.adminUser(input.userId)]),
  setUserPassword: (input: Input<typeof admin.setUserPassword>) =>
    mutate(admin.setUserPassword(input), [keys.adminUser(input.userId)]),
  revokeUserSession: (userId: string, input: Input<typeof admin.revokeUserSession>) =>
    mutate(admin.revokeUserSession(input), [keys.adminUser(userId)]),
  revokeUserSessions: (input: Input<typeof admin.revokeUserSessions>) =>
    mutate(admin.revokeUserSessions(input), [keys.adminUser(input.userId)]),
  /** The user's factors change (and with them twoFactorEnabled, on the user). */
  resetUserFactors: (input: Input<typeof admin.resetUserFactors>) =>
    mutate(admin.resetUserFactors(input), [keys.adminUsers, keys.adminUser(input.userId)]),
  // Webhooks: every change reads the endpoints and the delivery logs again.
  createWebhookEndpoint: (input: Input<typeof admin.webhooks.createEndpoint>) => mutate(admin.webhooks.createEndpoint(input), [keys.adminWebhooks]),
  updateWebhookEndpoint: (input: Input<typeof admin.webhooks.updateEndpoint>) => mutate(admin.webhooks.updateEndpoint(input), [keys.adminWebhooks]),
  rotateWebhookSecret: (input: Input<typeof admin.webhooks.rotateEndpointSecret>) =>
    mutate(admin.webhooks.rotateEndpointSecret(input), [keys.adminWebhooks]),
  /** The deleted endpoint's page is left for the list: its reads are only marked stale. */
  deleteWebhookEndpoint: (input: Input<typeof admin.webhooks.deleteEndpoint>) =>
    mutate(admin.webhooks.deleteEndpoint(input), [{ stale: keys.adminWebhooks }]),
  /** A refusal too reads the log again (the delivery may be under way or gone). */
  resendWebhookDelivery: (input: Input<typeof admin.webhooks.resendDelivery>) =>
    mutate(admin.webhooks.resendDelivery(input), [keys.adminWebhooks], true),
  // The OpenID Provider's clients: every change reads the list and the client's page again.
  createOauthClient: (input: Input<typeof admin.oauth2.createClient>) => mutate(admin.oauth2.createClient(input), [keys.adminOauthClients]),
  updateOauthClient: (input: Input<typeof admin.oauth2.updateClient>) => mutate(admin.oauth2.updateClient(input), [keys.adminOauthClients]),
  rotateOauthClientSecret: (input: Input<typeof admin.oauth2.rotateClientSecret>) =>
    mutate(admin.oauth2.rotateClientSecret(input), [keys.adminOauthClients]),
  /** The deleted client's page is left for the list: its reads are only marked stale, as are users' grants (they went with it). */
  deleteOauthClient: (input: Input<typeof admin.oauth2.deleteClient>) =>
    mutate(admin.oauth2.deleteClient(input), [{ stale: keys.adminOauthClients }, { stale: keys.adminUser() }]),
  /** A refusal too reads the list again (the grant may be gone already). */
  revokeUserOauthGrant: (input: Input<typeof admin.oauth2.revokeUserGrant>) =>
    mutate(admin.oauth2.revokeUserGrant(input), [keys.adminUserGrants(input.userId)], true),
  /** The removed user's own page is not read again: the caller leaves it for the list. */
  removeUser: (input: Input<typeof admin.removeUser>) =>
    mutate(admin.removeUser(input), [
      keys.adminUsers,
      keys.adminOrganizations,
      keys.adminOrganization(),
      { stale: keys.adminUser(input.userId) },
    ]),
};
