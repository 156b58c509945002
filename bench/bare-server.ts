// The baseline for bench/api.ts: a bare Express route with no auth, no database, no Redis.
import express from "express";

const app = express();
app.get("/campaigns", (_req, res) => {
  res.json([{ id: "00000000-0000-4000-8000-000000000000", name: "baseline", status: "pending", created_at: new Date().toISOString() }]);
});
const server = app.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`listening ${typeof address === "object" && address ? address.port : ""}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
