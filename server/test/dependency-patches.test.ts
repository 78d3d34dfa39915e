import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

/**
 * scripts/patch-dependencies.mjs (npm install's postinstall) rewrites oidc-provider's eager `ctx.assert(value, new
 * Error(...))` lines. This fails when the installed oidc-provider is another version than the one the script
 * patches, or when the patch was not applied: the OpenID Provider's userinfo would quietly be a tenth slower.
 */
interface PatchScript {
  OIDC_PROVIDER_VERSION: string;
  MARKER: string;
  oidcProviderRoot(): string | null;
  actionFiles(root: string): string[];
  rewrites(root: string): unknown[];
}
const scriptPath = new URL("../../scripts/patch-dependencies.mjs", import.meta.url).href;

it("the installed oidc-provider is the version scripts/patch-dependencies.mjs patches, and it is patched", async () => {
  const script = (await import(scriptPath)) as PatchScript;
  const root = script.oidcProviderRoot()!;
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
  expect(version).toBe(script.OIDC_PROVIDER_VERSION);
  // Nothing left to rewrite, and no assert builds its error before it looks at the value.
  expect(script.rewrites(root)).toEqual([]);
  const actions = script.actionFiles(root).map((path) => readFileSync(path, "utf8"));
  expect(actions.filter((text) => /ctx\.assert\([^\n]*, new [A-Z]/.test(text))).toEqual([]);
  const userinfo = readFileSync(join(root, "lib", "actions", "userinfo.js"), "utf8");
  expect(userinfo.startsWith(script.MARKER)).toBe(true);
  expect(userinfo.startsWith("// gatehouse: eager ctx.assert errors made lazy")).toBe(true);
  expect(userinfo).toContain("if (!(accessToken)) throw new InvalidToken('access token not found');");
  expect(userinfo).toContain("if (!(account)) throw new InvalidToken('associated account not found');");
});
