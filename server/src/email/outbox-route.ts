import { z } from "zod";
import { defineEndpoint } from "../http/endpoint.js";
import { APIError } from "../http/errors.js";
import { HTTP_MESSAGES } from "../http/messages.js";

/**
 * Development only: the messages the outbox mailer kept (no SMTP server configured). In production, or with
 * a real mailer, the route does not exist (404). It holds every reset, verification and deletion link, and
 * `npm start` listens on every interface, so it answers this machine only (Endpoint.loopbackOnly: the socket's
 * address, never a forwarded header); anyone else is told 404.
 */
export const devOutbox = defineEndpoint({
  method: "GET",
  path: "/dev/outbox",
  auth: "none",
  loopbackOnly: true,
  response: z.array(
    z.object({
      id: z.number(),
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      html: z.string(),
      kind: z.string(),
      sentAt: z.string(),
    }),
  ),
  summary: "Development only: mail kept in the outbox instead of being sent",
  tags: ["Development"],
  async handler(ctx) {
    const outbox = ctx.runtime.mailer.outbox;
    if (ctx.runtime.config.production || !outbox) throw new APIError("NOT_FOUND", HTTP_MESSAGES.NOT_FOUND);
    return outbox;
  },
});
