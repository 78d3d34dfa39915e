import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "./helpers/browser.js";
import { manualClock } from "./helpers/clock.js";
import { DIALECTS } from "./helpers/databases.js";
import {
  CLIENT_SECRET,
  clientIdOf,
  refuse,
  startFakeProviders,
  type FakeProviders,
  type ProviderFixture,
} from "./helpers/fake-providers.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

/**
 * The OAuth 2.0-only providers, each against a local server that answers its token and profile endpoints the way
 * that provider does; every test signs in through the redirect flow and checks how the profile maps to the user.
 */
const FIXTURES: ProviderFixture[] = [
  {
    id: "github",
    clientAuth: "post",
    pkce: true,
    scopes: ["read:user", "user:email"],
    tokenAnswer: ({ access }) => ({ access_token: access, token_type: "bearer", scope: "read:user,user:email" }),
    badCodeAnswer: { status: 200, json: { error: "bad_verification_code", error_description: "The code passed is incorrect or expired." } },
    profile: [
      {
        path: "user",
        answer: (req) =>
          req.headers.accept !== "application/vnd.github+json" || !req.headers["user-agent"]?.startsWith("Gatehouse")
            ? refuse("GitHub's API wants its media type and a User-Agent")
            : { json: { id: 583231, login: "octocat", name: "The Octocat", email: "public@octo.example", avatar_url: "https://avatars.githubusercontent.com/u/583231" } },
      },
      {
        path: "user/emails",
        answer: () => ({
          json: [
            { email: "public@octo.example", primary: false, verified: false, visibility: "public" },
            { email: "Octo@Example.com", primary: true, verified: true, visibility: "private" },
          ],
        }),
      },
    ],
    expected: { accountId: "583231", email: "octo@example.com", emailVerified: true, name: "The Octocat", image: "https://avatars.githubusercontent.com/u/583231" },
  },
  {
    id: "discord",
    clientAuth: "basic",
    pkce: true,
    scopes: ["identify", "email"],
    tokenAnswer: ({ access, refresh }) => ({ access_token: access, token_type: "Bearer", expires_in: 604800, refresh_token: refresh, scope: "identify email" }),
    profile: [
      {
        path: "users/@me",
        answer: () => ({
          json: { id: "80351110224678912", username: "nelly", global_name: "Nelly", discriminator: "0", avatar: "a_8342729096ea3675442027381ff50dfe", email: "nelly@discord.example", verified: true },
        }),
      },
    ],
    expected: { accountId: "80351110224678912", email: "nelly@discord.example", emailVerified: true, name: "Nelly", image: "https://cdn.discordapp.com/avatars/80351110224678912/a_8342729096ea3675442027381ff50dfe.gif" },
  },
  {
    id: "facebook",
    clientAuth: "post",
    pkce: true,
    scopes: ["email", "public_profile"],
    tokenAnswer: ({ access }) => ({ access_token: access, token_type: "bearer", expires_in: 5183944 }),
    profile: [
      {
        path: "me",
        answer: (req) =>
          !/email/.test(req.url.searchParams.get("fields") ?? "") || !/picture/.test(req.url.searchParams.get("fields") ?? "")
            ? refuse("Graph answers only the fields asked for")
            : { json: { id: "10158", name: "Mark Facebook", email: "mark@facebook.example", picture: { data: { url: "https://graph.facebook.example/10158/picture", width: 200 } } } },
      },
    ],
    expected: { accountId: "10158", email: "mark@facebook.example", emailVerified: false, name: "Mark Facebook", image: "https://graph.facebook.example/10158/picture" },
  },
  {
    id: "spotify",
    clientAuth: "basic",
    pkce: true,
    scopes: ["user-read-email"],
    tokenAnswer: ({ access, refresh }) => ({ access_token: access, token_type: "Bearer", scope: "user-read-email", expires_in: 3600, refresh_token: refresh }),
    profile: [
      {
        path: "v1/me",
        answer: () => ({ json: { id: "wizzler", display_name: "Wizzler", email: "wizz@spotify.example", images: [{ url: "https://i.scdn.co/image/wizz", height: 300 }] } }),
      },
    ],
    expected: { accountId: "wizzler", email: "wizz@spotify.example", emailVerified: false, name: "Wizzler", image: "https://i.scdn.co/image/wizz" },
  },
  {
    id: "twitch",
    clientAuth: "post",
    pkce: false,
    scopes: ["user:read:email"],
    // Twitch lists scopes as an array.
    tokenAnswer: ({ access, refresh }) => ({ access_token: access, expires_in: 14124, refresh_token: refresh, scope: ["user:read:email"], token_type: "bearer" }),
    profile: [
      {
        path: "helix/users",
        answer: (req) =>
          req.headers["client-id"] !== clientIdOf("twitch")
            ? refuse("Helix needs the Client-Id header")
            : { json: { data: [{ id: "141981764", login: "twitchdev", display_name: "TwitchDev", email: "dev@twitch.example", profile_image_url: "https://static-cdn.jtvnw.net/dev.png" }] } },
      },
    ],
    expected: { accountId: "141981764", email: "dev@twitch.example", emailVerified: true, name: "TwitchDev", image: "https://static-cdn.jtvnw.net/dev.png" },
  },
  {
    id: "twitter",
    clientAuth: "basic",
    pkce: true,
    scopes: ["users.read", "tweet.read", "offline.access", "users.email"],
    tokenAnswer: ({ access, refresh }) => ({ token_type: "bearer", expires_in: 7200, access_token: access, scope: "users.read tweet.read offline.access users.email", refresh_token: refresh }),
    profile: [
      {
        path: "2/users/me",
        answer: (req) =>
          !(req.url.searchParams.get("user.fields") ?? "").includes("confirmed_email")
            ? refuse("X answers only the user.fields asked for")
            : { json: { data: { id: "2244994945", name: "X Developers", username: "XDevelopers", profile_image_url: "https://pbs.twimg.com/profile_images/1/dev_normal.jpg", confirmed_email: "dev@x.example" } } },
      },
    ],
    expected: { accountId: "2244994945", email: "dev@x.example", emailVerified: true, name: "X Developers", image: "https://pbs.twimg.com/profile_images/1/dev_400x400.jpg" },
  },
  {
    id: "dropbox",
    clientAuth: "basic",
    pkce: true,
    scopes: ["account_info.read"],
    authorizationParams: { token_access_type: "offline" },
    tokenAnswer: ({ access, refresh }) => ({ access_token: access, token_type: "bearer", expires_in: 14400, refresh_token: refresh, scope: "account_info.read", uid: "12345", account_id: "dbid:AAH4f99" }),
    profile: [
      {
        path: "2/users/get_current_account",
        method: "POST",
        answer: (req) =>
          req.body !== "null"
            ? refuse("Dropbox RPC wants a null body")
            : { json: { account_id: "dbid:AAH4f99", name: { display_name: "Franz Ferdinand", given_name: "Franz" }, email: "franz@dropbox.example", email_verified: true, profile_photo_url: "https://dl-web.dropbox.com/account_photo/franz" } },
      },
    ],
    expected: { accountId: "dbid:AAH4f99", email: "franz@dropbox.example", emailVerified: true, name: "Franz Ferdinand", image: "https://dl-web.dropbox.com/account_photo/franz" },
  },
  {
    id: "kick",
    clientAuth: "post",
    pkce: true,
    scopes: ["user:read"],
    // Kick names the lifetime `expiry`.
    tokenAnswer: ({ access, refresh }) => ({ access_token: access, token_type: "Bearer", refresh_token: refresh, expiry: 3600, scope: "user:read" }),
    profile: [
      {
        path: "public/v1/users",
        answer: () => ({ json: { data: [{ user_id: 4377088, name: "kicker", email: "kicker@kick.example", profile_picture: "https://files.kick.com/kicker.png" }], message: "OK" } }),
      },
    ],
    expected: { accountId: "4377088", email: "kicker@kick.example", emailVerified: false, name: "kicker", image: "https://files.kick.com/kicker.png" },
  },
  {
    id: "linkedin",
    clientAuth: "post",
    pkce: false,
    scopes: ["openid", "profile", "email"],
    tokenAnswer: ({ access }) => ({ access_token: access, expires_in: 5183999, scope: "email,openid,profile", token_type: "Bearer" }),
    profile: [
      {
        path: "v2/userinfo",
        answer: () => ({ json: { sub: "782bbtaQ", name: "John Doe", given_name: "John", family_name: "Doe", picture: "https://media.licdn.com/john", email: "doe@linkedin.example", email_verified: true, locale: "en-US" } }),
      },
    ],
    expected: { accountId: "782bbtaQ", email: "doe@linkedin.example", emailVerified: true, name: "John Doe", image: "https://media.licdn.com/john" },
  },
  {
    id: "gitlab",
    clientAuth: "post",
    pkce: true,
    scopes: ["read_user"],
    tokenAnswer: ({ access, refresh }) => ({ access_token: access, token_type: "Bearer", expires_in: 7200, refresh_token: refresh, scope: "read_user", created_at: 1607635748 }),
    profile: [
      {
        path: "api/v4/user",
        answer: () => ({ json: { id: 42, username: "gitlabber", name: "Git Labber", email: "gl@gitlab.example", avatar_url: "https://gitlab.example/uploads/42.png", state: "active", confirmed_at: "2020-01-01T00:00:00Z" } }),
      },
    ],
    expected: { accountId: "42", email: "gl@gitlab.example", emailVerified: true, name: "Git Labber", image: "https://gitlab.example/uploads/42.png" },
  },
  {
    id: "tiktok",
    clientAuth: "tiktok",
    pkce: true,
    scopes: ["user.info.basic", "user.info.profile"],
    scopeSeparator: ",",
    tokenAnswer: ({ access, refresh }) => ({ access_token: access, expires_in: 86400, open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", refresh_expires_in: 31536000, refresh_token: refresh, scope: "user.info.basic,user.info.profile", token_type: "Bearer" }),
    profile: [
      {
        path: "v2/user/info/",
        answer: (req) =>
          !(req.url.searchParams.get("fields") ?? "").includes("open_id")
            ? refuse("TikTok answers only the fields asked for")
            : { json: { data: { user: { open_id: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", union_id: "u-1", avatar_url: "https://p16.tiktokcdn.com/small.jpg", avatar_large_url: "https://p16.tiktokcdn.com/large.jpg", display_name: "Tik Toker", username: "tiktoker" } }, error: { code: "ok", message: "", log_id: "l-1" } } },
      },
    ],
    expected: { accountId: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", email: "723f24d7-e717-40f8-a2b6-cb8464cd23b4@tiktok.invalid", emailVerified: false, name: "Tik Toker", image: "https://p16.tiktokcdn.com/large.jpg" },
  },
  {
    id: "reddit",
    clientAuth: "basic",
    pkce: false,
    scopes: ["identity"],
    authorizationParams: { duration: "permanent" },
    tokenAnswer: ({ access, refresh }) => ({ access_token: access, token_type: "bearer", expires_in: 86400, refresh_token: refresh, scope: "identity" }),
    profile: [
      {
        path: "api/v1/me",
        answer: (req) =>
          !req.headers["user-agent"]?.startsWith("Gatehouse")
            ? refuse("Reddit refuses generic User-Agents")
            : { json: { id: "abc123", name: "redditor", icon_img: "https://styles.redditmedia.com/icon.png?width=256&amp;s=f00" } },
      },
    ],
    expected: { accountId: "abc123", email: "abc123@reddit.invalid", emailVerified: false, name: "redditor", image: "https://styles.redditmedia.com/icon.png?width=256&s=f00" },
  },
  {
    id: "roblox",
    clientAuth: "basic",
    pkce: true,
    scopes: ["openid", "profile"],
    tokenAnswer: ({ access, refresh }) => ({ access_token: access, refresh_token: refresh, token_type: "Bearer", expires_in: 899, scope: "openid profile" }),
    profile: [
      {
        path: "oauth/v1/userinfo",
        answer: () => ({ json: { sub: "1234567", name: "Roblox Name", nickname: "Robloxian", preferred_username: "robloxian", picture: "https://tr.rbxcdn.com/robloxian.png" } }),
      },
    ],
    expected: { accountId: "1234567", email: "1234567@roblox.invalid", emailVerified: false, name: "Robloxian", image: "https://tr.rbxcdn.com/robloxian.png" },
  },
  {
    id: "vk",
    clientAuth: "post",
    pkce: true,
    scopes: ["email"],
    // The classic VK answer: no token_type, and the email is here rather than in the profile.
    tokenAnswer: ({ access }) => ({ access_token: access, expires_in: 3600, user_id: 1234567890, email: "ivan@vk.example" }),
    profile: [
      {
        path: "oauth2/user_info",
        method: "POST",
        answer: (req) =>
          req.form.get("client_id") !== clientIdOf("vk")
            ? refuse("VK wants client_id and access_token as a form")
            : { json: { user: { user_id: "1234567890", first_name: "Ivan", last_name: "Ivanov", avatar: "https://sun.userapi.com/ivan.jpg" } } },
      },
    ],
    expected: { accountId: "1234567890", email: "ivan@vk.example", emailVerified: false, name: "Ivan Ivanov", image: "https://sun.userapi.com/ivan.jpg" },
  },
  {
    id: "zoom",
    clientAuth: "basic",
    pkce: true,
    scopes: [],
    tokenAnswer: ({ access, refresh }) => ({ access_token: access, token_type: "bearer", refresh_token: refresh, expires_in: 3599, scope: "user:read:user" }),
    profile: [
      {
        path: "v2/users/me",
        answer: () => ({ json: { id: "KDcuGIm1QgePTO8WbOqwIQ", first_name: "Jill", last_name: "Chill", display_name: "Jill Chill", email: "jchill@zoom.example", pic_url: "https://zoom.example/p/jill.jpg", verified: 1 } }),
      },
    ],
    expected: { accountId: "KDcuGIm1QgePTO8WbOqwIQ", email: "jchill@zoom.example", emailVerified: true, name: "Jill Chill", image: "https://zoom.example/p/jill.jpg" },
  },
];

describe.each(DIALECTS)("social sign-in with OAuth 2.0 providers on %s", (dialect) => {
  let fake: FakeProviders;
  let server: TestServer;
  const clock = manualClock();

  beforeAll(async () => {
    fake = await startFakeProviders(FIXTURES);
    const socialProviders = Object.fromEntries(
      FIXTURES.map((f) => [f.id, { clientId: clientIdOf(f.id), clientSecret: CLIENT_SECRET, endpoints: fake.endpoints(f.id) }]),
    );
    server = await startTestServer(dialect, { socialProviders }, { now: clock.now });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  const onApp = (url: URL) => url.origin === server.url && !url.pathname.startsWith("/api/auth");
  const landed = (url: URL) => url.pathname + url.search;

  async function signIn(browser: Browser, provider: string) {
    const res = await browser.request("POST", `${server.base}/sign-in/social`, { json: { provider, callbackURL: "/home" } });
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    return { url, landing: await browser.follow(url, onApp) };
  }

  const json = async (res: Response) => (await res.json()) as any;

  it.each(FIXTURES.map((f) => [f.id, f] as const))("signs in with %s and maps its profile", async (_id, fixture) => {
    fake.problems.length = 0;
    const browser = new Browser();
    const { landing } = await signIn(browser, fixture.id);
    expect(fake.problems).toEqual([]);
    expect(landed(landing.url)).toBe("/home");
    const session = await json(await browser.request("GET", `${server.base}/get-session`));
    const { accountId, ...user } = fixture.expected;
    expect(session.user).toMatchObject(user);
    const accounts = await json(await browser.request("GET", `${server.base}/list-accounts`));
    expect(accounts).toEqual([expect.objectContaining({ providerId: fixture.id, provider: fixture.id, accountId })]);
    // The token's life, however the provider spelled it (Kick's `expiry`), is kept.
    const token = await json(await browser.request("POST", `${server.base}/get-access-token`, { json: { providerId: fixture.id } }));
    expect(token.accessToken).toMatch(new RegExp(`^${fixture.id}-access-`));
    if (fixture.id !== "github") expect(Date.parse(token.accessTokenExpiresAt)).toBeGreaterThan(clock.now().getTime());
  });

  it("reads GitHub's HTTP 200 answer with an error to a bad code as invalid_code", async () => {
    const browser = new Browser();
    const res = await browser.request("POST", `${server.base}/sign-in/social`, { json: { provider: "github", disableRedirect: true } });
    const state = new URL((await json(res)).url).searchParams.get("state");
    const landing = await browser.follow(`${server.base}/callback/github?code=forged&state=${state}`, onApp);
    expect(landed(landing.url)).toBe("/error?error=invalid_code");
  });

  it("refreshes an expired access token with the refresh grant (Spotify, HTTP Basic)", async () => {
    const browser = new Browser();
    await signIn(browser, "spotify");
    const before = await json(await browser.request("POST", `${server.base}/get-access-token`, { json: { providerId: "spotify" } }));
    clock.advance(3_600_000);
    try {
      const after = await json(await browser.request("POST", `${server.base}/get-access-token`, { json: { providerId: "spotify" } }));
      expect(after.accessToken).not.toBe(before.accessToken);
      expect(Date.parse(after.accessTokenExpiresAt)).toBeGreaterThan(clock.now().getTime());
      const last = fake.tokenRequests.get("spotify")!.at(-1)!;
      expect(last.form.get("grant_type")).toBe("refresh_token");
      expect(last.headers.authorization).toMatch(/^Basic /);
    } finally {
      clock.reset();
    }
  });

  it("refreshes TikTok's token with client_key, and refuses providers without a refresh grant", async () => {
    const browser = new Browser();
    await signIn(browser, "tiktok");
    const res = await browser.request("POST", `${server.base}/refresh-token`, { json: { providerId: "tiktok" } });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ providerId: "tiktok", accountId: "723f24d7-e717-40f8-a2b6-cb8464cd23b4", scope: "user.info.basic,user.info.profile" });
    expect(fake.tokenRequests.get("tiktok")!.at(-1)!.form.get("client_key")).toBe(clientIdOf("tiktok"));

    const fb = new Browser();
    await signIn(fb, "facebook");
    const refused = await fb.request("POST", `${server.base}/refresh-token`, { json: { providerId: "facebook" } });
    expect(refused.status).toBe(400);
    expect(await json(refused)).toEqual({
      code: "TOKEN_REFRESH_NOT_SUPPORTED",
      message: "Provider facebook does not support token refreshing",
    });
  });

  it("answers Failed to refresh access token when the provider refuses the refresh token", async () => {
    const browser = new Browser();
    await signIn(browser, "reddit");
    const userId = (await json(await browser.request("GET", `${server.base}/get-session`))).user.id as string;
    const stores = server.gatehouse.runtime.stores;
    const [account] = await stores.accounts.listUserAccounts(userId);
    await stores.accounts.updateAccountTokens(account!.id, { ...account!, refreshToken: "revoked" }, new Date());
    const res = await browser.request("POST", `${server.base}/refresh-token`, { json: { accountId: account!.id } });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ code: "FAILED_TO_REFRESH_ACCESS_TOKEN", message: "Failed to refresh access token" });
  });

  it("lets a user who signed up through a provider set a password later", async () => {
    const browser = new Browser();
    await signIn(browser, "roblox");
    await server.gatehouse.api.setPassword({ body: { newPassword: "a new password" }, headers: { cookie: browser.cookieHeader() } });
    const accounts = await json(await browser.request("GET", `${server.base}/list-accounts`));
    expect(accounts.map((a: { providerId: string }) => a.providerId).sort()).toEqual(["credential", "roblox"]);
  });
});
