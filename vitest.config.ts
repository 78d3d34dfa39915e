import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["server/test/**/*.test.ts", "server/src/**/*.test.ts", "client/test/**/*.test.ts", "web/src/**/*.test.ts", "e2e/**/*.test.ts", "compat/**/*.test.ts"],
    globalSetup: ["server/test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
