import type { Runtime } from "../runtime.js";

/** What the new-device check and its mail use of the Runtime (it has no routes of its own). */
export type NewDeviceDeps = Pick<Runtime, "config" | "stores" | "mailer" | "base" | "logger" | "modules" | "now">;
