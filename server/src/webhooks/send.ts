import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { performance } from "node:perf_hooks";
import { VERSION } from "../version.js";
import { bareHost, isPrivateAddress } from "./address.js";

/**
 * One HTTP try of a delivery (README "Webhooks"): a POST of the body with the Standard Webhooks headers, answered
 * within the timeout (connection, answer and its body), no redirect followed (a 3xx is a failed try). The target's
 * address is checked after DNS, and the connection goes to the address that was checked (the socket's `lookup`
 * answers only it), so a name that resolves to a public address for the check and a private one for the
 * connection (DNS rebinding) cannot reach the private one.
 */

/** What is kept of an answer's body in the delivery log. */
export const RESPONSE_BODY_CHARACTERS = 1_000;
/** What is read of it at most (the rest is not waited for). */
const RESPONSE_BODY_BYTES = 4_096;

export interface SendOutcome {
  /** delivered: a 2xx answer; failed: another answer, a timeout or a network error; refused: a private target, not sent. */
  result: "delivered" | "failed" | "refused";
  status: number | null;
  body: string | null;
  error: string | null;
  /** From the request to the answer's end (0 when refused). */
  seconds: number;
}

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  agents: { http: http.Agent; https: https.Agent };
}

/** A target refused after DNS (or as an address written in the URL). */
export class PrivateTargetError extends Error {
  override name = "PrivateTargetError";
  constructor(readonly address: string) {
    super(`refused: ${address} is a private, loopback or link-local address (webhooks.allowPrivateTargets is off)`);
  }
}

class TimeoutError extends Error {
  override name = "TimeoutError";
}

/**
 * The sockets' DNS: every address the name resolves to is checked (one private address refuses the name: its owner
 * chooses what a resolver answers), and the connection is given the first of them only.
 */
export function guardedLookup(allowPrivateTargets: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints ?? 0 }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      const refused = allowPrivateTargets ? undefined : addresses.find((a) => isPrivateAddress(a.address));
      const chosen = addresses[0];
      if (refused || !chosen) {
        return callback(refused ? new PrivateTargetError(refused.address) : new Error(`${hostname} has no address`), "", 0);
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [chosen]);
      else callback(null, chosen.address, chosen.family);
    });
  };
}

/** The agents deliveries share: kept-alive connections, at most `maxSockets` per target. */
export function createAgents(maxSockets: number): SendOptions["agents"] {
  const options = { keepAlive: true, maxSockets, maxFreeSockets: Math.min(maxSockets, 16), scheduling: "lifo" as const };
  return { http: new http.Agent(options), https: new https.Agent(options) };
}

function describe(error: unknown): string {
  if (error instanceof TimeoutError) return error.message;
  if (error instanceof PrivateTargetError) return error.message;
  const e = error as NodeJS.ErrnoException;
  const text = e.code ? `${e.code}: ${e.message}` : String(e.message ?? error);
  return text.slice(0, 500);
}

function sendOnce(request: SendRequest, options: SendOptions): Promise<SendOutcome & { retryable: boolean }> {
  const started = performance.now();
  const elapsed = () => (performance.now() - started) / 1000;
  const url = new URL(request.url);
  const host = bareHost(url.hostname);
  if (isIP(host) !== 0 && !options.allowPrivateTargets && isPrivateAddress(host)) {
    const refused = new PrivateTargetError(host);
    return Promise.resolve({ result: "refused", status: null, body: null, error: refused.message, seconds: 0, retryable: false });
  }
  const secure = url.protocol === "https:";
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome, retryable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, retryable });
    };
    const req = (secure ? https : http).request({
      protocol: url.protocol,
      hostname: host,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: "POST",
      agent: secure ? options.agents.https : options.agents.http,
      lookup: guardedLookup(options.allowPrivateTargets),
      headers: {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(request.body)),
        "user-agent": `Gatehouse-Webhooks/${VERSION}`,
        ...request.headers,
      },
    });
    // Set once the status line came: what the receiver decided, whatever becomes of the rest of its body.
    let answered: (() => void) | null = null;
    const timer = setTimeout(() => {
      const timeout = new TimeoutError(`timeout: no complete answer within ${options.timeoutMs / 1000} s`);
      if (answered) answered();
      else finish({ result: "failed", status: null, body: null, error: timeout.message, seconds: elapsed() });
      req.destroy(timeout);
    }, options.timeoutMs);
    req.on("error", (error) => {
      const reused = req.reusedSocket && (error as NodeJS.ErrnoException).code === "ECONNRESET";
      finish(
        {
          result: error instanceof PrivateTargetError ? "refused" : "failed",
          status: null,
          body: null,
          error: describe(error),
          seconds: error instanceof PrivateTargetError ? 0 : elapsed(),
        },
        reused,
      );
    });
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        // NUL is the one character PostgreSQL's text refuses; the log keeps the rest as it came (as UTF-8).
        const text = Buffer.concat(chunks).toString("utf8").replaceAll("\u0000", "").slice(0, RESPONSE_BODY_CHARACTERS);
        const ok = status >= 200 && status < 300;
        finish({
          result: ok ? "delivered" : "failed",
          status,
          body: text,
          error: ok ? null : status >= 300 && status < 400 ? `redirect (${status}) not followed` : `answered ${status}`,
          seconds: elapsed(),
        });
      };
      answered = done;
      res.on("data", (chunk: Buffer) => {
        if (size >= RESPONSE_BODY_BYTES) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_BODY_BYTES) {
          done();
          res.destroy();
        }
      });
      res.on("end", done);
      // The status came: an answer cut short still says what the receiver decided.
      res.on("error", done);
      res.on("aborted", done);
    });
    req.end(request.body);
  });
}

/**
 * Sends one try. A kept-alive connection the receiver had closed just before (ECONNRESET on a reused socket) is
 * tried once more on a new one, as it never reached the receiver.
 */
export async function sendWebhook(request: SendRequest, options: SendOptions): Promise<SendOutcome> {
  const first = await sendOnce(request, options);
  if (!first.retryable) return strip(first);
  return strip(await sendOnce(request, options));
}

function strip(outcome: SendOutcome & { retryable: boolean }): SendOutcome {
  const { retryable: _retryable, ...rest } = outcome;
  return rest;
}
