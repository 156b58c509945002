# One image for all five apps and the operator tools. APP selects the app a container runs
# (api, dispatcher, sender, imap-poller, webhook-deliverer; default api). Tag it with the
# release, the version of package.json:
#
#   docker build -t outreach:1.4.0 .
#   docker run --rm -e APP=sender -e DATABASE_URL=... -e REDIS_URL=... -e ENCRYPTION_KEY=... outreach:1.4.0
#
# The tools run with plain node from /app (there is no package manager in the image):
#
#   docker run --rm -e DATABASE_URL=... -e ENCRYPTION_KEY=... outreach:1.4.0 node tools/migrate.js
#
#   tools/migrate.js          creates the database if missing, migrates, seeds the default plans
#   tools/wait-for-schema.js  exits 0 once every migration of the image is applied (SCHEMA_WAIT_TIMEOUT_SECONDS)
#   tools/seed.js             seeds the default plans
#   tools/ops.js <command>    operator commands (plans, accounts, quotas)
#   tools/reencrypt.js        re-encrypts stored secrets after a key rotation
#
# Stages: base (Node + pnpm) -> deps (install from the lockfile) -> build (Prisma client, then
# scripts/assemble-runtime.mjs: esbuild bundles of the apps and tools, the migrations and the
# few files read at run time) -> runtime (the plain Node image plus that tree: no sources, tests,
# dev dependencies or package manager; non-root, NODE_ENV=production).
#
# What the runtime stage adds to the Node image may not exceed (test/image-and-compose.test.ts):
# runtime-size-budget: 40 MB

FROM node:20.19.5-bookworm-slim AS base
# Same version as "packageManager" in package.json (pnpm would otherwise try to fetch that one).
RUN npm i -g pnpm@10.34.8
ENV npm_config_update_notifier=false
WORKDIR /app

# Dependencies only: this layer is rebuilt when a manifest or the lockfile changes,
# not on every source change. Every workspace package's manifest must be listed here.
FROM base AS deps
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
COPY apps/api/package.json apps/api/
COPY apps/dispatcher/package.json apps/dispatcher/
COPY apps/sender/package.json apps/sender/
COPY apps/imap-poller/package.json apps/imap-poller/
COPY apps/webhook-deliverer/package.json apps/webhook-deliverer/
COPY packages/core/package.json packages/core/
COPY packages/db/package.json packages/db/
COPY packages/domain/package.json packages/domain/
COPY packages/runtime/package.json packages/runtime/
COPY packages/testing/package.json packages/testing/
COPY packages/sdk/package.json packages/sdk/
COPY packages/mcp/package.json packages/mcp/
COPY examples/package.json examples/
RUN pnpm install --frozen-lockfile

FROM deps AS build
COPY . .
# Generating the client needs no schema engine (none can be downloaded at build time).
RUN PRISMA_SCHEMA_ENGINE_BINARY=/bin/false pnpm db:generate
# apps/<app>/dist/main.js, tools/*.js, chunks/, prisma/migrations, package.json, ... in /app/runtime
RUN node scripts/assemble-runtime.mjs /app/runtime

# Runtime: the same Node image as above, without pnpm, plus the assembled tree (owned by root,
# so the apps' user cannot change it).
FROM node:20.19.5-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/runtime /app
# Chosen late so that the layers above are shared whatever the default app.
ARG APP=api
ENV APP=${APP}
# The "node" user of the base image, numeric so Kubernetes can verify runAsNonRoot.
USER 1000:1000
# api: PORT 3000 and METRICS_PORT 9464; workers: HEALTH_PORT (health and /metrics) 3001 dispatcher, 3002 sender, 3003 imap-poller, 3004 webhook-deliverer.
EXPOSE 3000 3001 3002 3003 3004 9464
# Liveness for Docker and compose (Kubernetes ignores it and uses the manifests' probes): GET
# /healthz of the app in APP, on PORT for the api and on HEALTH_PORT (or its default) for a worker.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "-e", "const a = process.env.APP || 'api'; const d = { api: 3000, dispatcher: 3001, sender: 3002, 'imap-poller': 3003, 'webhook-deliverer': 3004 }; const p = (a === 'api' ? process.env.PORT : process.env.HEALTH_PORT) || d[a]; fetch('http://127.0.0.1:' + p + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form; the shell replaces itself with node, so node is PID 1 and receives SIGTERM
# directly (each app handles it: stops taking work, finishes what it holds, exits 0).
CMD ["sh", "-c", "exec node apps/$APP/dist/main.js"]
