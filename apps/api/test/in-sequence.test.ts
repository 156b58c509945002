import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { inSequence } from "../src/middleware/in-sequence.js";

// The chain must behave as the same middleware mounted one by one: in order,
// a throw, a rejected promise or next(err) going to the error handler with the
// rest skipped, and the routes after it reached when every step calls next().
let baseUrl: string;
let close: () => void;
const ran: string[] = [];

const step =
  (name: string): RequestHandler =>
  (_req, _res, next) => {
    ran.push(name);
    next();
  };
const later =
  (name: string): RequestHandler =>
  async (_req, _res, next) => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    ran.push(name);
    next();
  };

before(async () => {
  const app = express();
  app.use("/ok", inSequence([step("a"), later("b"), step("c")]), (_req, res) => {
    ran.push("route");
    res.send("ok");
  });
  app.use(
    "/thrown",
    inSequence([
      step("a"),
      () => {
        throw new Error("thrown");
      },
      step("c"),
    ]),
  );
  app.use(
    "/rejected",
    inSequence([
      step("a"),
      async () => {
        await Promise.resolve();
        throw new Error("rejected");
      },
      step("c"),
    ]),
  );
  app.use("/passed", inSequence([step("a"), (_req, _res, next) => next(new Error("passed")), step("c")]));
  const errors: ErrorRequestHandler = (err: Error, _req, res, _next) => {
    ran.push(`error:${err.message}`);
    res.status(500).send(err.message);
  };
  app.use(errors);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
after(() => close?.());

async function visit(path: string): Promise<{ status: number; ran: string[] }> {
  ran.length = 0;
  const res = await fetch(`${baseUrl}${path}`);
  await res.text();
  return { status: res.status, ran: [...ran] };
}

test("runs every step in order, waiting for one that answers later, then what comes after it", async () => {
  assert.deepEqual(await visit("/ok"), { status: 200, ran: ["a", "b", "c", "route"] });
});

test("a step that throws, rejects or passes an error stops the chain at the error handler", async () => {
  assert.deepEqual(await visit("/thrown"), { status: 500, ran: ["a", "error:thrown"] });
  assert.deepEqual(await visit("/rejected"), { status: 500, ran: ["a", "error:rejected"] });
  assert.deepEqual(await visit("/passed"), { status: 500, ran: ["a", "error:passed"] });
});
