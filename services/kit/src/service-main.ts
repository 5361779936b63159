import { closeServer, startHealthServer } from './health';
import { Lifecycle, runMain } from './lifecycle';
import { createLogger, type Logger } from './logger';
import { connectMongo, mongoReady, type Connection } from './mongo';
import { connectNats, natsReady, type NatsConnection } from './nats';
import type { Telemetry } from './telemetry';

/** The configuration every NATS + MongoDB service has. */
export interface MongoServiceConfig {
  LOG_LEVEL: string;
  NATS_URL: string;
  HEALTH_PORT: number;
  SHUTDOWN_TIMEOUT_MS: number;
  MONGODB_URI: string;
  MONGODB_DB: string;
  MONGODB_TIMEOUT_MS: number;
  MONGODB_AUTO_INDEX: boolean;
}

/**
 * The main of a service that answers over NATS and keeps its data in MongoDB,
 * in the fixed order: config, logger, health server (so liveness answers while
 * dependencies come up), NATS, MongoDB, indexes (development only), the
 * service itself. Shutdown runs the same steps in reverse.
 */
export function runMongoService<C extends MongoServiceConfig>(options: {
  name: string;
  telemetry: Telemetry;
  loadConfig: () => C;
  buildIndexes: (conn: Connection) => Promise<void>;
  start: (deps: { config: C; logger: Logger; nc: NatsConnection; conn: Connection }) => Promise<{
    stop(): Promise<void>;
  }>;
}): void {
  const { name, telemetry } = options;
  runMain(name, async () => {
    const config = options.loadConfig();
    const logger = createLogger(name, config.LOG_LEVEL);
    const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
    lifecycle.trapSignals();
    lifecycle.onStop('telemetry', () => telemetry.shutdown());

    // Filled in as connections open; readiness reads them.
    const deps: { nc?: NatsConnection; conn?: Connection; serving?: boolean } = {};
    const health = await startHealthServer({
      port: config.HEALTH_PORT,
      lifecycle,
      logger,
      metrics: telemetry.metricsHandler,
      checks: {
        nats: () => !!deps.nc && natsReady(deps.nc),
        mongodb: () => !!deps.conn && mongoReady(deps.conn),
        serving: () => deps.serving === true,
      },
    });
    lifecycle.onStop('health server', () => closeServer(health));

    const natsConnection = await connectNats({ url: config.NATS_URL, name, logger });
    deps.nc = natsConnection;
    lifecycle.onStop('nats', () => natsConnection.drain());
    const mongo = await connectMongo({
      uri: config.MONGODB_URI,
      dbName: config.MONGODB_DB,
      logger,
      timeoutMs: config.MONGODB_TIMEOUT_MS,
    });
    deps.conn = mongo;
    lifecycle.onStop('mongodb', () => mongo.close());
    if (config.MONGODB_AUTO_INDEX) await options.buildIndexes(mongo);

    const service = await options.start({ config, logger, nc: natsConnection, conn: mongo });
    lifecycle.onStop(`${name} service`, () => service.stop());
    deps.serving = true;
    logger.info(`${name} service ready`);
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
