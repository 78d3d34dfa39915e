import { pbkdf2Sync } from "node:crypto";
import type { FirebaseHashConfig } from "../../src/credentials/hash-formats.js";

/** Firebase's documented sample (Authentication, "Password hash parameters", and its user import guide). */
export const FIREBASE_SAMPLE = {
  config: {
    signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
    saltSeparator: "Bw==",
    rounds: 8,
    memCost: 14,
  } satisfies FirebaseHashConfig,
  salt: "42xEC+ixf3L2lw==",
  password: "user1password",
  passwordHash: "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==",
};

/** Django's PBKDF2-SHA256 hash (django.contrib.auth.hashers.PBKDF2PasswordHasher), made with node:crypto. */
export function djangoHash(password: string, salt: string, iterations: number): string {
  return `pbkdf2_sha256$${iterations}$${salt}$${pbkdf2Sync(password, salt, iterations, 32, "sha256").toString("base64")}`;
}
