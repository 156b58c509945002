// pnpm --filter @outreach/api fuzz: the long property-based run over the OpenAPI document (see test/fuzz/main.ts).
import { fuzzMain } from "../test/fuzz/main.js";

process.exitCode = await fuzzMain();
