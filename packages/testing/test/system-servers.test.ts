import assert from "node:assert/strict";
import { test } from "node:test";
import { isCi, skipWithoutSystemServer } from "../src/system-servers.js";

test("a missing server skips a newcomer's run, naming the server and the fix", () => {
  assert.equal(skipWithoutSystemServer("PgBouncer", "/usr/sbin/pgbouncer is not installed", {}), "needs PgBouncer: /usr/sbin/pgbouncer is not installed");
  assert.equal(skipWithoutSystemServer("PgBouncer", "/usr/sbin/pgbouncer is not installed", { CI: "false" }), "needs PgBouncer: /usr/sbin/pgbouncer is not installed");
});

test("under CI a missing server is not skipped: the test runs and fails where the server is started", () => {
  assert.equal(skipWithoutSystemServer("PgBouncer", "/usr/sbin/pgbouncer is not installed", { CI: "true" }), false);
  assert.equal(skipWithoutSystemServer("Dovecot", "missing", { CI: "1" }), false);
});

test("an installed server runs everywhere", () => {
  assert.equal(skipWithoutSystemServer("PgBouncer", undefined, {}), false);
  assert.equal(skipWithoutSystemServer("PgBouncer", undefined, { CI: "true" }), false);
});

test("CI is set by any value but empty, 0 or false", () => {
  for (const value of ["true", "1", "yes", "TRUE"]) assert.equal(isCi({ CI: value }), true, value);
  for (const value of [undefined, "", "0", "false", "False"]) assert.equal(isCi({ CI: value }), false, String(value));
});
