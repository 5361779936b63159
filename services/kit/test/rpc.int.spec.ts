import { Writable } from 'node:stream';
import { create, toBinary } from '@bufbuild/protobuf';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { authV1, rpcSubject } from '@ratesmith/contracts';
import { startNatsServer, type RunningServer } from '@ratesmith/devstack';
import {
  AppError,
  connectNats,
  CALLER_GONE_MESSAGE,
  createLogger,
  remainingMs,
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

describe("the caller's deadline", () => {
  /** What each handled request saw: its shop and the time its caller had left. */
  const handled: { shop: string; remaining: number }[] = [];
  let stopDeadline: () => Promise<void>;
  let deadlineClient: ClientOf<typeof authV1.AuthService>;
  const subject = rpcSubject(authV1.AuthService.method.getShop, 'deadline.');

  beforeAll(async () => {
    const service = await serveRpc({
      nc,
      service: authV1.AuthService,
      logger: createLogger('test', 'info', sink),
      name: 'auth-deadline',
      version: '1.0.0',
      subjectPrefix: 'deadline.',
      handlers: {
        getShop: async ({ shop }: { shop: string }) => {
          handled.push({ shop, remaining: remainingMs() });
          if (shop === 'busy.myshopify.com') {
            // Holds the event loop, as the validation of a large Save All does.
            const until = Date.now() + 300;
            while (Date.now() < until);
          }
          if (shop === 'outer.myshopify.com')
            await deadlineClient.call(
              'getShop',
              { shop: 'inner.myshopify.com' },
              { timeoutMs: 60_000 },
            );
          return { shop, installed: true };
        },
        // Only GetShop is exercised here.
      } as unknown as HandlersOf<typeof authV1.AuthService>,
    });
    stopDeadline = service.stop;
    deadlineClient = new RpcClient(nc, authV1.AuthService, {
      timeoutMs: 1000,
      subjectPrefix: 'deadline.',
      displayName: 'auth',
    });
  });
  afterAll(() => stopDeadline?.());
  beforeEach(() => {
    handled.length = 0;
    logLines.length = 0;
  });

  const shopsHandled = () => handled.map((h) => h.shop);

  /** A GetShop sent as an older caller or a broken one would: the header as given, or none. */
  async function rawGetShop(shop: string, deadline?: string) {
    const hdrs = natsHeaders();
    if (deadline !== undefined) hdrs.set('ratesmith-deadline', deadline);
    return nc.request(
      subject,
      toBinary(authV1.GetShopRequestSchema, create(authV1.GetShopRequestSchema, { shop })),
      { timeout: 2000, headers: hdrs },
    );
  }

  it('never handles a request whose caller stopped waiting before it was picked up; a fresh one is handled', async () => {
    // Both go out together; the first holds the service's event loop past the second's 100 ms.
    const busy = deadlineClient.call(
      'getShop',
      { shop: 'busy.myshopify.com' },
      { timeoutMs: 5000 },
    );
    const late = deadlineClient
      .call('getShop', { shop: 'late.myshopify.com' }, { timeoutMs: 100 })
      .catch((e: AppError) => e);
    await expect(busy).resolves.toMatchObject({ installed: true });
    expect(await late).toMatchObject({ kind: 'unavailable' });
    // Its handler never ran: no side effect.
    expect(shopsHandled()).toEqual(['busy.myshopify.com']);
    expect(logLines.find((l) => l.msg === 'caller stopped waiting: dropped')).toMatchObject({
      level: 'info',
      rpc: 'GetShop',
    });
    await expect(
      deadlineClient.call('getShop', { shop: 'fresh.myshopify.com' }),
    ).resolves.toMatchObject({ shop: 'fresh.myshopify.com', installed: true });
    expect(shopsHandled()).toEqual(['busy.myshopify.com', 'fresh.myshopify.com']);
  });

  it('answers a request already past its deadline with "unavailable", unhandled', async () => {
    const reply = await rawGetShop('past.myshopify.com', String(Date.now() - 1));
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('503');
    expect(reply.headers?.get('Nats-Service-Error')).toBe(CALLER_GONE_MESSAGE);
    expect(handled).toEqual([]);
  });

  it("carries the caller's deadline to the handler, and a call the handler makes passes it on", async () => {
    await deadlineClient.call('getShop', { shop: 'outer.myshopify.com' }, { timeoutMs: 3000 });
    const [outer, inner] = handled;
    expect(outer).toMatchObject({ shop: 'outer.myshopify.com' });
    expect(outer!.remaining).toBeGreaterThan(0);
    expect(outer!.remaining).toBeLessThanOrEqual(3000);
    // The inner call asked for 60 s, but its caller's caller stops waiting within 3.
    expect(inner).toMatchObject({ shop: 'inner.myshopify.com' });
    expect(inner!.remaining).toBeLessThanOrEqual(outer!.remaining);
  });

  it.each([
    ['no header', undefined],
    ['a malformed one', 'tomorrow'],
  ])('treats a request with %s as having no deadline (an older caller)', async (_, header) => {
    const reply = await rawGetShop('old.myshopify.com', header);
    expect(reply.headers?.get('Nats-Service-Error-Code') ?? '').toBe('');
    expect(handled).toEqual([{ shop: 'old.myshopify.com', remaining: Infinity }]);
  });

  it('takes a deadline hours ahead as five minutes', async () => {
    await rawGetShop('far.myshopify.com', String(Date.now() + 3_600_000));
    expect(handled[0]!.remaining).toBeLessThanOrEqual(300_000);
    expect(handled[0]!.remaining).toBeGreaterThan(290_000);
  });
});
