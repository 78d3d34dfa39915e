import { z } from "zod";
import type { AnyEndpoint } from "./endpoint.js";
import { escapeHtml } from "./html.js";

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests, so the document
 * cannot drift from what the service accepts.
 */
const errorSchema = {
  type: "object",
  required: ["code", "message"],
  properties: {
    code: { type: "string", description: "The message upper-cased, spaces as underscores" },
    message: { type: "string" },
  },
} as const;

export function buildOpenApiDocument(endpoints: readonly AnyEndpoint[], basePath: string, version: string) {
  // Schemas named with .meta({ id }) (User, Session, Organization, ...) become components, referred to by $ref.
  const components: Record<string, unknown> = { Error: errorSchema };
  const toSchema = (schema: z.ZodType, io: "input" | "output" = "input") => {
    const json = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;
    const { $schema: _drop, $defs, ...rest } = json;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) components[id] ??= componentRefs(def);
    return componentRefs(rest) as Record<string, unknown>;
  };
  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  for (const endpoint of endpoints) {
    if (endpoint.serverOnly) continue;
    const path = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    const parameters: unknown[] = [];
    for (const match of endpoint.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
      parameters.push({ name: match[1], in: "path", required: true, schema: { type: "string" } });
    }
    if (endpoint.query) {
      const query = toSchema(endpoint.query);
      const properties = (query.properties ?? {}) as Record<string, unknown>;
      const required = new Set((query.required as string[] | undefined) ?? []);
      for (const [name, schema] of Object.entries(properties)) {
        parameters.push({ name, in: "query", required: required.has(name), schema });
      }
    }
    // One path may carry two methods (GET and POST /callback/{id}); operation ids must stay unique.
    let id = operationId(endpoint);
    if (operationIds.has(id)) id += endpoint.method[0] + endpoint.method.slice(1).toLowerCase();
    operationIds.add(id);
    const operation: Record<string, unknown> = {
      operationId: id,
      summary: endpoint.summary,
      tags: [...endpoint.tags],
      ...(parameters.length ? { parameters } : {}),
      responses: {
        "200": {
          description: "Success",
          content: { "application/json": { schema: endpoint.response ? toSchema(endpoint.response, "output") : {} } },
        },
        "4XX": { description: "Refused", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
        "503": {
          description: "Storage unavailable",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
    };
    if (endpoint.auth !== "none") operation.security = [{ sessionCookie: [] }];
    if (endpoint.body) {
      const schema = toSchema(endpoint.body);
      const content: Record<string, unknown> = { "application/json": { schema } };
      if (endpoint.acceptsForm) content["application/x-www-form-urlencoded"] = { schema };
      operation.requestBody = { required: !endpoint.body.safeParse(undefined).success, content };
    }
    (paths[path] ??= {})[endpoint.method.toLowerCase()] = operation;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Gatehouse API",
      version,
      description: "Authentication, accounts, sessions and organizations. Every path is relative to the server below.",
    },
    servers: [{ url: basePath }],
    components: {
      schemas: components,
      securitySchemes: {
        sessionCookie: { type: "apiKey", in: "cookie", name: "better-auth.session_token" },
      },
    },
    paths,
  };
}

/** Points zod's `#/$defs/X` references at the document's `#/components/schemas/X`. */
function componentRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(componentRefs);
  if (typeof schema !== "object" || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === "$ref" && typeof value === "string" ? value.replace(/^#\/\$defs\//, "#/components/schemas/") : componentRefs(value),
    ]),
  );
}

function operationId(endpoint: AnyEndpoint): string {
  const words = endpoint.path.split(/[/-]/).filter((w) => w && !w.startsWith(":"));
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join("") || "root";
}

/** A readable reference page rendered from the document itself (no script, no external assets). */
export function renderReferencePage(document: ReturnType<typeof buildOpenApiDocument>): string {
  const groups = new Map<string, string[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(operations as Record<string, Record<string, unknown>>)) {
      const tag = ((op.tags as string[] | undefined) ?? ["Other"])[0]!;
      const body = (op.requestBody as { content: Record<string, { schema: unknown }> } | undefined)?.content[
        "application/json"
      ]?.schema;
      const params = (op.parameters as { name: string; in: string; required: boolean }[] | undefined) ?? [];
      const html = `<section class="op" id="${escapeHtml(String(op.operationId))}">
<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(document.servers[0]!.url + path)}</code></h3>
<p>${escapeHtml(String(op.summary ?? ""))}${op.security ? ' <span class="badge">session required</span>' : ""}</p>
${params.length ? `<p class="label">Parameters</p><ul>${params.map((p) => `<li><code>${escapeHtml(p.name)}</code> (${p.in}${p.required ? ", required" : ""})</li>`).join("")}</ul>` : ""}
${body ? `<p class="label">JSON body</p><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre>` : ""}
</section>`;
      groups.set(tag, [...(groups.get(tag) ?? []), html]);
    }
  }
  const nav = [...groups.keys()].map((tag) => `<a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a>`).join(" · ");
  const sections = [...groups]
    .map(([tag, ops]) => `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${ops.join("\n")}`)
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)} reference</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;background:#f6f7f9;color:#1f2933;line-height:1.5}
main{max-width:60rem;margin:0 auto;padding:2rem 1rem}h1{margin:0 0 .25rem}nav{margin:.5rem 0 1.5rem}
h2{margin-top:2rem;border-bottom:1px solid #e4e7eb;padding-bottom:.25rem}
.op{background:#fff;border:1px solid #e4e7eb;border-radius:10px;padding:.75rem 1rem;margin:.75rem 0}
.op h3{font-size:1rem;margin:.25rem 0}.method{display:inline-block;min-width:3.5rem;text-align:center;border-radius:4px;color:#fff;font-size:.75rem;padding:.1rem .4rem}
.get{background:#2f7d4f}.post{background:#2457c5}.badge{background:#fff4d6;border-radius:4px;font-size:.75rem;padding:.05rem .4rem}
.label{font-weight:600;margin:.5rem 0 .25rem;font-size:.85rem}pre{background:#f0f2f5;padding:.75rem;border-radius:6px;overflow:auto;font-size:.8rem}
</style></head><body><main>
<h1>${escapeHtml(document.info.title)}</h1><p>${escapeHtml(document.info.description)} The machine-readable document is at <a href="openapi.json"><code>openapi.json</code></a>.</p>
<nav>${nav}</nav>
${sections}
</main></body></html>`;
}
