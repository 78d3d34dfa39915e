import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CONTRACT_COMMAND, CONTRACT_FILE, generateContract } from "../src/contract/generate.js";
import { defineEndpoint, type AnyEndpoint } from "../src/http/endpoint.js";
import { allErrorCodes } from "../src/http/error-catalogue.js";
import { ENDPOINTS } from "../src/routes.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const contractPath = `${root}${CONTRACT_FILE}`;
const endpoints = ENDPOINTS as Record<string, AnyEndpoint>;

/** A route declared here only, as a new one would be in its module and ENDPOINTS. */
const exampleDoThing = defineEndpoint({
  method: "POST",
  path: "/example/do-thing",
  auth: "session",
  changesSession: true,
  body: z.object({ name: z.string().min(1), count: z.number().int().optional() }),
  response: z.object({ done: z.boolean(), at: z.iso.datetime() }),
  summary: "An example route",
  tags: ["Example"],
  async handler() {
    return { done: true, at: new Date(0).toISOString() };
  },
});

describe("the client contract (client/src/contract.gen.ts)", () => {
  it(`is what the server's endpoints print (if this fails, run \`${CONTRACT_COMMAND}\`)`, () => {
    const generated = generateContract(endpoints, allErrorCodes());
    const checkedIn = readFileSync(contractPath, "utf8");
    if (checkedIn !== generated) {
      const have = checkedIn.split("\n");
      const want = generated.split("\n");
      const line = want.findIndex((text, i) => have[i] !== text);
      expect.fail(
        `${CONTRACT_FILE} is stale: run \`${CONTRACT_COMMAND}\` and commit the file. First difference at line ` +
          `${line + 1}:\n  checked in: ${have[line] ?? "(end of file)"}\n  generated:  ${want[line] ?? "(end of file)"}`,
      );
    }
  });

  it("gives every HTTP route of ENDPOINTS a fetch method or a navigation URL, and leaves server-only ones out", () => {
    const generated = generateContract(endpoints, allErrorCodes());
    for (const endpoint of Object.values(endpoints)) {
      const entry = `  ${JSON.stringify(endpoint.path)}: {`;
      if (endpoint.serverOnly) expect(generated, endpoint.path).not.toContain(entry);
      else expect(generated, `${endpoint.method} ${endpoint.path}`).toContain(entry);
      if (!endpoint.serverOnly && !endpoint.navigation) expect(endpoint.response, endpoint.path).toBeDefined();
    }
  });

  it("refuses a fetched route without a response schema, and one with a path parameter", () => {
    const { response: _response, ...noAnswer } = exampleDoThing;
    expect(() => generateContract({ ...endpoints, noAnswer: noAnswer as AnyEndpoint }, [])).toThrow(/no response schema/);
    const withParam = { ...exampleDoThing, path: "/example/:id" } as AnyEndpoint;
    expect(() => generateContract({ ...endpoints, withParam }, [])).toThrow(/path parameter/);
  });

  it("shows a route added on the server in the client, typed, without touching a client file", () => {
    const generated = generateContract({ ...endpoints, exampleDoThing: exampleDoThing as AnyEndpoint }, allErrorCodes());
    expect(generated).toContain(
      `  "/example/do-thing": { method: "POST", changesSession: true, body: shape<ExampleDoThingBody>(), data: shape<ExampleDoThingData>() },`,
    );
    expect(generated).toContain("export interface ExampleDoThingBody {\n  name: string;\n  count?: number;\n}");
    expect(generated).toContain("export interface ExampleDoThingData {\n  done: boolean;\n  at: ISODateString;\n}");

    // Type-check the client with this contract in place of the checked-in one, and a caller of the new method.
    const caller = `${root}client/test/__example-route-caller.ts`;
    const callerText = `
      import { changesSession, createAuthClient, type Result } from "../src/index.js";
      const client = createAuthClient({ baseURL: "https://auth.example.com" });
      export const answer: Promise<Result<{ done: boolean; at: string }>> = client.example.doThing({ name: "x", count: 2 });
      export const flag: boolean = changesSession("/example/do-thing");
      // @ts-expect-error name is required
      void client.example.doThing({});
    `;
    const diagnostics = typeCheck({ [contractPath]: generated, [caller]: callerText }, [caller]);
    expect(diagnostics).toEqual([]);
    // And the check does see errors: the same caller against the checked-in contract has no such method.
    expect(typeCheck({ [caller]: callerText }, [caller]).join("\n")).toMatch(/Property 'example' does not exist/);
  }, 60_000);
});

/** Type-checks `roots` with the client's compiler options, reading `files` from memory instead of the disk. */
function typeCheck(files: Record<string, string>, roots: string[]): string[] {
  const configPath = `${root}client/tsconfig.json`;
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, `${root}client`);
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => files[name] ?? readFile(name);
  host.fileExists = (name) => name in files || fileExists(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError, create) =>
    name in files ? ts.createSourceFile(name, files[name]!, language, true) : getSourceFile(name, language, onError, create);
  const program = ts.createProgram(roots, { ...options, noEmit: true }, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n") + (d.file ? ` (${d.file.fileName})` : ""));
}
