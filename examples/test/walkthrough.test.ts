import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startRealService, type RealService } from "../../test/kit/real-service.js";
import { runWalkthrough } from "../campaign-walkthrough.js";
import { startSmtpCatcher, type CaughtEmail } from "../smtp-catcher.js";

let service: RealService;
before(async () => {
  service = await startRealService();
});
after(() => service?.stop());

test("the examples walk a whole campaign through the SDK: the catcher gets the emails, the receiver verifies the events", async () => {
  const caught: CaughtEmail[] = [];
  const catcher = await startSmtpCatcher({ port: 0, onEmail: (email) => caught.push(email) });
  const lines: string[] = [];
  try {
    const result = await runWalkthrough({ baseUrl: service.baseUrl, smtpHost: "127.0.0.1", smtpPort: catcher.port, receiverPort: 0, timeoutMs: 90_000, log: (line) => lines.push(line) });
    assert.equal(result.sent, 3, lines.join("\n"));
    assert.equal(result.verifiedEvents, 3, lines.join("\n"));
    assert.deepEqual(caught.map((email) => email.to[0]).sort(), ["ada@lovelace.example", "alan@turing.example", "grace@hopper.example"]);
    const ada = caught.find((email) => email.to[0] === "ada@lovelace.example")!;
    assert.equal(ada.subject, "Hello Ada");
    assert.equal(caught.find((email) => email.to[0] === "alan@turing.example")!.subject, "Hello there", "the fallback of a missing first name");
    assert.match(ada.headers["list-unsubscribe"] ?? "", /^<http:\/\/outreach\.test\//);
    assert.ok(
      lines.some((line) => line.startsWith('preview for ada@lovelace.example: "Hello Ada"')),
      lines.join("\n"),
    );
    assert.ok(
      lines.some((line) => /^requests this period by client kind: direct 1, mcp 0, sdk \d+$/.test(line)),
      lines.join("\n"),
    );
  } finally {
    await catcher.close();
  }
});
