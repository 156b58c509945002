import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import rootPackage from "../../../package.json" with { type: "json" };
import { buildOpenApiDocument } from "../../../apps/api/src/openapi/document.js";

export const GENERATED_HEADER = [
  "/**",
  " * The API's types, generated from the API's OpenAPI document: pnpm --filter @outreach/sdk generate",
  " * Do not edit by hand: regenerate after the API changes.",
  " */",
  "",
].join("\n");

/**
 * The TypeScript source of src/generated/schema.ts: the document the API
 * serves, built in-process from the API's code, turned into types.
 */
export async function generateSchemaSource(): Promise<string> {
  const document = buildOpenApiDocument({ version: rootPackage.version, serverUrl: "http://localhost:3000", docsUrl: "http://localhost:3000/docs" });
  const ast = await openapiTS(document as unknown as OpenAPI3, { silent: true });
  return `${GENERATED_HEADER}\n${astToString(ast)}`;
}
