import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** True when the module at `url` is the script being run (not imported by another example or a test). */
export function isMain(url: string): boolean {
  const script = process.argv[1];
  return script !== undefined && pathToFileURL(realpathSync(script)).href === url;
}
