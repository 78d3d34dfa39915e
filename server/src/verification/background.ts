import type { Logger } from "../logger.js";

/**
 * Routes that must not reveal whether an address has an account (forget-password, send-verification-email
 * without a session) answer after the same minimum time whatever happens, and do the real work (database
 * writes, SMTP) after answering.
 */
export const ANONYMOUS_MAIL_FLOOR_MS = 250;

export function inBackground(runtime: { logger: Logger }, what: string, task: () => Promise<void>): void {
  void task().catch((error: Error) => runtime.logger.error({ err: error.message, task: what }, "background task failed"));
}

export async function answerNoSoonerThan(start: number, ms = ANONYMOUS_MAIL_FLOOR_MS): Promise<void> {
  const wait = start + ms - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
