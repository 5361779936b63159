import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { createLogger, BUSY_MESSAGE } from '@ratesmith/kit';
import { ctx } from '../http/context';
import { requestContext } from '../http/request-context';
import { LANE_HEADERS, laneIdentity } from './identity';
import { apiLaneProxy } from './proxy';

/**
 * The gateway's thread and its lane over loopback (./proxy.ts, ./identity.ts), with
 * real HTTP servers: what the lane's server sees of a request (the verified session,
 * not the caller's say), what comes back, what stays on the gateway's thread, and a
 * lane that does not answer.
 */

const SECRET = 'a'.repeat(64);
const logger = createLogger('test', 'silent');
const servers: Server[] = [];

async function listen(app: Express): Promise<number> {
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** The lane's side: the identity check, then an echo of what it was told. */
async function laneServer(): Promise<number> {
  const app = express();
  app.use(requestContext(logger));
  app.use(laneIdentity(SECRET));
  app.use(express.text({ type: '*/*', limit: '2mb' }));
  app.post('/api/echo', (req, res) => {
    const { shop, user, requestId } = ctx(res);
    res.setHeader('x-answered-on', 'lane');
    res.status(201).json({
      shop,
      user,
      requestId,
      bytes: String(req.body).length,
      forged: req.headers['x-forged'],
    });
  });
  app.post('/api/drop', (req) => req.socket.destroy());
  return listen(app);
}

/** The gateway's side: a verified session (here, set as the session middleware would), then the proxy. */
/** How each borrow of the lane was given back (true: lost); kit's lane counts only the first. */
const released: boolean[] = [];

async function gateway(lanePort: number | undefined, minBytes: number): Promise<number> {
  const app = express();
  app.use(requestContext(logger));
  app.use((_req, res, next) => {
    ctx(res).shop = 'shop-a.myshopify.com';
    ctx(res).user = '42';
    next();
  });
  const proxy = apiLaneProxy(
    {
      borrow: () =>
        lanePort === undefined
          ? undefined
          : {
              ready: { type: 'ready', port: lanePort },
              release: (lost) => void released.push(!!lost),
            },
    },
    SECRET,
  );
  app.post(['/api/echo', '/api/drop'], proxy(minBytes), (_req, res) => {
    res.json({ answered: 'here' });
  });
  return listen(app);
}

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

const post = (port: number, path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'text/plain', ...headers },
  });

it("passes a large request to the lane with the verified session, not the caller's, and its answer back", async () => {
  released.length = 0;
  const port = await gateway(await laneServer(), 1000);
  const res = await post(port, '/api/echo', 'x'.repeat(5000), {
    'x-request-id': 'req-1',
    // A caller cannot speak for a shop or present the lane's secret.
    [LANE_HEADERS.shop]: 'shop-b.myshopify.com',
    [LANE_HEADERS.user]: '7',
    [LANE_HEADERS.secret]: 'b'.repeat(64),
    'x-forged': 'kept',
  });
  expect(res.status).toBe(201);
  expect(res.headers.get('x-answered-on')).toBe('lane');
  expect(await res.json()).toEqual({
    shop: 'shop-a.myshopify.com',
    user: '42',
    requestId: 'req-1',
    bytes: 5000,
    forged: 'kept',
  });
  expect(released[0]).toBe(false);
});

it('keeps a small request, and any request while the lane cannot take it, on its own thread', async () => {
  const small = await post(await gateway(await laneServer(), 1000), '/api/echo', 'x'.repeat(999));
  expect(await small.json()).toEqual({ answered: 'here' });
  const noLane = await post(await gateway(undefined, 0), '/api/echo', 'x'.repeat(5000));
  expect(await noLane.json()).toEqual({ answered: 'here' });
});

it('answers 503 with a message when the lane drops the request', async () => {
  released.length = 0;
  const res = await post(await gateway(await laneServer(), 0), '/api/drop', 'x');
  expect(released[0]).toBe(true);
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(await res.json()).toEqual({ status: false, message: BUSY_MESSAGE });
});

it("refuses a call to the lane's server without the secret, or without a shop", async () => {
  const lane = await laneServer();
  for (const headers of <Record<string, string>[]>[
    { [LANE_HEADERS.shop]: 'shop-a.myshopify.com' },
    { [LANE_HEADERS.shop]: 'shop-a.myshopify.com', [LANE_HEADERS.secret]: 'b'.repeat(64) },
    { [LANE_HEADERS.shop]: 'shop-a.myshopify.com', [LANE_HEADERS.secret]: 'a' },
    { [LANE_HEADERS.secret]: SECRET },
  ]) {
    const res = await post(lane, '/api/echo', 'x', headers);
    expect([res.status, await res.json()]).toEqual([403, { status: false, message: 'Forbidden.' }]);
  }
  const allowed = await post(lane, '/api/echo', 'x', {
    [LANE_HEADERS.shop]: 'shop-a.myshopify.com',
    [LANE_HEADERS.secret]: SECRET,
  });
  expect(allowed.status).toBe(201);
});
