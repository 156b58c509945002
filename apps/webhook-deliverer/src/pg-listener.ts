// The LISTEN connection is packages/db's (it owns every use of the pg driver): re-exported for the worker.
export { PgListener } from "@outreach/db";
