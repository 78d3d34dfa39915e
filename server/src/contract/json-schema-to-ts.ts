/**
 * Prints TypeScript types from the JSON Schemas `z.toJSONSchema` makes of the endpoints' zod schemas, for the subset
 * those schemas use: objects (required and optional properties, records, open objects), arrays and tuples, unions,
 * intersections, enums and constants, the primitive types and null, `$ref`s to named schemas, and `{}` (unknown).
 * Anything else is an error, so a schema the printer cannot render fails the generator rather than printing a guess.
 */
export type JsonSchema = boolean | { [key: string]: unknown };

/** Keys that only annotate or constrain a value and never change its TypeScript type. */
const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "contentEncoding",
  "contentMediaType",
]);

const STRUCTURE = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "items",
  "prefixItems",
  "anyOf",
  "oneOf",
  "allOf",
  "enum",
  "const",
  "$ref",
  "not",
  "$defs",
]);

/** The name a `$ref` points at: "#/$defs/User" is `User`. */
export function refName(ref: string): string {
  const match = /^#\/\$defs\/([A-Za-z_$][A-Za-z0-9_$]*)$/.exec(ref);
  if (!match) throw new Error(`contract: cannot print the reference ${ref}`);
  return match[1]!;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A JSDoc comment from a schema's description, indented; "" when it has none. */
export function docComment(schema: JsonSchema, indent: string): string {
  if (typeof schema !== "object" || typeof schema.description !== "string" || schema.description.trim() === "") return "";
  const lines = schema.description.trim().replace(/\*\//g, "*\\/").split("\n");
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`.trimEnd()).join("\n")}\n${indent} */\n`;
}

function union(members: string[]): string {
  const unique = [...new Set(members)];
  if (unique.includes("unknown")) return "unknown";
  return unique.join(" | ");
}

/** True when a printed type can be followed by `[]` without parentheses. */
function isAtomic(type: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$.]*$/.test(type) || /^"[^"]*"$/.test(type);
}

/** Whether a schema is an object type with declared properties (printed as an interface at the top level). */
export function isPlainObject(schema: JsonSchema): boolean {
  return (
    typeof schema === "object" &&
    (schema.type === "object" || (schema.type === undefined && schema.properties !== undefined)) &&
    typeof schema.properties === "object" &&
    schema.properties !== null &&
    Object.keys(schema.properties).length > 0 &&
    schema.anyOf === undefined &&
    schema.oneOf === undefined &&
    schema.allOf === undefined
  );
}

/** The TypeScript type of a schema, laid out for a line indented by `indent`. */
export function printType(schema: JsonSchema, indent = ""): string {
  if (schema === true) return "unknown";
  if (schema === false) return "never";
  for (const key of Object.keys(schema)) {
    if (!ANNOTATIONS.has(key) && !STRUCTURE.has(key)) throw new Error(`contract: cannot print the JSON Schema keyword "${key}"`);
  }
  if (typeof schema.$ref === "string") return refName(schema.$ref);
  if (schema.not !== undefined) {
    if (typeof schema.not === "object" && schema.not !== null && Object.keys(schema.not).length === 0) return "never";
    throw new Error("contract: cannot print a `not` other than `not: {}`");
  }
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return union(alternatives.map((member) => printType(member, indent)));
  if (schema.allOf) {
    return (schema.allOf as JsonSchema[]).map((member) => wrapUnion(printType(member, indent))).join(" & ");
  }
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map((value) => JSON.stringify(value)));
  if (Array.isArray(schema.type)) {
    return union(schema.type.map((type: unknown) => printType({ ...schema, type } as JsonSchema, indent)));
  }
  switch (schema.type) {
    case "string":
      return schema.format === "date-time" ? "ISODateString" : "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return printArray(schema, indent);
    case "object":
      return printObject(schema, indent);
    case undefined:
      if (schema.properties !== undefined || schema.additionalProperties !== undefined) return printObject(schema, indent);
      return "unknown";
    default:
      throw new Error(`contract: cannot print the JSON Schema type ${JSON.stringify(schema.type)}`);
  }
}

function wrapUnion(type: string): string {
  return type.includes(" | ") ? `(${type})` : type;
}

function printArray(schema: { [key: string]: unknown }, indent: string): string {
  if (Array.isArray(schema.prefixItems)) {
    const items = (schema.prefixItems as JsonSchema[]).map((item) => printType(item, indent));
    const rest = schema.items === undefined || schema.items === false ? "" : `, ...${wrapArray(printType(schema.items as JsonSchema, indent))}`;
    return `[${items.join(", ")}${rest}]`;
  }
  return wrapArray(printType((schema.items ?? true) as JsonSchema, indent));
}

function wrapArray(item: string): string {
  return isAtomic(item) ? `${item}[]` : `Array<${item}>`;
}

function printObject(schema: { [key: string]: unknown }, indent: string): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const extra = schema.additionalProperties as JsonSchema | undefined;
  const names = Object.keys(properties);
  if (names.length === 0) {
    // A record (z.record): its keys from propertyNames, its values from additionalProperties.
    if (extra === undefined || extra === false) return "Record<string, never>";
    const keys = schema.propertyNames as JsonSchema | undefined;
    const keyType = keys === undefined || keys === true ? "string" : printType(keys, indent);
    const value = printType(extra, indent);
    if (keyType !== "string" && !(Array.isArray(schema.required) && schema.required.length > 0)) {
      return `Partial<Record<${keyType}, ${value}>>`;
    }
    return `Record<${keyType}, ${value}>`;
  }
  const inner = `${indent}  `;
  const lines = names.map((name) => {
    const property = properties[name]!;
    const optional = required.has(name) ? "" : "?";
    return `${docComment(property, inner)}${inner}${propertyKey(name)}${optional}: ${printType(property, inner)};`;
  });
  // An open object (z.looseObject) also takes keys it does not name.
  if (extra !== undefined && extra !== false) lines.push(`${inner}[key: string]: unknown;`);
  return `{\n${lines.join("\n")}\n${indent}}`;
}

/** A top-level declaration: an interface for an object with properties, a type alias for anything else. */
export function printDeclaration(name: string, schema: JsonSchema): string {
  const doc = docComment(schema, "");
  if (isPlainObject(schema)) return `${doc}export interface ${name} ${printType(schema)}`;
  return `${doc}export type ${name} = ${printType(schema)};`;
}
