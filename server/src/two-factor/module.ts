import { defineModule } from "../gatehouse-module.js";
import { expirePendingCookie, pendingToken } from "./cookies.js";
import { disableTwoFactor, enableTwoFactor, generateBackupCodes, getTotpUri } from "./enrolment-routes.js";
import { forgetTrustedDevices, getFactors } from "./factor-routes.js";
import { TWO_FACTOR_MESSAGES } from "./messages.js";
import * as twoFactorTables from "./migrations/0010-two-factor.js";
import { forgetSignIn } from "./known-sign-ins.js";
import { TWO_FACTOR_MODULE } from "./policy.js";
import { tokenHash } from "./secrets.js";
import { twoFactorRepositories } from "./store/index.js";
import { TWO_FACTOR_TABLE_SPECS } from "./tables.js";
import { sendOtp, verifyBackupCode, verifyOtp, verifyTotp } from "./verify-routes.js";

/**
 * Second factors (README "Second factors"; Better Auth's twoFactor plugin, API-NOTES-PLUGINS.md section 2): TOTP,
 * backup codes, the email code, trusted devices, and the second step every sign-in meets (policy.ts, listed in
 * session/sign-in.ts POLICIES). `twoFactor.enabled` (default on) turns its routes and its policy on.
 */
export const twoFactorModule = defineModule({
  name: TWO_FACTOR_MODULE,
  enabled: (config) => config.twoFactor.enabled,
  endpoints: {
    enableTwoFactor,
    disableTwoFactor,
    getTotpUri,
    verifyTotp,
    sendOtp,
    verifyOtp,
    verifyBackupCode,
    generateBackupCodes,
    getFactors,
    forgetTrustedDevices,
  },
  migrations: { "0010-two-factor": twoFactorTables },
  tables: TWO_FACTOR_TABLE_SPECS,
  repositories: twoFactorRepositories,
  errors: TWO_FACTOR_MESSAGES,
  /**
   * A new password or "sign out everywhere" ends every trusted device and pending second step of the user; the
   * owner of an address proving it on an unverified account removes what its previous holder set up: every second
   * factor, backup code, pending step and trusted device, and twoFactorEnabled goes back to false.
   */
  async onCredentialsReset(stores, userId, reason) {
    if (reason === "mailbox-proven") {
      await stores.twoFactors.removeAllFactors(userId);
      return;
    }
    await stores.trustedDevices.deleteUserTrustedDevices(userId);
    await stores.twoFactorChallenges.deleteUserChallenges(userId);
  },
  /**
   * A browser signing out while a sign-in waits for its second step (the password given, the code not yet): the
   * pending step ends with its cookie, so nobody at that browser can finish it with a code afterwards. The
   * browser's trusted-device cookie stays (it is no sign-in; "sign out everywhere" or a new password ends it).
   */
  async onSignOut(ctx) {
    const { runtime } = ctx;
    const token = pendingToken(ctx, runtime.config);
    expirePendingCookie(ctx, runtime.config);
    if (token === null) return;
    const id = tokenHash(token);
    forgetSignIn(runtime, id);
    await runtime.stores.twoFactorChallenges.deleteChallenge(id);
  },
});
