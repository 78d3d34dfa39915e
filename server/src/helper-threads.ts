import { randomFill } from "node:crypto";
import { readdirSync } from "node:fs";
import { getPriority, setPriority } from "node:os";

/**
 * Lowers the priority of the process's helper threads (`gatehouse serve`, GATEHOUSE_HELPER_NICE, 10 by default):
 * libuv's pool (where RSA and EC signatures, Argon2 verifications and file reads run) and V8's platform threads
 * (concurrent garbage collection, compilation). Linux only; answers how many threads it lowered.
 *
 * Why: the event loop is one thread and the service's limit, and on a small machine the pool's threads take its
 * core from it. Measured on 2 cores: with two or more pool threads signing RS256, the event loop got 60% of a core
 * (the scheduler shares the cores evenly between runnable threads) and handing a signature to the pool took 55 µs of
 * its time instead of 1.5; with the pool's threads at nice 10 it kept its whole core. The OpenID token endpoint,
 * which signs an ID token (and a JWT access token) per request, answered 2–15% more requests per second on SQLite
 * (bench/README.md). The threads still get every core the event loop leaves; they only yield when both want one.
 *
 * Threads started later inherit the event loop's priority: the hashing workers set their own
 * (`password.workerNice`), and the SQLite checkpointer keeps the event loop's. Threads already lowered (any nice
 * but 0) are left as they are.
 */
export async function lowerHelperThreads(nice: number): Promise<number> {
  if (process.platform !== "linux") return 0;
  // The pool's threads are started on its first job, all at once: one small job makes them exist.
  await new Promise((resolve) => randomFill(Buffer.alloc(1), resolve));
  let lowered = 0;
  let tasks: string[];
  try {
    tasks = readdirSync("/proc/self/task");
  } catch {
    return 0;
  }
  for (const task of tasks) {
    const tid = Number(task);
    if (tid === process.pid) continue;
    try {
      if (getPriority(tid) !== 0) continue;
      setPriority(tid, nice);
      lowered += 1;
    } catch {
      // A thread that ended meanwhile, or a system that refuses: it keeps its priority.
    }
  }
  return lowered;
}
