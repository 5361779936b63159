import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServers, type TestServers } from '@ratesmith/devstack';
import { createLogger, type NatsConnection } from '@ratesmith/kit';
import { loadConfig } from '../src/config';
import { startGateway } from '../src/service';

/**
 * The gateway's main: a port it cannot bind is a failed start (its process
 * exits 1), never a gateway that reports ready while another server answers.
 */
let servers: TestServers;
let nc: NatsConnection;
const logger = createLogger('test', 'silent');

beforeAll(async () => {
  servers = await startTestServers();
  nc = await servers.connectAs('gateway', logger);
}, 60_000);
afterAll(async () => {
  await nc?.close();
  await servers?.stop();
});

const configOn = (port: number) =>
  loadConfig({
    NODE_ENV: 'test',
    NATS_URL: servers.natsUrl,
    NATS_SUBJECT_PREFIX: servers.subjectPrefix,
    SHOPIFY_API_KEY: 'test-api-key',
    SHOPIFY_API_SECRET: 'test-api-secret',
    PORT: String(port),
  });

async function listening(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, resolve));
  return server;
}

test('a port another server holds fails the start with EADDRINUSE', async () => {
  const other = await listening((_req, res) => res.writeHead(404).end('someone else'));
  try {
    const { port } = other.address() as AddressInfo;
    await expect(startGateway({ config: configOn(port), logger, nc })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  } finally {
    other.close();
  }
});

test('on a free port the gateway answers and stops', async () => {
  const probe = await listening(() => undefined);
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const gateway = await startGateway({ config: configOn(port), logger, nc });
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/global-rules`);
    // The gateway's own answer: /api needs a session token.
    expect(res.status).toBe(401);
  } finally {
    await gateway.stop();
  }
  await expect(fetch(`http://127.0.0.1:${port}/api/global-rules`)).rejects.toThrow();
});
