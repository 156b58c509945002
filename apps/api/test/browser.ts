import { existsSync } from "node:fs";
import { chromium, type Browser, type ConsoleMessage, type Page } from "playwright-core";

/** Debian's chromium, driven by playwright-core in the browser tests. */
export const CHROMIUM = "/usr/bin/chromium";

/** Why the browser tests cannot run here (for skipWithoutSystemServer), or undefined when Chromium is installed. */
export const chromiumMissing = existsSync(CHROMIUM) ? undefined : `${CHROMIUM} not found (bash .ci/install-test-servers.sh installs Debian's chromium)`;

/** A headless Chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox"] });
}

/**
 * Records what a page does from now on: every URL it requests, and its console
 * errors (as `consoleText` writes them) and uncaught errors.
 */
export function watchPage(page: Page, consoleText: (message: ConsoleMessage) => string = (message) => message.text()): { requested: string[]; errors: string[] } {
  const requested: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(consoleText(message));
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return { requested, errors };
}
