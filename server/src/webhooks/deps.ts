import { defineEndpointFor, type EndpointContext } from "../http/endpoint.js";
import type { Runtime } from "../runtime.js";
import type { WebhookRepositories } from "./store/index.js";

/**
 * What the webhooks' routes and dispatcher see: the configuration, the logger, the clock, the metrics and the
 * stores, typed with the module's repositories (the Runtime holds them once the module is installed).
 */
export type WebhookDeps = Pick<Runtime, "config" | "logger" | "metrics" | "now"> & {
  stores: Runtime["stores"] & WebhookRepositories;
};

export type WebhookContext<B = unknown, Q = unknown> = EndpointContext<B, Q, WebhookDeps>;

export const defineWebhookEndpoint = defineEndpointFor<WebhookDeps>();
