import assert from "node:assert/strict";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { createLogger, startMetricsServer } from "@outreach/core";
import { skipWithoutSystemServer } from "@outreach/testing";
import { createAdminApp, type AdminApp } from "../src/admin/admin-app.js";
import { chromiumMissing, launchChromium, watchPage } from "./browser.js";
import { startTestApi, type TestApi } from "./helpers.js";

// bull-board in a real browser: the token once in the address, then the session cookie carries it.
const TOKEN = "operator-token-for-browser-0123456789";

let api: TestApi;
let admin: AdminApp;
let listener: Server;
let base: string;

before(async () => {
  api = await startTestApi({ OPERATOR_TOKEN: TOKEN });
  admin = createAdminApp({ config: api.config, logger: createLogger({ service: "api", level: "error" }), db: api.ctx.db, redis: api.ctx.producer })!;
  listener = await startMetricsServer(0, api.ctx.metrics, undefined, "127.0.0.1", admin.listener);
  base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
after(async () => {
  listener?.close();
  await admin?.close();
  await api?.close();
});

test("in Chromium, /admin/queues?token= signs in, the board lists the queues, and the page requests only its own origin", { skip: skipWithoutSystemServer("Chromium", chromiumMissing) }, async () => {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(60_000);
    const { requested, errors } = watchPage(page, (message) => `${message.text()} ${message.location().url}`);

    const unauthenticated = await page.goto(`${base}/admin/queues`);
    assert.equal(unauthenticated?.status(), 401);
    // the browser reports that refusal as a console error; what follows must log none
    errors.length = 0;

    await page.goto(`${base}/admin/queues?token=${encodeURIComponent(TOKEN)}`);
    await page.waitForURL(`${base}/admin/queues`);
    await page.getByText("campaign-dispatch").first().waitFor();
    await page.getByText("send-answer").first().waitFor();
    assert.ok(!page.url().includes(TOKEN), "the token left the address");

    const cookies = await page.context().cookies();
    assert.deepEqual(
      cookies.map((c) => [c.name, c.path, c.httpOnly, c.sameSite]),
      [["outreach_operator", "/admin", true, "Strict"]],
    );

    for (const url of requested) {
      const parsed = new URL(url);
      assert.ok(parsed.protocol === "data:" || parsed.origin === base, `request to ${url}`);
    }
    assert.deepEqual(errors, [], "console errors");
  } finally {
    await browser.close();
  }
});
