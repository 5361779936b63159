// The gateway's lane thread (./proxy.ts): the /api routes on an HTTP server of its own
// on loopback, with its own NATS connection, for the heavy calls the gateway's thread
// passes on with the session it verified (./identity.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { workerData } from 'node:worker_threads';
import express from 'express';
import { closeServer, connectServiceNats, createLogger, serveLaneThread } from '@ratesmith/kit';
import { apiRoutes } from '../app';
import { loadConfig } from '../config';
import { errorHandler, notFound } from '../http/errors';
import { requestContext } from '../http/request-context';
import { gatewayClients } from '../clients';
import { laneIdentity } from './identity';

const { secret } = workerData as { secret: string };
const config = loadConfig();
const logger = createLogger('gateway', config.LOG_LEVEL).child({ component: 'api-lane' });
let server: Server | undefined;
let stop = async () => {};

async function open() {
  const nc = await connectServiceNats(config, 'gateway', logger);
  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext(logger));
  app.use(laneIdentity(secret));
  app.use('/api', apiRoutes({ config, ...gatewayClients(nc, config) }));
  app.use(notFound);
  app.use(errorHandler);
  const listening = createServer(app);
  await new Promise<void>((resolve, reject) => {
    listening.once('error', reject);
    listening.listen(0, '127.0.0.1', resolve);
  });
  server = listening;
  stop = async () => {
    await closeServer(listening, config.SHUTDOWN_DRAIN_MS);
    await nc.drain();
  };
  return {};
}

serveLaneThread({
  handlers: open(),
  readyInfo: () => ({ port: (server!.address() as AddressInfo).port }),
  logger,
  onStop: () => stop(),
});
