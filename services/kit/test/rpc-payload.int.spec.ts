import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { authV1, validateFilters } from '@ratesmith/contracts';
import { startNatsServer, type RunningServer } from '@ratesmith/devstack';
import { worstFilters } from '@ratesmith/contracts/testing';
import {
  AppError,
  connectNats,
  createLogger,
  RpcClient,
  serveRpc,
  type ClientOf,
  type HandlersOf,
  type NatsConnection,
} from '../src';

/**
 * Request/reply bodies past NATS's max_payload, on a real server with its
 * default (1 MB): large bodies travel gzipped, and one too large even so is
 * refused at once with a message a merchant can act on, never a timeout, a
 * "cannot be reached" or an internal error.
 */
let nats: RunningServer;
let nc: NatsConnection;
let stop: () => Promise<void>;
let client: ClientOf<typeof authV1.AuthService>;
let handled = 0;
const reply: { json?: string } = {};

beforeAll(async () => {
  nats = await startNatsServer();
  const logger = createLogger('test', 'info', new Writable({ write: (_c, _e, done) => done() }));
  nc = await connectNats({ url: nats.url, name: 'rpc-payload-test', logger });
  const service = await serveRpc({
    nc,
    service: authV1.AuthService,
    logger,
    name: 'auth',
    version: '1.0.0',
    compressedRequests: ['runAdminQuery'],
    handlers: {
      runAdminQuery: async ({ variablesJson }: authV1.RunAdminQueryRequest) => {
        handled++;
        return { dataJson: reply.json ?? variablesJson };
      },
      // Only RunAdminQuery is exercised here.
    } as unknown as HandlersOf<typeof authV1.AuthService>,
  });
  stop = service.stop;
  client = new RpcClient(nc, authV1.AuthService, { timeoutMs: 10_000, displayName: 'auth' });
});

afterAll(async () => {
  await stop?.();
  await nc?.close();
  await nats?.stop();
});

beforeEach(() => {
  handled = 0;
  reply.json = undefined;
});

it("the server's limit is NATS's default, 1 MB", () => {
  expect(nc.info?.max_payload).toBe(1024 * 1024);
});

it('carries a 2.8 MB body of filters (with their ids) both ways through a 1 MB server, gzipped', async () => {
  const body = JSON.stringify(validateFilters(worstFilters(100), 'ruleset').filters);
  expect(body.length).toBeGreaterThan(2_500_000);
  const answer = await client.call('runAdminQuery', { shop: 's', variablesJson: body });
  expect(answer.dataJson).toBe(body);
});

it('refuses a request too large even gzipped at once, before sending, in words a merchant can act on', async () => {
  const started = Date.now();
  const error = await client
    .call('runAdminQuery', { shop: 's', variablesJson: randomBytes(1_200_000).toString('base64') })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ kind: 'invalid_data' });
  expect((error as AppError).message).toMatch(
    /^This request is too large to send between Ratesmith's services \(1\.\d MB compressed, at most 1\.0 MB\)\. Please make it smaller/,
  );
  expect(handled).toBe(0);
  expect(Date.now() - started).toBeLessThan(3000);
});

it('answers a reply too large even gzipped with that message, not an internal error or a timeout', async () => {
  reply.json = randomBytes(1_200_000).toString('base64');
  const started = Date.now();
  const error = await client
    .call('runAdminQuery', { shop: 's', variablesJson: '{}' })
    .catch((e: unknown) => e);
  expect(error).toMatchObject({ kind: 'invalid_data' });
  expect((error as AppError).message).toMatch(/^This answer is too large to send/);
  expect(handled).toBe(1);
  expect(Date.now() - started).toBeLessThan(3000);
});

it('sends small bodies as they are (no gzip below 64 KB)', async () => {
  const seen: (string | undefined)[] = [];
  const sub = nc.subscribe('ratesmith.auth.v1.RunAdminQuery', {
    callback: (_err, msg) => {
      seen.push(msg.headers?.get('Ratesmith-Encoding') || undefined);
    },
  });
  await nc.flush();
  await client.call('runAdminQuery', { shop: 's', variablesJson: 'x'.repeat(60_000) });
  await client.call('runAdminQuery', { shop: 's', variablesJson: 'x'.repeat(70_000) });
  sub.unsubscribe();
  expect(seen).toEqual([undefined, 'gzip']);
});

describe('gzipped requests a service did not ask for, and decompression bombs', () => {
  const send = (subject: string, body: Uint8Array) =>
    nc.request(subject, body, { timeout: 10_000, headers: gzipHeaders() });

  it('refuses a bomb (200 MB of zeros in 200 KB) unread past 8 MB, as invalid data', async () => {
    const bomb = await zeros(200);
    expect(bomb.length).toBeLessThan(300_000);
    const before = process.memoryUsage().rss;
    const started = Date.now();
    const reply = await send('ratesmith.auth.v1.RunAdminQuery', bomb);
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('400');
    expect(reply.headers?.get('Nats-Service-Error')).toBe('The request could not be read.');
    expect(handled).toBe(0);
    // zlib stopped at 8 MB: neither the time nor the memory of 200 MB.
    expect(Date.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a gzipped request for a method whose requests are never large, unread', async () => {
    const small = new Uint8Array(gzipSync(Buffer.from('{}')));
    const reply = await send('ratesmith.auth.v1.GetShop', small);
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('400');
    expect(reply.headers?.get('Nats-Service-Error')).toBe('The request could not be read.');
  });
});

/** `megabytes` MB of zeros gzipped, made a megabyte at a time (never 200 MB at once). */
async function zeros(megabytes: number): Promise<Uint8Array> {
  const zip = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  zip.on('data', (part: Buffer) => parts.push(part));
  const done = new Promise((resolve) => zip.on('end', resolve));
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < megabytes; i++) {
    if (!zip.write(chunk)) await new Promise((resolve) => zip.once('drain', resolve));
  }
  zip.end();
  await done;
  return new Uint8Array(Buffer.concat(parts));
}

function gzipHeaders() {
  const hdrs = natsHeaders();
  hdrs.set('Ratesmith-Encoding', 'gzip');
  return hdrs;
}
