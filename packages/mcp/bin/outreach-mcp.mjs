#!/usr/bin/env node
// The stdio MCP server for local agents (see src/stdio-bridge.ts), run from its TypeScript source.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/stdio-bridge.ts");
await main();
