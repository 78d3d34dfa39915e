import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";

/**
 * scripts/patch-dependencies.mjs (npm install's postinstall) rewrites oidc-provider's eager `ctx.assert(value, new
 * Error(...))` lines. This fails when the installed oidc-provider is another version than the one the script
 * patches, or when the patch was not applied: the OpenID Provider's userinfo would quietly be a tenth slower.
 */
const root = dirname(createRequire(import.meta.url).resolve("oidc-provider/package.json"));
const script = readFileSync(new URL("../../scripts/patch-dependencies.mjs", import.meta.url), "utf8");

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith(".js") ? [path] : [];
  });

it("the installed oidc-provider is the version scripts/patch-dependencies.mjs patches, and it is patched", () => {
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  expect(script).toContain(`OIDC_PROVIDER_VERSION = "${version}"`);
  const actions = filesUnder(join(root, "lib", "actions")).map((path) => readFileSync(path, "utf8"));
  // No assert builds its error before it looks at the value.
  expect(actions.filter((text) => /ctx\.assert\([^\n]*, new [A-Z]/.test(text))).toEqual([]);
  const userinfo = readFileSync(join(root, "lib", "actions", "userinfo.js"), "utf8");
  expect(userinfo.startsWith("// gatehouse: eager ctx.assert errors made lazy")).toBe(true);
  expect(userinfo).toContain("if (!(accessToken)) throw new InvalidToken('access token not found');");
  expect(userinfo).toContain("if (!(account)) throw new InvalidToken('associated account not found');");
});
