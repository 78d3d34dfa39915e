import { randomFill } from "node:crypto";
import { readdirSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { expect, it } from "vitest";
import { loadServiceSettings } from "../src/config/env.js";
import { lowerHelperThreads } from "../src/helper-threads.js";

const threads = () => readdirSync("/proc/self/task").map(Number);

it.runIf(process.platform === "linux")(
  "lowers the helper threads (libuv's pool, V8's) to the niceness given, never the event loop's thread, and leaves a thread already lowered",
  async () => {
    // The pool's threads exist once it ran a job; one of them is given a niceness of its own first.
    await new Promise((resolve) => randomFill(Buffer.alloc(1), resolve));
    const helpers = threads().filter((tid) => tid !== process.pid && getPriority(tid) === 0);
    expect(helpers.length).toBeGreaterThanOrEqual(4);
    const own = helpers[helpers.length - 1]!;
    setPriority(own, 3);

    const lowered = await lowerHelperThreads(7);

    expect(lowered).toBeGreaterThanOrEqual(helpers.length - 1);
    expect(getPriority(process.pid)).toBe(0);
    expect(getPriority(own)).toBe(3);
    for (const tid of helpers.slice(0, -1)) expect(getPriority(tid)).toBe(7);
  },
);

it("reads GATEHOUSE_HELPER_NICE: 10 unless set, 0 to leave the threads alone, anything else outside 0-19 refused", () => {
  expect(loadServiceSettings({ GATEHOUSE_DATA_DIR: "/tmp/gatehouse-nice-test" }, { writeSecret: false }).helperThreadNice).toBe(10);
  expect(loadServiceSettings({ GATEHOUSE_DATA_DIR: "/tmp/gatehouse-nice-test", GATEHOUSE_HELPER_NICE: "0" }, { writeSecret: false }).helperThreadNice).toBe(0);
  expect(loadServiceSettings({ GATEHOUSE_DATA_DIR: "/tmp/gatehouse-nice-test", GATEHOUSE_HELPER_NICE: "19" }, { writeSecret: false }).helperThreadNice).toBe(19);
  for (const bad of ["20", "-1", "ten", "2.5"]) {
    expect(() => loadServiceSettings({ GATEHOUSE_DATA_DIR: "/tmp/gatehouse-nice-test", GATEHOUSE_HELPER_NICE: bad }, { writeSecret: false })).toThrow(
      /GATEHOUSE_HELPER_NICE must be an integer from 0 to 19/,
    );
  }
});
