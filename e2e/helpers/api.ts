/**
 * A person talking to the service over HTTP, as another device would, for setting up what a journey needs
 * (organizations, teams, invitations) without clicking through it. Keeps the session cookie it is given.
 */
export interface ApiSession {
  userId: string;
  /** POSTs a JSON body (or GETs with a query when `body` is omitted) and returns the parsed answer; throws on an error status. */
  call<T = Record<string, unknown>>(path: string, body?: object): Promise<T>;
  /**
   * Opens a mailed verification link with this session's cookie, as the registrant's own browser would (a link
   * opened by anyone else also takes the password off an account whose address was never proved).
   */
  open(link: string): Promise<void>;
}

export async function signUpWithSession(
  serviceUrl: string,
  user: { name: string; email: string; password: string },
): Promise<ApiSession> {
  const response = await fetch(`${serviceUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: serviceUrl },
    body: JSON.stringify(user),
  });
  if (!response.ok) throw new Error(`sign-up of ${user.email} failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const { user: created } = (await response.json()) as { user: { id: string } };
  return {
    userId: created.id,
    async call<T>(path: string, body?: object): Promise<T> {
      const answer = await fetch(`${serviceUrl}/api/auth${path}`, {
        method: body ? "POST" : "GET",
        headers: { origin: serviceUrl, cookie, ...(body ? { "content-type": "application/json" } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await answer.text();
      if (!answer.ok) throw new Error(`${path} answered ${answer.status}: ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    },
    async open(link: string): Promise<void> {
      const answer = await fetch(link, { redirect: "manual", headers: { cookie } });
      if (answer.status >= 400) throw new Error(`${link} answered ${answer.status}: ${await answer.text()}`);
    },
  };
}
