import { test, describe, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { promises as dns } from "node:dns";
import { TCPClient } from "dns2";
import { startDnsServer, type DnsTestServer } from "../src/dns-server.js";

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

describe("startDnsServer", () => {
  let server: DnsTestServer;
  let resolver: dns.Resolver;

  before(async () => {
    server = await startDnsServer();
    resolver = new dns.Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([server.address]);
  });
  after(async () => {
    await server.close();
  });
  beforeEach(() => server.clear());

  test("answers MX queries with exchanges and priorities", async () => {
    server.setMx("acme.test", [
      { exchange: "mx1.acme.test", priority: 10 },
      { exchange: "mx2.acme.test", priority: 20 },
    ]);

    const records = await resolver.resolveMx("acme.test");

    assert.deepEqual(
      records.sort((a, b) => a.priority - b.priority),
      [
        { exchange: "mx1.acme.test", priority: 10 },
        { exchange: "mx2.acme.test", priority: 20 },
      ],
    );
  });

  test("a domain without MX records gives ENODATA", async () => {
    server.setNoMx("no-mail.test");
    await assert.rejects(resolver.resolveMx("no-mail.test"), (error: unknown) => {
      assert.equal(errorCode(error), "ENODATA");
      return true;
    });
  });

  test("an NXDOMAIN or unknown domain gives ENOTFOUND", async () => {
    server.setNxDomain("gone.test");
    for (const domain of ["gone.test", "never-configured.test"]) {
      await assert.rejects(resolver.resolveMx(domain), (error: unknown) => {
        assert.equal(errorCode(error), "ENOTFOUND", domain);
        return true;
      });
    }
  });

  test("serves A records next to MX records", async () => {
    server.setMx("both.test", [{ exchange: "mx.both.test", priority: 5 }]);
    server.setA("both.test", ["192.0.2.10"]);
    assert.deepEqual(await resolver.resolve4("both.test"), ["192.0.2.10"]);
    assert.deepEqual(await resolver.resolveMx("both.test"), [{ exchange: "mx.both.test", priority: 5 }]);
  });

  test("answers TXT records, a long one cut into 255-byte strings, next to the name's other records", async () => {
    server.setTxt("txt.test", ["v=spf1 -all", ["first ", "second"], "x".repeat(300)]);
    server.setMx("txt.test", [{ exchange: "mx.txt.test", priority: 1 }]);

    const records = await resolver.resolveTxt("txt.test");

    assert.deepEqual(records.map((chunks) => chunks.join("")).sort(), ["first second", "v=spf1 -all", "x".repeat(300)]);
    assert.deepEqual(
      records.find((chunks) => chunks.join("").startsWith("x"))?.map((chunk) => chunk.length),
      [255, 45],
    );
    assert.deepEqual(await resolver.resolveMx("txt.test"), [{ exchange: "mx.txt.test", priority: 1 }]);
    server.setMx("no-txt.test", [{ exchange: "mx.no-txt.test", priority: 1 }]);
    await assert.rejects(resolver.resolveTxt("no-txt.test"), { code: "ENODATA" });
  });

  test("fails every query for a name set to SERVFAIL", async () => {
    server.setServFail("broken.test");

    await assert.rejects(resolver.resolveTxt("broken.test"), { code: "ESERVFAIL" });
    await assert.rejects(resolver.resolve4("broken.test"), { code: "ESERVFAIL" });
  });

  test("counts queries per domain", async () => {
    server.setMx("counted.test", [{ exchange: "mx.counted.test", priority: 1 }]);
    assert.equal(server.queryCount("counted.test"), 0);

    await resolver.resolveMx("counted.test");
    await resolver.resolveMx("COUNTED.test");
    await resolver.resolveMx("other.test").catch(() => undefined);

    assert.equal(server.queryCount("counted.test"), 2);
    assert.equal(server.queryCount("other.test"), 1);
    assert.equal(server.queries.get("counted.test"), 2);
  });

  test("also answers over TCP on the same port", async () => {
    server.setMx("tcp.test", [{ exchange: "mx.tcp.test", priority: 7 }]);
    const resolve = TCPClient({ dns: server.host, port: server.port });

    const response = await resolve("tcp.test", "MX");

    assert.deepEqual(
      response.answers.map((a) => ({ exchange: a.exchange, priority: a.priority })),
      [{ exchange: "mx.tcp.test", priority: 7 }],
    );
  });
});
