import { buildEventRow, emitEvent, eventInsert, systemEventSource } from "../events/emit.js";
import { insertUserWithPassword } from "../credentials/credential-account.js";
import { checkNewPassword } from "../credentials/rules.js";
import type { Runtime } from "../runtime.js";
import type { User } from "../storage/models.js";
import { isValidEmail, normalizeEmail } from "../user/email-address.js";
import { newUserRecord } from "../user/new-user.js";
import { isAdministrator, rolesOf } from "./access.js";

export interface CreateAdminInput {
  email: string;
  password?: string | undefined;
  name?: string | undefined;
}

export interface CreateAdminResult {
  action: "created" | "promoted" | "unchanged";
  user: User;
}

/** A refusal of the create-admin command, worded for the operator. */
export class CreateAdminError extends Error {
  override name = "CreateAdminError";
}

/**
 * The first administrator (`gatehouse create-admin`): creates a user with a credential account, a verified
 * address and the first of admin.adminRoles, or gives that role to an existing user (whose password is left as
 * it is). Running it again changes nothing.
 */
export async function createAdmin(runtime: Runtime, input: CreateAdminInput): Promise<CreateAdminResult> {
  const options = runtime.config.admin;
  const role = options.adminRoles[0];
  if (!role) throw new CreateAdminError("admin.adminRoles is empty: there is no role to give an administrator");
  const email = normalizeEmail(input.email);
  if (!isValidEmail(email)) throw new CreateAdminError(`"${input.email}" is not a valid email address`);

  const existing = await runtime.stores.users.findUserByEmail(email);
  if (existing) {
    if (isAdministrator(options, existing)) return { action: "unchanged", user: existing };
    const roles = [...rolesOf(options, existing.role).filter((r) => r !== options.defaultRole), role];
    const user = await runtime.stores.transaction(async (stores) => {
      const promoted = await stores.users.updateUser(existing.id, { role: roles.join(","), updatedAt: runtime.now() });
      if (promoted) {
        await emitEvent(stores, systemEventSource(runtime), "user.role_changed", {
          userId: promoted.id,
          data: { from: existing.role, to: promoted.role ?? "" },
        });
      }
      return promoted;
    });
    return { action: "promoted", user: user ?? existing };
  }

  if (!input.password) throw new CreateAdminError("a password is needed to create a new administrator (--password)");
  try {
    checkNewPassword(runtime, input.password);
  } catch (error) {
    throw new CreateAdminError(`the password is refused: ${(error as Error).message}`);
  }
  const hash = await runtime.hasher.hash(input.password);
  const user = newUserRecord({ name: input.name?.trim() || "Administrator", email, role, emailVerified: true }, runtime.now());
  // The command line's change: the system's event (no request, no actor).
  const created = buildEventRow(systemEventSource(runtime), "user.created", {
    userId: user.id,
    data: { method: "admin", email },
  });
  await insertUserWithPassword(runtime, user, hash, undefined, eventInsert(runtime.stores, created));
  return { action: "created", user };
}
