// Rewrites the README's MCP tool table from the catalog (packages/mcp test/readme.test.ts fails until this is run).
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withToolList } from "../src/tool-list-markdown.js";

const readme = fileURLToPath(new URL("../../../README.md", import.meta.url));
writeFileSync(readme, withToolList(readFileSync(readme, "utf8")));
console.log(`wrote the MCP tool list of ${readme}`);
