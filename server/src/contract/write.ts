import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AnyEndpoint } from "../http/endpoint.js";
import { allErrorCodes } from "../http/error-catalogue.js";
import { ENDPOINTS } from "../routes.js";
import { CONTRACT_FILE, generateContract } from "./generate.js";

/**
 * Writes client/src/contract.gen.ts from the server's endpoint table: `npm run contract` builds the server and runs
 * this (server/dist/contract/write.js). The repository root is three levels up, from src/contract or dist/contract.
 */
const target = fileURLToPath(new URL(`../../../${CONTRACT_FILE}`, import.meta.url));
const text = generateContract(ENDPOINTS as Record<string, AnyEndpoint>, allErrorCodes());
let before = "";
try {
  before = readFileSync(target, "utf8");
} catch {
  // a first run: nothing to compare with
}
if (before === text) {
  console.log(`${CONTRACT_FILE} is up to date`);
} else {
  writeFileSync(target, text);
  console.log(`wrote ${CONTRACT_FILE}`);
}
