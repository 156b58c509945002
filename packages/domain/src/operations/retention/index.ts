export * from "./purge-old-rows.js";
