import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS } from "../src/routes.js";
import { TestClient } from "./helpers/http-client.js";
import { startTestServer, type TestServer } from "./helpers/server.js";

describe("GET /openapi.json and /reference", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite");
  });
  afterAll(async () => server?.close());

  it("publishes a valid OpenAPI 3.1 document", async () => {
    const res = await new TestClient(server.base).get("/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    const validator = new Validator();
    const result = await validator.validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes every HTTP route with its method, and no server-only one", async () => {
    const { body: document } = await new TestClient(server.base).get("/openapi.json");
    for (const endpoint of Object.values(ENDPOINTS)) {
      const path = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
      const operation = document.paths[path]?.[endpoint.method.toLowerCase()];
      if ((endpoint as { serverOnly?: boolean }).serverOnly) expect(operation).toBeUndefined();
      else expect(operation, `${endpoint.method} ${endpoint.path}`).toBeDefined();
    }
    const signUp = document.paths["/sign-up/email"].post;
    expect(signUp.requestBody.content["application/json"].schema.required).toEqual(
      expect.arrayContaining(["name", "email", "password"]),
    );
    const getSession = document.paths["/get-session"].get;
    expect(getSession.parameters.map((p: { name: string }) => p.name)).toEqual(["disableCookieCache", "disableRefresh"]);
  });

  it("names the shared shapes as components and refers to them", async () => {
    const { body: document } = await new TestClient(server.base).get("/openapi.json");
    for (const name of ["User", "Session", "SessionData", "Organization", "Member", "Invitation", "Team"]) {
      expect(document.components.schemas[name], name).toMatchObject({ type: "object" });
    }
    const answer = document.paths["/get-session"].get.responses["200"].content["application/json"].schema;
    expect(answer).toEqual({ anyOf: [{ $ref: "#/components/schemas/SessionData" }, { type: "null" }] });
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]*"/g) ?? [];
    for (const ref of refs) expect(ref).toMatch(/"#\/components\/schemas\/[A-Za-z]+"/);
  });

  it("renders a readable reference page", async () => {
    const res = await new TestClient(server.base).get("/reference");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    expect(res.text).toContain("/api/auth/sign-in/email");
    expect(res.text).not.toMatch(/<script/i);
  });
});
