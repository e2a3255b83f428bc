# syntax=docker/dockerfile:1
#
# Rampart container image: `rampart run` (the daemon) by default.
#   docker build -t ghcr.io/rampart-dev/rampart:0.1.0 .
#   docker run --rm --read-only -e RAMPART_API_URL=... -e RAMPART_API_TOKEN_FILE=/run/secrets/token \
#     -v "$PWD/policies:/policies:ro" -e RAMPART_POLICIES=/policies -p 9464:9464 ghcr.io/rampart-dev/rampart:0.1.0
# The image holds no policies: without RAMPART_POLICIES (or a directory mounted
# at /app/policies) `rampart run` refuses to start (exit 1) rather than wait for
# a directory that will never come.
# Runs as UID 10001 on a read-only root filesystem; writes nothing. Node.js is
# PID 1 and the daemon handles SIGTERM/SIGINT itself (graceful stop, exit 0);
# Rampart starts no child processes, so no init is needed to reap zombies.
# `docker run --init` (tini) works too. See docs/operations.md.

# Node.js 26, the active LTS since 2026-10-28 (24 and 22, in maintenance, work too:
# --build-arg NODE_IMAGE=node:24-bookworm-slim).
ARG NODE_IMAGE=node:26-bookworm-slim

# 1. Build: all dependencies (TypeScript), compile src/ to dist/.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
# --ignore-scripts: the `prepare` hook would build before the sources are here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY schemas ./schemas
COPY scripts ./scripts
# The schema's validator is generated from schemas/ first, as `npm run build` does.
RUN node scripts/generate-validator.mjs && npx tsc -p tsconfig.build.json

# 2. Production dependencies only.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# 3. Runtime: node, production node_modules, dist/ and schemas/; no policies.
FROM ${NODE_IMAGE} AS runtime
LABEL org.opencontainers.image.title="rampart" \
      org.opencontainers.image.description="Policy-as-code reconciler for the Attack Protection Service" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.source="https://github.com/rampart-dev/rampart"
ENV NODE_ENV=production \
    RAMPART_LOG_FORMAT=json \
    RAMPART_LISTEN=0.0.0.0:9464
WORKDIR /app
COPY --from=deps --chown=0:0 /app/node_modules ./node_modules
COPY --from=build --chown=0:0 /src/dist ./dist
COPY --chown=0:0 package.json ./
COPY --chown=0:0 schemas ./schemas
# Files belong to root and are read-only for the app user.
USER 10001:10001
EXPOSE 9464
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:9464/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/dist/cli.js"]
CMD ["run"]
