import { Writable } from 'node:stream';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { authV1 } from '@ratesmith/contracts';
import { startNatsServer, type RunningServer } from '@ratesmith/devstack';
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
 * The request/reply layer every service uses, against a real NATS server:
 * typed calls, errors answered (never a timeout), and the trace context
 * carried in message headers so one trace spans gateway and service.
 */
const exporter = new InMemorySpanExporter();
const logLines: Record<string, unknown>[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    for (const line of String(chunk).split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let nats: RunningServer;
let nc: NatsConnection;
let stop: () => Promise<void>;
let client: ClientOf<typeof authV1.AuthService>;
const behaviour: { mode: 'ok' | 'refuse' | 'crash' } = { mode: 'ok' };

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }),
  );

  nats = await startNatsServer();
  const logger = createLogger('test', 'info', sink);
  nc = await connectNats({ url: nats.url, name: 'rpc-test', logger });
  const service = await serveRpc({
    nc,
    service: authV1.AuthService,
    logger,
    name: 'auth',
    version: '1.0.0',
    handlers: {
      getShop: async ({ shop }, ctx) => {
        ctx.logger.info('handling');
        if (behaviour.mode === 'refuse') throw new AppError('not_found', 'No such shop.');
        if (behaviour.mode === 'crash') throw new Error('E11000 secret internals');
        return { shop, installed: true };
      },
      // Only GetShop is exercised here.
    } as HandlersOf<typeof authV1.AuthService>,
  });
  stop = service.stop;
  client = new RpcClient(nc, authV1.AuthService, { timeoutMs: 1000, displayName: 'auth' });
});

afterAll(async () => {
  await stop?.();
  await nc?.close();
  await nats?.stop();
  trace.disable();
  context.disable();
  propagation.disable();
});

it('answers typed replies', async () => {
  behaviour.mode = 'ok';
  const reply = await client.call('getShop', { shop: 'a.myshopify.com' });
  expect(reply).toMatchObject({ shop: 'a.myshopify.com', installed: true });
});

it('carries the trace across NATS and puts its id on the handler log line', async () => {
  behaviour.mode = 'ok';
  exporter.reset();
  logLines.length = 0;
  await trace.getTracer('test').startActiveSpan('http request', async (root) => {
    await client.call('getShop', { shop: 'a.myshopify.com' }, { requestId: 'req-42' });
    root.end();
  });
  const spans = exporter.getFinishedSpans();
  const traceIds = new Set(spans.map((s) => s.spanContext().traceId));
  expect(spans.map((s) => s.name).sort()).toEqual([
    'http request',
    'ratesmith.auth.v1.GetShop process',
    'ratesmith.auth.v1.GetShop send',
  ]);
  expect(traceIds.size).toBe(1);
  const handled = logLines.find((l) => l.msg === 'handling');
  expect(handled).toMatchObject({
    request_id: 'req-42',
    rpc: 'GetShop',
    trace_id: [...traceIds][0],
  });
});

it('answers domain errors with their kind and message', async () => {
  behaviour.mode = 'refuse';
  await expect(client.call('getShop', { shop: 'a.myshopify.com' })).rejects.toMatchObject({
    kind: 'not_found',
    message: 'No such shop.',
  });
});

it('answers unexpected errors with a generic message and logs the cause', async () => {
  behaviour.mode = 'crash';
  logLines.length = 0;
  const started = Date.now();
  const error = await client.call('getShop', { shop: 'a.myshopify.com' }).catch((e: AppError) => e);
  expect(Date.now() - started).toBeLessThan(500);
  expect(error).toMatchObject({
    kind: 'internal',
    message: 'Something went wrong on our side. Please try again.',
  });
  expect(JSON.stringify(error)).not.toContain('E11000');
  expect(logLines.find((l) => l.msg === 'request failed')).toMatchObject({
    level: 'error',
    err: { message: 'E11000 secret internals' },
  });
});

it('fails at once with "unavailable" when nobody serves the subject', async () => {
  const other = new RpcClient(nc, authV1.AuthService, {
    timeoutMs: 1000,
    subjectPrefix: 'nobody.',
    displayName: 'auth',
  });
  const started = Date.now();
  await expect(other.call('getShop', { shop: 'a.myshopify.com' })).rejects.toMatchObject({
    kind: 'unavailable',
  });
  expect(Date.now() - started).toBeLessThan(200);
});

it('stops only once the requests it was handling are answered (R11: a restart answers them, the database is not closed under them)', async () => {
  const logger = createLogger('test', 'info', sink);
  let finished = false;
  const slow = await serveRpc({
    nc,
    service: authV1.AuthService,
    logger,
    name: 'auth-slow',
    version: '1.0.0',
    subjectPrefix: 'slow.',
    handlers: {
      getShop: async ({ shop }: { shop: string }) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        finished = true;
        return { shop, installed: true };
      },
      // Only GetShop is exercised here.
    } as unknown as HandlersOf<typeof authV1.AuthService>,
  });
  const slowClient = new RpcClient(nc, authV1.AuthService, {
    timeoutMs: 2000,
    subjectPrefix: 'slow.',
    displayName: 'auth',
  });
  const reply = slowClient.call('getShop', { shop: 'slow.myshopify.com' });
  await new Promise((resolve) => setTimeout(resolve, 100));
  await slow.stop();
  // Without the wait, stop returned while the handler slept (finished still false).
  expect(finished).toBe(true);
  await expect(reply).resolves.toMatchObject({ shop: 'slow.myshopify.com', installed: true });
});
