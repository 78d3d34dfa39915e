// The `events` part's webhook receiver, run as a child process of its own (lib/events.mjs starts it with fork()), so
// that its CPU is neither the server's nor the driver's. It checks every delivery as README.md ("Webhooks") tells a
// receiver to: the Standard Webhooks signature (HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the
// bytes of the whsec_ secret) over the body as it arrived, the timestamp within 5 minutes of its clock, and the body's
// event id equal to `webhook-id`; then answers 204 (401 to a delivery that fails the check, which the service will
// try again). Each accepted delivery is recorded with the time its body was complete (Date.now(), the clock the
// service stamps its events with: both processes run on this machine).
//
// IPC: it sends { port } once listening. Messages from the parent: { cmd: "take" } answers { records, invalid } and
// forgets them; { cmd: "wait", ids, timeoutMs } answers { done, missing } as soon as every id has been received
// since the last take (or when the time is up).
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const secret = process.env.RECEIVER_SECRET ?? "";
if (!secret.startsWith("whsec_")) throw new Error("RECEIVER_SECRET must be a whsec_ secret");
const key = Buffer.from(secret.slice("whsec_".length), "base64");

let records = [];
let invalid = [];
let seen = new Set();
let waiter = null;

function verify(headers, body) {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  if (!id || !/^\d+$/.test(timestamp ?? "")) return "missing webhook-id or webhook-timestamp";
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return "timestamp too far from the clock";
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  const ok = (headers["webhook-signature"] ?? "").split(" ").some((entry) => {
    const [version, signature = ""] = entry.split(",");
    const given = Buffer.from(signature, "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
  return ok ? null : "bad signature";
}

function checkWaiter() {
  if (!waiter) return;
  for (const id of waiter.ids) if (!seen.has(id)) return;
  waiter.finish(true);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const receivedAt = Date.now();
    const body = Buffer.concat(chunks).toString("utf8");
    let problem = req.method === "POST" ? verify(req.headers, body) : "not a POST";
    let event = null;
    if (!problem) {
      try {
        event = JSON.parse(body);
        if (event?.data?.id !== req.headers["webhook-id"]) problem = "the body's event id is not webhook-id";
      } catch {
        problem = "the body is not JSON";
      }
    }
    if (problem) {
      invalid.push(problem);
      res.writeHead(401).end();
      return;
    }
    res.writeHead(204).end();
    records.push({
      id: event.data.id,
      seq: Number(event.data.seq),
      type: event.type,
      userId: event.data.userId,
      createdAt: Date.parse(event.timestamp),
      receivedAt,
      attemptAt: Number(req.headers["webhook-timestamp"]) * 1000,
    });
    seen.add(event.data.id);
    checkWaiter();
  });
});
server.keepAliveTimeout = 60_000;

process.on("message", (message) => {
  if (message.cmd === "take") {
    process.send({ reply: message.ref, records, invalid });
    records = [];
    invalid = [];
    seen = new Set();
  } else if (message.cmd === "wait") {
    if (waiter) waiter.finish(false);
    const ids = new Set(message.ids);
    const finish = (done) => {
      if (waiter?.finish !== finish) return;
      waiter = null;
      clearTimeout(timer);
      process.send({ reply: message.ref, done, missing: [...ids].filter((id) => !seen.has(id)).length });
    };
    const timer = setTimeout(() => finish(false), message.timeoutMs);
    waiter = { ids, finish };
    checkWaiter();
  }
});
process.on("disconnect", () => process.exit(0));

server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
