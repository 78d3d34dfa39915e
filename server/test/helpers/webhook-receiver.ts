import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";

/**
 * A webhook receiver for the tests: a real HTTP server on 127.0.0.1 that keeps every request and answers as the test
 * says. `verifyStandardWebhook` checks a request the way the Standard Webhooks specification tells receivers to,
 * written here from the specification (not from the service's code), so a signature the service gets wrong fails.
 */
export interface ReceivedWebhook {
  /** The request's path and query. */
  path: string;
  id: string;
  timestamp: string;
  signature: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered. */
  status: number;
  at: number;
}

/** A status (the body is then "ok" or "nope <status>"), or a status and the body to answer with. */
export type AnswerValue = number | { status: number; body: string };
export type Answer = (request: { id: string; body: string; headers: IncomingHttpHeaders; count: number }) => AnswerValue | Promise<AnswerValue>;

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** How each request is answered (default 200); `count` is how many requests with this webhook-id came before. */
  answer: Answer;
  /** Requests answered 2xx, by webhook-id. */
  acknowledged(): Map<string, number>;
  /** Resolves once `check` holds (polled), or throws after `timeoutMs`. */
  waitFor(check: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(path = "/hooks"): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const seen = new Map<string, number>();
  const receiver: WebhookReceiver = {
    url: "",
    port: 0,
    received,
    answer: () => 200,
    acknowledged() {
      const ids = new Map<string, number>();
      for (const r of received) if (r.status >= 200 && r.status < 300) ids.set(r.id, (ids.get(r.id) ?? 0) + 1);
      return ids;
    },
    async waitFor(check, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (!check(received)) {
        if (Date.now() > until) throw new Error(`webhook receiver: still waiting after ${timeoutMs} ms (${received.length} received)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const id = String(req.headers["webhook-id"] ?? "");
      const count = seen.get(id) ?? 0;
      seen.set(id, count + 1);
      void Promise.resolve(receiver.answer({ id, body, headers: req.headers, count })).then((answer) => {
        const status = typeof answer === "number" ? answer : answer.status;
        const text = typeof answer === "number" ? (status >= 200 && status < 300 ? "ok" : `nope ${status}`) : answer.body;
        received.push({
          path: req.url ?? "",
          id,
          timestamp: String(req.headers["webhook-timestamp"] ?? ""),
          signature: String(req.headers["webhook-signature"] ?? ""),
          headers: req.headers,
          body,
          status,
          at: Date.now(),
        });
        res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
        res.end(text);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  receiver.port = typeof address === "object" && address ? address.port : 0;
  receiver.url = `http://127.0.0.1:${receiver.port}${path}`;
  return receiver;
}

/**
 * The Standard Webhooks receiver's check: the secret is `whsec_` + base64 key bytes; the signed content is
 * `{webhook-id}.{webhook-timestamp}.{body}`; the signature header holds space-separated `v1,<base64>` entries, one
 * of which must equal HMAC-SHA256 of that content (compared in constant time); the timestamp must be within the
 * tolerance of now (five minutes), against replays.
 */
export function verifyStandardWebhook(
  secret: string,
  message: { id: string; timestamp: string; signature: string; body: string },
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  if (!secret.startsWith("whsec_")) return false;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const timestamp = Number(message.timestamp);
  if (!/^\d+$/.test(message.timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = createHmac("sha256", key).update(`${message.id}.${message.timestamp}.${message.body}`).digest();
  return message.signature.split(" ").some((entry) => {
    const [version, value] = entry.split(",", 2);
    if (version !== "v1" || !value) return false;
    const given = Buffer.from(value, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
