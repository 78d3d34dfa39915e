import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SERVER_SRC = fileURLToPath(new URL("../../src", import.meta.url));
const REPOSITORY = fileURLToPath(new URL("../../..", import.meta.url));

export interface CliBuild {
  /** The built main.js, to run with node. */
  main: string;
  remove(): void;
}

/**
 * The CLI as its own process, as operators run it: server/src transpiled file by file into a temporary folder (no
 * type check, which the typecheck step does; a few hundred milliseconds instead of a full build), with the
 * repository's node_modules linked beside it so that its packages resolve.
 */
export function buildCli(): CliBuild {
  const root = mkdtempSync(join(tmpdir(), "gatehouse-cli-"));
  const out = join(root, "dist");
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") && !entry.name.endsWith(".test.ts")) {
        const { outputText } = ts.transpileModule(readFileSync(path, "utf8"), {
          fileName: path,
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        });
        const target = join(out, relative(SERVER_SRC, path)).replace(/\.ts$/, ".js");
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, outputText);
      }
    }
  };
  walk(SERVER_SRC);
  writeFileSync(join(root, "package.json"), JSON.stringify({ type: "module" }));
  symlinkSync(join(REPOSITORY, "node_modules"), join(root, "node_modules"), "dir");
  return { main: join(out, "main.js"), remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs `gatehouse <args>` in `cwd` with exactly `env` (plus PATH), never throwing on a non-zero exit. */
export function runCli(build: CliBuild, args: string[], opts: { cwd: string; env: Record<string, string | undefined> }): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [build.main, ...args],
      { cwd: opts.cwd, env: { PATH: process.env.PATH, ...opts.env }, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ status, stdout, stderr });
      },
    );
  });
}
