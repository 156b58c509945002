# One image for all five apps; APP selects which one a container runs
# (api, dispatcher, sender, imap-poller, webhook-deliverer; default api):
#
#   docker build -t outreach .
#   docker run --rm -e APP=sender -e DATABASE_URL=... -e REDIS_URL=... -e ENCRYPTION_KEY=... outreach
#
# `--build-arg APP=sender` bakes another default in. Migrations and the default
# plans, as a one-off with the same image:
#
#   docker run --rm -e DATABASE_URL=... -e ENCRYPTION_KEY=... outreach sh -c "pnpm db:migrate && pnpm db:seed"
#
# Stages: base (Node + pnpm) -> deps (install from the lockfile) -> build
# (Prisma client + esbuild bundles) -> runtime (non-root, NODE_ENV=production).

FROM node:20-bookworm-slim AS base
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
# Each app's build (scripts/build-app.mjs, esbuild) writes apps/<app>/dist/main.js.
RUN pnpm -r build

# Runtime: the built workspace as it is. node_modules is kept whole (devDependencies
# included) because the migration one-off runs the TypeScript CLI with tsx.
FROM base AS runtime
ENV NODE_ENV=production
COPY --from=build /app /app
# Chosen late so that the five app images share every layer above.
ARG APP=api
ENV APP=${APP}
# The "node" user of the base image, numeric so Kubernetes can verify runAsNonRoot.
USER 1000:1000
# api: PORT 3000 and METRICS_PORT 9464; workers: HEALTH_PORT (health and /metrics) 3001 dispatcher, 3002 sender, 3003 imap-poller, 3004 webhook-deliverer.
EXPOSE 3000 3001 3002 3003 3004 9464
# Exec form; the shell replaces itself with node, so node is PID 1 and receives SIGTERM
# directly (each app handles it: stops taking work, finishes what it holds, exits 0).
CMD ["sh", "-c", "exec node apps/$APP/dist/main.js"]
