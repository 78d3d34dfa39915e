import { APIError } from "../http/errors.js";
import { twoFactorActive } from "../two-factor/policy.js";
import type { OrganizationDeps } from "./deps.js";
import { ORG_MESSAGES } from "./messages.js";

/**
 * An organization's second-factor policy (organization.requireTwoFactor; README "Organization policy and
 * administrators"): a member whose account has no second factor (user.twoFactorEnabled false: no confirmed
 * authenticator and no email code; a passkey alone does not count) is refused every route that acts within the
 * organization, with 403 TWO_FACTOR_REQUIRED_BY_ORGANIZATION. Listing their organizations, leaving one and answering
 * invitations stay open, so they see why and can enrol (or go).
 *
 * Called with the signed-in caller once they are known to be a member, so a non-member hears the usual refusal and
 * learns nothing of the policy. A trusted server-side call (no session) is not checked. While the two-factor module is off (or not
 * installed) nobody can enrol and nobody meets a second step, so the policy is not enforced either.
 */
export async function requireSecondFactorForOrganization(
  runtime: OrganizationDeps,
  organizationId: string,
  callerId: string,
): Promise<void> {
  if (!(await satisfiesSecondFactorPolicy(runtime, organizationId, callerId))) throw secondFactorRequired();
}

/** The refusal itself: 403 TWO_FACTOR_REQUIRED_BY_ORGANIZATION. */
export function secondFactorRequired(): APIError {
  return new APIError("FORBIDDEN", ORG_MESSAGES.TWO_FACTOR_REQUIRED_BY_ORGANIZATION);
}

/** Whether the caller may use an organization that requires a second factor (read from the database, not a cache). */
export async function satisfiesSecondFactorPolicy(
  runtime: OrganizationDeps,
  organizationId: string,
  userId: string,
): Promise<boolean> {
  if (!twoFactorActive(runtime)) return true;
  return !(await runtime.stores.organizations.refusesForMissingSecondFactor(organizationId, userId));
}
