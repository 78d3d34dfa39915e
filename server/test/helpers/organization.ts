import { createHash } from "node:crypto";
import type { PasswordHasher } from "../../src/credentials/password.js";
import { signUp, TestClient, uniqueEmail } from "./http-client.js";
import type { TestServer } from "./server.js";

/**
 * Organization tests sign up many users; scrypt is not what they test, so they hash with SHA-256
 * (the password suite covers the real hasher).
 */
export function fastHasher(): PasswordHasher {
  const digest = (password: string) => createHash("sha256").update(password).digest("hex");
  return {
    hash: async (password) => `fast:${digest(password)}`,
    verify: async (hash, password) => hash === `fast:${digest(password)}`,
    verifyDummy: async () => undefined,
    close: async () => undefined,
  };
}

export interface Person {
  client: TestClient;
  id: string;
  email: string;
}

export type Role = "owner" | "admin" | "member";

let slugCounter = 0;
export function uniqueSlug(prefix = "org"): string {
  slugCounter += 1;
  return `${prefix}-${Date.now().toString(36)}-${slugCounter}-${Math.random().toString(36).slice(2, 6)}`;
}

/** Fixtures over one running server: people, organizations and memberships, made through the API. */
export function organizationFixtures(server: () => TestServer, origin?: string) {
  const client = () => new TestClient(server().base, origin ?? new URL(server().base).origin);

  /** A signed-up user holding a session; verified (email) unless told otherwise. */
  async function person(opts: { verified?: boolean; email?: string; name?: string; lang?: string } = {}): Promise<Person> {
    const c = client();
    const { user, email } = await signUp(c, {
      email: opts.email ?? uniqueEmail("org"),
      ...(opts.name ? { name: opts.name } : {}),
      ...(opts.lang ? { lang: opts.lang } : {}),
    });
    if (opts.verified !== false) {
      await server().gatehouse.runtime.stores.users.updateUser(user.id, { emailVerified: true, updatedAt: new Date() });
    }
    return { client: c, id: user.id as string, email };
  }

  /** An organization created by `owner` over HTTP (it becomes their active one). */
  async function organization(owner: Person, body: Record<string, unknown> = {}) {
    const res = await owner.client.post("/organization/create", { name: "Acme", slug: uniqueSlug(), ...body });
    if (res.status !== 200) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body as { id: string; slug: string; name: string; members: { id: string }[] };
  }

  /** Makes `who` a member with `role`, through the server-side API (no session: a trusted call). */
  async function join(organizationId: string, who: Person, role: Role | string = "member") {
    const member = await server().gatehouse.api.addMember({ body: { userId: who.id, role, organizationId } });
    return member as { id: string; role: string; userId: string };
  }

  /** An organization with an owner, an admin and a plain member. */
  async function team3() {
    const [owner, admin, member] = await Promise.all([person(), person(), person()]);
    const org = await organization(owner);
    const adminMember = await join(org.id, admin, "admin");
    const plainMember = await join(org.id, member, "member");
    for (const p of [admin, member]) await p.client.post("/organization/set-active", { organizationId: org.id });
    return { org, owner, admin, member, people: { owner, admin, member }, adminMember, plainMember };
  }

  return { client, person, organization, join, team3 };
}

export async function activeOrganizationOf(person: Person): Promise<string | null> {
  const res = await person.client.get("/get-session");
  return res.body?.session?.activeOrganizationId ?? null;
}
