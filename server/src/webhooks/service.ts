import type { Config } from "../config/index.js";
import type { WebhookDeps } from "./deps.js";
import { WebhookDispatcher } from "./dispatcher.js";

/** Whether webhooks run: `webhooks.enabled`, and the security events they are made of (`events.enabled`). */
export const webhooksOn = (config: Pick<Config, "webhooks" | "events">): boolean => config.webhooks.enabled && config.events.enabled;

const dispatchers = new WeakMap<object, WebhookDispatcher>();

/** Starts the dispatcher of this Gatehouse instance (the module's `start`). */
export function startDispatcher(runtime: WebhookDeps): WebhookDispatcher {
  const dispatcher = new WebhookDispatcher(runtime);
  dispatchers.set(runtime, dispatcher);
  dispatcher.start();
  return dispatcher;
}

/**
 * Tells this instance's dispatcher that endpoints or deliveries changed (a route did it): it reads the endpoints
 * again and looks for due deliveries now. Other instances see the change within their next reads.
 */
export function nudgeDispatcher(runtime: object): void {
  const dispatcher = dispatchers.get(runtime);
  if (!dispatcher) return;
  dispatcher.endpoints.invalidate();
  dispatcher.nudge();
}
