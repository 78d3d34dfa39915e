import nodemailer from "nodemailer";
import type { Logger } from "../logger.js";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Which message this is ("verification", "resetPassword", …), for logs and the outbox. */
  kind: string;
}

export interface OutboxEntry extends OutgoingMail {
  id: number;
  sentAt: string;
}

export interface Mailer {
  /** Resolves once the message is accepted for delivery; rejects when it cannot be. */
  send(mail: OutgoingMail): Promise<void>;
  /** The development outbox (only when no SMTP server is configured outside production). */
  outbox: OutboxEntry[] | null;
  describe: string;
  /**
   * False for the mailer that refuses everything (production without SMTP_URL): notices that are not worth an
   * error line each time (password or address changed) are then not attempted. Unset means it delivers.
   */
  delivers?: boolean;
  close(): Promise<void>;
}

/** Real mail over SMTP (smtp:// or smtps:// URL). */
export function smtpMailer(url: string, from: string, logger: Logger): Mailer {
  const transport = nodemailer.createTransport(url, { from });
  const target = new URL(url);
  return {
    outbox: null,
    describe: `smtp://${target.host}`,
    async send(mail) {
      try {
        await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
        logger.info({ kind: mail.kind }, "mail sent");
      } catch (error) {
        logger.error({ kind: mail.kind, err: (error as Error).message }, "mail could not be sent");
        throw error;
      }
    },
    async close() {
      transport.close();
    },
  };
}

const OUTBOX_SIZE = 100;

/**
 * Development without SMTP: messages are logged with their links and kept in memory, where the web app's
 * development-only outbox page lists them. Never used in production.
 */
export function outboxMailer(logger: Logger): Mailer {
  const outbox: OutboxEntry[] = [];
  let nextId = 1;
  return {
    outbox,
    describe: "development outbox",
    async send(mail) {
      outbox.unshift({ ...mail, id: nextId++, sentAt: new Date().toISOString() });
      outbox.length = Math.min(outbox.length, OUTBOX_SIZE);
      const links = mail.text.match(/https?:\/\/\S+/g) ?? [];
      logger.info({ kind: mail.kind, to: mail.to, subject: mail.subject, links }, "mail kept in the development outbox");
    },
    async close() {
      outbox.length = 0;
    },
  };
}

/**
 * Production without SMTP_URL: start-up refuses the features that need mail, and anything else that tries to
 * mail (an organization invitation, say) fails here with a log line, never leaking its link into the logs.
 */
export function refusingMailer(logger: Logger): Mailer {
  return {
    outbox: null,
    describe: "none (SMTP_URL not set)",
    delivers: false,
    async send(mail) {
      logger.error({ kind: mail.kind }, "mail not sent: no SMTP server is configured (set SMTP_URL)");
      throw new Error("No mailer configured");
    },
    async close() {},
  };
}
