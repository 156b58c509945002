// ESLint (syntax-only rules). Run with `npm run lint`; `npm test` runs it too.
// The rules and the raw-SQL allow-list live in scripts/lint/.
import { buildConfig } from "./scripts/lint/config.mjs";

export default buildConfig();
