import { Secret, TOTP } from "otpauth";

/** The authenticator app of a test: codes from the setup key (base32) the service gave. */
export function authenticatorApp(setupKey: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(setupKey), digits: 6, period: 30, algorithm: "SHA1" });
}

/**
 * A code of the app the service takes now: it accepts the steps next to the current one (clocks drift), but each
 * step once and only after the last it accepted (a code is never good twice). So the first step after every `used`
 * one within a step of now, waiting for the clock to move on when there is none yet.
 */
export async function freshCode(app: TOTP, used: Set<number>): Promise<string> {
  const last = Math.max(-1, ...used);
  for (;;) {
    const seconds = Date.now() / 1000;
    const now = Math.floor(seconds / app.period);
    // The step before now only while the service cannot reach the step after now before the code arrives (a page
    // fills it in, then submits: allow it 10 s); now and the step after are good whenever it arrives within 30 s.
    const early = seconds - now * app.period < app.period - 10 ? [now - 1] : [];
    const step = [...early, now, now + 1].find((candidate) => candidate > last);
    if (step !== undefined) {
      used.add(step);
      return app.generate({ timestamp: step * app.period * 1000 });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
