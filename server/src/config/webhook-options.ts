import { createHash } from "node:crypto";
import { z } from "zod";
import { typesMatching } from "../events/types.js";
import { privateHostProblem } from "../webhooks/address.js";
import { webhookSecretKey } from "../webhooks/secrets.js";

/**
 * Options of the webhooks (`webhooks`, server/src/webhooks/, README "Webhooks"), and the rules an endpoint follows
 * wherever it is declared: the configuration file (`webhooks.endpoints`) or the admin API.
 */

/** Seconds between one try and the next: the Standard Webhooks specification's schedule, about a day in all. */
export const DEFAULT_RETRY_SCHEDULE = [5, 30, 120, 600, 1800, 7200, 21_600, 43_200];

export const MAX_WEBHOOK_URL = 2048;

/**
 * Why a webhook URL is refused as written, or null: absolute http(s), no user or password (the signature is the
 * receiver's proof, and the URL is shown to every administrator), no fragment. A private host is a separate check
 * (privateHostProblem), waived by `allowPrivateTargets`.
 */
export function webhookURLProblem(url: string): string | null {
  if (url.length > MAX_WEBHOOK_URL) return `must be at most ${MAX_WEBHOOK_URL} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "must be an https:// or http:// URL";
  if (parsed.username || parsed.password) return "must not hold a user name or password";
  if (url.includes("#")) return "must not have a fragment";
  if (/\s/.test(url)) return "must not contain white space";
  return null;
}

/** A URL's problem including its host, under the `allowPrivateTargets` setting. */
export function webhookTargetProblem(url: string, allowPrivateTargets: boolean): string | null {
  const problem = webhookURLProblem(url);
  if (problem || allowPrivateTargets) return problem;
  const host = privateHostProblem(new URL(url).hostname);
  return host ? `host ${host}; set webhooks.allowPrivateTargets to allow it` : null;
}

/**
 * An endpoint's event filter: exact types (`user.banned`), prefixes (`user.*`) and `*`; each must name at least one
 * type this version knows. Absent (null) means every type.
 */
export const eventPatternSchema = z
  .string()
  .min(1)
  .max(128)
  .refine((pattern) => typesMatching(pattern).length > 0, {
    message: "must be an event type (user.banned), a prefix (user.*) or *",
  });

export const eventFilterSchema = z
  .array(eventPatternSchema)
  .min(1, "must name at least one type (leave it out for every type)")
  .max(100)
  .transform((patterns) => [...new Set(patterns)]);

export const webhookSecretSchema = z
  .string()
  .max(200)
  .refine((secret) => webhookSecretKey(secret) !== null, {
    message: "must be whsec_ followed by the standard base64 of 24 to 64 random bytes",
  });

const configEndpointSchema = z.strictObject({
  url: z.string().refine((url) => webhookURLProblem(url) === null, { message: "must be an absolute https:// or http:// URL without user, password or fragment" }),
  secret: webhookSecretSchema,
  /** Absent: every type. */
  events: eventFilterSchema.optional(),
  enabled: z.boolean().default(true),
  /** Shown in the admin console. */
  description: z.string().max(200).optional(),
});

export type ConfigEndpointOptions = z.output<typeof configEndpointSchema>;

/** The id a configuration file's endpoint goes by (its delivery log's key): `config_` + a digest of its URL. */
export function configEndpointId(url: string): string {
  return `config_${createHash("sha256").update(url).digest("hex").slice(0, 24)}`;
}

export const webhookOptionsSchema = z
  .strictObject({
    /** Off: nothing is delivered and the admin routes answer 404. Webhooks also need `events.enabled`. */
    enabled: z.boolean().default(true),
    /** Endpoints declared here: read-only in the admin API and console. */
    endpoints: z
      .array(configEndpointSchema)
      .max(100)
      .default([])
      .refine((list) => new Set(list.map((e) => e.url)).size === list.length, "two endpoints share a URL"),
    /** Seconds to wait after each failed try; the delivery fails for good after the last. */
    retrySchedule: z.array(z.number().min(0).max(604_800)).max(30).default(DEFAULT_RETRY_SCHEDULE),
    /** Let endpoints reach private, loopback and link-local addresses (a receiver on the same network). */
    allowPrivateTargets: z.boolean().default(false),
    /** Seconds a receiver has to answer a delivery (connection, answer and its body). */
    timeout: z.number().min(1).max(60).default(10),
    /** Deliveries in flight at once, per instance (README "Configuration": why 128). */
    concurrency: z.number().int().min(1).max(256).default(128),
  })
  .prefault({})
  .superRefine((options, ctx) => {
    options.endpoints.forEach((endpoint, index) => {
      if (webhookURLProblem(endpoint.url) !== null) return; // already reported
      const problem = webhookTargetProblem(endpoint.url, options.allowPrivateTargets);
      if (problem) ctx.addIssue({ code: "custom", path: ["endpoints", index, "url"], message: problem });
    });
  });

export type WebhookOptions = z.output<typeof webhookOptionsSchema>;
