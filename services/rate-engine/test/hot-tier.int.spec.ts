import { Kvm, type KV } from '@nats-io/kv';
import { startNatsServer, type RunningServer } from '@ratesmith/devstack';
import { connectNats, createLogger, type NatsConnection } from '@ratesmith/kit';
import { quoteInput } from '../src/engine';
import { startRateEngine } from '../src/service';
import { always, and, CART_A, cond, filter, or, request, snapshot } from './fixtures/cases';
import { callCarrier, newRateKey, SECRET, waitFor } from './helpers';

/**
 * The hot tier over HTTP: a shop gets generated code only once it is busy
 * (COMPILE_AFTER_QUOTES quotes within a minute), and at most
 * COMPILES_PER_SECOND functions are generated a second. Neither ever changes
 * an answer or fails a callback: a shop not (yet) compiled is quoted by the
 * program loop.
 */
const BUCKET = 'snapshots_hot_tier';
const BUSY_AFTER = 3;
const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
let nats: RunningServer;
let nc: NatsConnection;
let kv: KV;
let engine: Awaited<ReturnType<typeof startRateEngine>>;
let baseUrl: string;

/** Shop n's rules: n + 1 filters (so every shop has its own shape), the first one a real test. */
function shopSnapshot(n: number, rateKey: string) {
  const filters = [
    filter(
      and(cond('cart_price', 'greater_than', 10 * n), or(cond('shipping_country', 'equal', 'US'))),
      1,
      100 + n,
    ),
    ...Array.from({ length: n }, () => filter(always(), 1, 1)),
  ];
  return { ...snapshot({ filters }), shop: `hot-${n}.myshopify.com`, rateKey };
}
const shops = Array.from({ length: 5 }, (_, n) => ({ n, key: newRateKey() }));
const body = request(CART_A);

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connectNats({ url: nats.url, name: 'test', logger });
  kv = await new Kvm(nc).create(BUCKET, { history: 1 });
  for (const { n, key } of shops)
    await kv.put(`hot-${n}.myshopify.com`, JSON.stringify(shopSnapshot(n, key)));
  engine = await startRateEngine({
    config: {
      NATS_SUBJECT_PREFIX: '',
      CARRIER_PORT: 0,
      SHOPIFY_API_SECRET: SECRET,
      CARRIER_HMAC_MODE: 'enforce',
      CARRIER_BODY_LIMIT: 64 * 1024,
      CARRIER_MAX_ITEMS: 100,
      SNAPSHOT_BUCKET: BUCKET,
      SNAPSHOT_CACHE_SIZE: 20,
      SNAPSHOT_FETCH_TIMEOUT_MS: 1000,
      COMPILE_AFTER_QUOTES: BUSY_AFTER,
      COMPILES_PER_SECOND: 1,
    },
    logger,
    nc,
    host: '127.0.0.1',
  });
  baseUrl = `http://127.0.0.1:${engine.port}`;
  await waitFor(() => engine.ready(), 10_000);
}, 30_000);

afterAll(async () => {
  await engine?.stop();
  await nc?.close();
  await nats?.stop();
});

describe('the hot tier over the carrier callback', () => {
  it('a shop not yet busy is quoted right on its first callback, without generated code', async () => {
    const { n, key } = shops[0]!;
    const expected = quoteInput({ snapshot: shopSnapshot(n, key), request: body }).rates;
    expect(expected.length).toBeGreaterThan(0);
    const first = await callCarrier(baseUrl, key, body);
    expect(first).toMatchObject({ status: 200, json: { rates: expected } });
    expect(engine.hotTier.stats().generated).toBe(0);
  });

  it('busy shops over the compile budget (1 a second) are all answered, the same as before and after their code', async () => {
    const expected = shops.map(
      ({ n, key }) => quoteInput({ snapshot: shopSnapshot(n, key), request: body }).rates,
    );
    const started = Date.now();
    // Every shop busy at once: 5 shapes to generate, 1 a second allowed.
    for (let round = 0; round < BUSY_AFTER + 2; round++) {
      const answers = await Promise.all(shops.map(({ key }) => callCarrier(baseUrl, key, body)));
      answers.forEach((a, i) =>
        expect(a).toMatchObject({ status: 200, json: { rates: expected[i] } }),
      );
    }
    const stats = engine.hotTier.stats();
    const seconds = (Date.now() - started) / 1000;
    console.log(`hot tier after ${seconds.toFixed(1)} s of busy shops: ${JSON.stringify(stats)}`);
    // The bucket starts full (1 token) and refills at 1 a second.
    expect(stats.generated).toBeLessThanOrEqual(1 + Math.ceil(seconds));
    expect(stats.generated).toBeGreaterThanOrEqual(1);
    expect(stats.deferred).toBeGreaterThan(0);
    // Kept busy, every shop gets its code in time, one a second, and still answers the same.
    await waitFor(async () => {
      const answers = await Promise.all(shops.map(({ key }) => callCarrier(baseUrl, key, body)));
      answers.forEach((a, i) =>
        expect(a).toMatchObject({ status: 200, json: { rates: expected[i] } }),
      );
      return engine.hotTier.stats().held === shops.length;
    }, 30_000);
    expect(engine.hotTier.stats().generated).toBe(shops.length);
  }, 60_000);
});
