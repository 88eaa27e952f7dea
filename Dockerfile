# syntax=docker/dockerfile:1
# verify-customer: multi-stage image. Build with the full toolchain, ship only dist/ and the
# production dependencies on Node 24 slim, as a non-root user, with node itself as PID 1's child
# of tini (signals reach Node; no npm in the process tree). See docs/fleet.md.
#
# The base image is pinned by digest. Replace the placeholder with the digest your registry
# mirror serves for node:24-bookworm-slim (docker buildx imagetools inspect node:24-bookworm-slim).
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:0000000000000000000000000000000000000000000000000000000000000000

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Optional packages are installed in this stage: Vite's bundler (Rolldown) ships its native
# binary as one. The prune drops them (and the node-linux-* package) from what ships.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json schema.graphql ./
COPY src ./src
COPY console ./console
RUN npm run build && npm prune --omit=dev --omit=optional

FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./package.json
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist/src ./dist/src
COPY --from=build --chown=root:root /app/dist/admin-console ./dist/admin-console
COPY --chown=root:root schema.graphql ./schema.graphql
COPY --chown=root:root docs/openapi.yaml docs/openapi-camara.yaml ./docs/
COPY --chown=root:root migrations ./migrations
COPY --chown=root:root fixtures ./fixtures
# The code is owned by root and read-only to the service; it runs as the image's unprivileged
# "node" user (uid 1000), which owns nothing but its scratch directory.
RUN mkdir -p /app/var && chown node:node /app/var
USER node
# 8080: the partners' port (PORT). 8081: the admin port compose and the manifests set
# (ADMIN_PORT: probes, /metrics, /internal/events/*); unset, those stay on PORT.
EXPOSE 8080 8081
# /healthz is on ADMIN_PORT when it is set (the partners' port then answers it 404).
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.ADMIN_PORT||process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Kubernetes and compose send SIGTERM to PID 1: tini forwards it to node, which drains (CONTRACT §10).
ENTRYPOINT ["/usr/bin/tini", "--"]
# The V8 flags of npm start (package.json; a test keeps them equal): what the bench measures.
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=384", "dist/src/main.js"]
