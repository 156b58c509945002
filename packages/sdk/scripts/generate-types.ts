import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { generateSchemaSource } from "./schema-source.js";

const target = fileURLToPath(new URL("../src/generated/schema.ts", import.meta.url));
await writeFile(target, await generateSchemaSource());
console.log(`wrote ${target}`);
