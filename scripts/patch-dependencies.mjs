#!/usr/bin/env node
/**
 * Run by `npm install` (the root package's postinstall): one change to an installed dependency, for speed only,
 * behaviour unchanged.
 *
 * oidc-provider's actions check a result with Koa's `ctx.assert(value, new SomeError(...))`, which builds the error,
 * and captures its stack twice, before it looks at the value: on every successful userinfo request three errors are
 * made and thrown away, a tenth of that request's time (bench/README.md "OpenID Provider"). Each such line is
 * rewritten as `if (!(value)) throw new SomeError(...);`. The two are the same: Koa's assert (http-assert) throws
 * `createError(err)`, and http-errors hands back an error that already carries a status (every oidc-provider error
 * does) as it is.
 *
 * Only the version checked here is changed; another version is left as it is, with a warning, and the service works
 * the same (more slowly there). Running it again changes nothing. `server/test/dependency-patches.test.ts` fails
 * when the installed oidc-provider is not the patched one.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const OIDC_PROVIDER_VERSION = "8.8.1";
/** The lines rewritten in that version (lib/actions). */
export const EAGER_ASSERTS = 16;
export const MARKER = "// gatehouse: eager ctx.assert errors made lazy (scripts/patch-dependencies.mjs)";

const EAGER = /^(\s*)ctx\.assert\((.+?), (new [A-Z]\w*\(.*\))\);$/;

/** The folder of the installed oidc-provider, as the server resolves it, or null. */
export function oidcProviderRoot(from = fileURLToPath(new URL("../server/package.json", import.meta.url))) {
  try {
    return dirname(createRequire(from).resolve("oidc-provider/package.json"));
  } catch {
    return null;
  }
}

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith(".js") ? [path] : [];
  });
}

/** The JavaScript files of oidc-provider's lib/actions, the ones the script rewrites. */
export const actionFiles = (root) => filesUnder(join(root, "lib", "actions"));

/** The files of lib/actions with their rewritten text: [path, text, lines changed]. */
export function rewrites(root) {
  return actionFiles(root).flatMap((path) => {
    const text = readFileSync(path, "utf8");
    if (text.startsWith(MARKER)) return [];
    let changed = 0;
    const lines = text.split("\n").map((line) => {
      const m = EAGER.exec(line);
      if (!m) return line;
      changed++;
      return `${m[1]}if (!(${m[2]})) throw ${m[3]};`;
    });
    return changed ? [[path, `${MARKER}\n${lines.join("\n")}`, changed]] : [];
  });
}

function main() {
  const root = oidcProviderRoot();
  if (!root || !existsSync(join(root, "lib", "actions"))) return;
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  if (version !== OIDC_PROVIDER_VERSION) {
    console.warn(`patch-dependencies: oidc-provider ${version} is not ${OIDC_PROVIDER_VERSION}, left as it is (see scripts/patch-dependencies.mjs)`);
    return;
  }
  const pending = rewrites(root);
  if (pending.length === 0) return;
  const total = pending.reduce((n, [, , changed]) => n + changed, 0);
  if (total !== EAGER_ASSERTS) {
    console.warn(`patch-dependencies: found ${total} eager asserts in oidc-provider, expected ${EAGER_ASSERTS}: left as it is`);
    return;
  }
  for (const [path, text] of pending) writeFileSync(path, text);
  console.log(`patch-dependencies: oidc-provider ${version}, ${total} eager asserts made lazy in ${pending.length} files`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
