import { spawn } from "node:child_process";
import { openSync, closeSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { vacuumBenchDatabases } from "./pg-admin.mjs";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a Node server as a child process (its own PID, so /proc shows its memory alone) and waits until
 * GET readyPath answers. stdout and stderr go to logFile.
 */
export async function startServer({ name, command, args, env, port, readyPath, logFile, nodeArgs = [] }) {
  const fd = openSync(logFile, "w");
  // NODE_ENV is left unset for every server: production mode would ask Gatehouse for mail settings it does
  // not need here; both servers get their secret and base URL explicitly.
  const childEnv = { ...process.env, ...env, PORT: String(port) };
  delete childEnv.NODE_ENV;
  // A launcher script (Gatehouse's server/bin/gatehouse) execs Node itself, keeping this PID, and takes Node's
  // own options from GATEHOUSE_NODE_ARGS.
  if (command && nodeArgs.length) childEnv.GATEHOUSE_NODE_ARGS = nodeArgs.join(" ");
  const child = spawn(command ?? process.execPath, command ? args : [...nodeArgs, ...args], {
    env: childEnv,
    stdio: ["ignore", fd, fd, "ipc"],
  });
  closeSync(fd);
  let exited = null;
  const exitPromise = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    }),
  );
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (exited) throw new Error(`${name} exited during start-up (${JSON.stringify(exited)}); see ${logFile}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}${readyPath}`);
      await response.arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(`${name} did not answer on port ${port} within 90 s; see ${logFile}`);
      }
      await sleep(100);
    }
  }
  return {
    name,
    pid: child.pid,
    port,
    base: `http://127.0.0.1:${port}`,
    get exited() {
      return exited;
    },
    async stop() {
      if (exited) return exited;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      const result = await exitPromise;
      clearTimeout(timer);
      return result;
    },
  };
}

/** VmRSS (now) and VmHWM (peak since start) of a process, in MiB. */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(kb("VmRSS") / 102.4) / 10, hwmMb: Math.round(kb("VmHWM") / 102.4) / 10 };
}

/** CPU time of a process (all its threads), in clock ticks (1/100 s on Linux): user and system. */
export function cpuTimes(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { user: Number(fields[11]), system: Number(fields[12]) }; // utime, stime (fields 14 and 15 of the line)
}

/** CPU time of one thread of a process (tid = pid: its main thread, where Node's event loop runs), in clock ticks. */
export function threadCpuTimes(pid, tid = pid) {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { user: Number(fields[11]), system: Number(fields[12]) };
}

function cpuTicks(pid) {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/**
 * Waits until a process, or each of several in turn, is idle (under 10% of one core over 300 ms), e.g. after a load
 * leaves hashes queued. On a PostgreSQL server with autovacuum off, vacuums the run's databases first, once for all
 * of them (pg-admin.mjs vacuumBenchDatabases).
 */
export async function settle(pids, maxMs = 20_000) {
  await vacuumBenchDatabases();
  for (const pid of [pids].flat()) await settleProcess(pid, maxMs);
}

async function settleProcess(pid, maxMs) {
  const end = Date.now() + maxMs;
  let last = cpuTicks(pid);
  let machine = machineActivity();
  while (Date.now() < end) {
    await sleep(300);
    const now = cpuTicks(pid);
    const machineNow = machineActivity();
    // The server quiet, and the machine too: a database still vacuuming or writing out a checkpoint after the
    // last load (CPU or disk wait) would otherwise land in the next load's latencies.
    const active = (machineNow.active - machine.active) / Math.max(1, machineNow.total - machine.total);
    if (now - last < 3 && active < 0.15) return;
    last = now;
    machine = machineNow;
  }
}

/** CPU ticks spent working or waiting for the disk, and all ticks, of the whole machine. */
function machineActivity() {
  const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const active = user + nice + system + iowait + irq + softirq + steal;
  return { active, total: active + idle };
}

/** Busy and total CPU ticks of the whole machine (all cores), from /proc/stat. */
export function machineTicks() {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0];
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return { busy: user + nice + system + irq + softirq + steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}
