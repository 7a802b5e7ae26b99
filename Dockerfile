# x3d studio's image: the standalone server that `npm run build` leaves in .next/standalone
# (scripts/standalone.mjs), on Node 20, run by an unprivileged user. Building, running and
# compose.yaml: docs/operations.md#container.

ARG NODE_IMAGE=node:20-bookworm-slim

# Every dependency, the build's tools among them. Nothing phones home: no npm update check,
# no Next telemetry, in any stage.
FROM ${NODE_IMAGE} AS deps
ENV NEXT_TELEMETRY_DISABLED=1 NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund

# The build: .next, the worker bundles, then the standalone folder completed with them.
FROM deps AS build
COPY . .
RUN npm run build

# Only the standalone folder: server.js, the node_modules files it loads, the browser's files,
# the worker bundles and the migrations. Owned by root, so the server cannot change its code.
FROM ${NODE_IMAGE} AS runner
# HOSTNAME is the address server.js listens on: every one (Docker would put the container's name
# there, and the studio calls its embedded service at 127.0.0.1). MALLOC_ARENA_MAX as `npm start`
# sets it (docs/configuration.md).
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOSTNAME=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /app/.next/standalone ./
# The embedded database, generated secrets and (without X3D_STORAGE) every stored file.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# Database, storage and service, each within 3 s (docs/operations.md#health).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.js"]
