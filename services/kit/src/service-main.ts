import { closeServer, startHealthServer } from './health';
import { Lifecycle, runMain } from './lifecycle';
import { createLogger, type Logger } from './logger';
import { connectMongo, mongoReady, type Connection } from './mongo';
import { connectNats, natsReady, type NatsConnection } from './nats';
import type { Telemetry } from './telemetry';

/** The configuration every service has. */
export interface NatsServiceConfig {
  LOG_LEVEL: string;
  NATS_URL: string;
  NATS_NKEY_SEED?: string | undefined;
  NATS_TLS_CA_FILE?: string | undefined;
  HEALTH_PORT: number;
  SHUTDOWN_TIMEOUT_MS: number;
}

/** The configuration every NATS + MongoDB service has. */
export interface MongoServiceConfig extends NatsServiceConfig {
  MONGODB_URI: string;
  MONGODB_DB: string;
  MONGODB_TIMEOUT_MS: number;
  MONGODB_AUTO_INDEX: boolean;
}

/**
 * A service's NATS connection as its configuration says (its bus user, TLS).
 * `name` is the service's: its bus user may only receive replies on the
 * service's inbox, so a lane's thread connects under it too.
 */
export function connectServiceNats(
  config: Pick<NatsServiceConfig, 'NATS_URL' | 'NATS_NKEY_SEED' | 'NATS_TLS_CA_FILE'>,
  name: string,
  logger: Logger,
): Promise<NatsConnection> {
  return connectNats({
    url: config.NATS_URL,
    name,
    logger,
    nkeySeed: config.NATS_NKEY_SEED,
    tlsCaFile: config.NATS_TLS_CA_FILE,
  });
}

/** A service's MongoDB connection as its configuration says. */
export function connectServiceMongo(
  config: Pick<MongoServiceConfig, 'MONGODB_URI' | 'MONGODB_DB' | 'MONGODB_TIMEOUT_MS'>,
  logger: Logger,
): Promise<Connection> {
  return connectMongo({
    uri: config.MONGODB_URI,
    dbName: config.MONGODB_DB,
    logger,
    timeoutMs: config.MONGODB_TIMEOUT_MS,
  });
}

/** What a service's start answers: how to stop it, and (optionally) its own readiness. */
export interface StartedService {
  stop(): Promise<void>;
  /** Required with `ownReadiness`: the service says when it can answer. */
  ready?: () => boolean;
}

interface ServiceSteps<C extends NatsServiceConfig> {
  name: string;
  telemetry: Telemetry;
  loadConfig: () => C;
  /** Said once the logger exists, before anything connects (e.g. a demo-mode warning). */
  announce?: (config: C, logger: Logger) => void;
  /**
   * Readiness is the service's own `ready()` alone, not its connections
   * (the rate engine keeps answering from its cache while NATS is away).
   */
  ownReadiness?: boolean;
}

/**
 * The steps every service runs, in a fixed order: config, logger, health
 * server (so liveness answers while dependencies come up), NATS, then
 * `connect` (MongoDB for the services that keep data) and the service
 * itself. Shutdown runs the same steps in reverse.
 */
function runService<C extends NatsServiceConfig, D extends object>(
  options: ServiceSteps<C> & {
    connect: (config: C, logger: Logger, lifecycle: Lifecycle, deps: Partial<D>) => Promise<D>;
    checks: (deps: Partial<D>) => Record<string, () => boolean>;
    start: (deps: { config: C; logger: Logger; nc: NatsConnection } & D) => Promise<StartedService>;
  },
): void {
  const { name, telemetry } = options;
  runMain(name, async () => {
    const config = options.loadConfig();
    const logger = createLogger(name, config.LOG_LEVEL);
    const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
    lifecycle.trapSignals();
    lifecycle.onStop('telemetry', () => telemetry.shutdown());
    options.announce?.(config, logger);

    // Filled in as connections open; readiness reads them.
    const state: { nc?: NatsConnection; service?: StartedService } = {};
    const extra: Partial<D> = {};
    const serving = () => {
      const { service } = state;
      return !!service && (service.ready ? service.ready() : true);
    };
    const health = await startHealthServer({
      port: config.HEALTH_PORT,
      lifecycle,
      logger,
      metrics: telemetry.metricsHandler,
      checks: options.ownReadiness
        ? { serving }
        : { nats: () => !!state.nc && natsReady(state.nc), ...options.checks(extra), serving },
    });
    lifecycle.onStop('health server', () => closeServer(health));

    const nc = await connectServiceNats(config, name, logger);
    state.nc = nc;
    lifecycle.onStop('nats', () => nc.drain());
    const connected = await options.connect(config, logger, lifecycle, extra);

    const service = await options.start({ config, logger, nc, ...connected });
    lifecycle.onStop(`${name} service`, () => service.stop());
    state.service = service;
    logger.info(`${name} service ready`);
  });
}

/** A service that keeps no data of its own: it answers over NATS (and maybe HTTP). */
export function runNatsService<C extends NatsServiceConfig>(
  options: ServiceSteps<C> & {
    start: (deps: { config: C; logger: Logger; nc: NatsConnection }) => Promise<StartedService>;
  },
): void {
  runService<C, Record<string, never>>({
    ...options,
    connect: async () => ({}),
    checks: () => ({}),
  });
}

/**
 * A service that answers over NATS and keeps its data in MongoDB: after NATS,
 * MongoDB and its indexes (development only).
 */
export function runMongoService<C extends MongoServiceConfig>(
  options: ServiceSteps<C> & {
    buildIndexes: (conn: Connection) => Promise<void>;
    start: (deps: {
      config: C;
      logger: Logger;
      nc: NatsConnection;
      conn: Connection;
    }) => Promise<StartedService>;
  },
): void {
  runService<C, { conn: Connection }>({
    ...options,
    connect: async (config, logger, lifecycle, deps) => {
      const conn = await connectServiceMongo(config, logger);
      deps.conn = conn;
      lifecycle.onStop('mongodb', () => conn.close());
      if (config.MONGODB_AUTO_INDEX) await options.buildIndexes(conn);
      return { conn };
    },
    checks: (deps) => ({ mongodb: () => !!deps.conn && mongoReady(deps.conn) }),
  });
}

/** Builds a service's indexes and exits: the Helm pre-install/pre-upgrade Job. */
export function runMigration(options: {
  name: string;
  loadConfig: () => Pick<MongoServiceConfig, 'LOG_LEVEL' | 'MONGODB_URI' | 'MONGODB_DB'>;
  buildIndexes: (conn: Connection) => Promise<void>;
}): void {
  runMain(`${options.name}-migrate`, async () => {
    const config = options.loadConfig();
    const logger = createLogger(`${options.name}-migrate`, config.LOG_LEVEL);
    const giveUp = new AbortController();
    setTimeout(() => giveUp.abort(), 120_000).unref();
    const conn = await connectMongo({
      uri: config.MONGODB_URI,
      dbName: config.MONGODB_DB,
      logger,
      timeoutMs: 60_000,
      signal: giveUp.signal,
    });
    await options.buildIndexes(conn);
    logger.info('indexes are in place');
    await conn.close();
  });
}
