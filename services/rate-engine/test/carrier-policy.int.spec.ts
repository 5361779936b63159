import { request as httpRequest } from 'node:http';
import { Kvm, type KV } from '@nats-io/kv';
import { startNatsServer, type RunningServer } from '@ratesmith/devstack';
import { connectNats, createLogger, type NatsConnection } from '@ratesmith/kit';
import { loadConfig } from '../src/config';
import { startRateEngine } from '../src/service';
import { always, CART_A, filter, request, snapshot } from './fixtures/cases';
import { callCarrier, newRateKey, SECRET, sign, waitFor } from './helpers';

/**
 * Who may call the carrier callback, with the configuration production
 * gets by default: the rate key authenticates; a signature, when present,
 * must verify; the shop header, when present, must match; each key has a
 * budget; an unknown key costs no body read.
 */
const BUCKET = 'snapshots_policy';
const SHOP = 'policy-shop.myshopify.com';
const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
let nats: RunningServer;
let nc: NatsConnection;
let kv: KV;
let engine: Awaited<ReturnType<typeof startRateEngine>>;
let baseUrl: string;
const key = newRateKey();
const otherKey = newRateKey();
const RATE_LIMIT = 30;
const body = JSON.stringify(request(CART_A));

beforeAll(async () => {
  nats = await startNatsServer();
  nc = await connectNats({ url: nats.url, name: 'test', logger });
  kv = await new Kvm(nc).create(BUCKET, { history: 1 });
  const snap = snapshot({ filters: [filter(always(), 1, 4.99)] });
  await kv.put(SHOP, JSON.stringify({ ...snap, shop: SHOP, rateKey: key }));
  await kv.put(
    'other-shop.myshopify.com',
    JSON.stringify({ ...snap, shop: 'other-shop.myshopify.com', rateKey: otherKey }),
  );
  const config = loadConfig({
    NATS_URL: nats.url,
    SHOPIFY_API_SECRET: SECRET,
    SHOPIFY_API_SECRET_PREVIOUS: 'the-previous-secret',
    SNAPSHOT_BUCKET: BUCKET,
    CARRIER_RATE_LIMIT: String(RATE_LIMIT),
    CARRIER_PORT: '0',
  });
  engine = await startRateEngine({ config, logger, nc, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${engine.port}`;
  await waitFor(() => engine.ready(), 10_000);
}, 60_000);

afterAll(async () => {
  await engine?.stop();
  await nc?.close();
  await nats?.stop();
});

describe('S6: the carrier callback under the default policy (verify-present)', () => {
  it('answers an unsigned callback (the rate key authenticates it)', async () => {
    const res = await callCarrier(baseUrl, key, body, { signature: null });
    expect(res.status).toBe(200);
    expect(res.json.rates).toHaveLength(1);
  });

  it('answers a correctly signed callback', async () => {
    expect((await callCarrier(baseUrl, key, body)).status).toBe(200);
  });

  it.each([
    ['another secret', sign(body, 'another-secret')],
    ['a truncated signature', sign(body).slice(0, 20)],
    ['a signature of other bytes', sign(`${body} `)],
    ['garbage', 'bm90IGEgc2lnbmF0dXJl'],
  ])('refuses a present but wrong signature (%s) with 401 and no body', async (_label, sig) => {
    const res = await callCarrier(baseUrl, key, body, { signature: sig });
    expect([res.status, res.text]).toEqual([401, '']);
  });

  it('during a secret rotation accepts a signature made with the previous secret', async () => {
    const res = await callCarrier(baseUrl, key, body, {
      signature: sign(body, 'the-previous-secret'),
    });
    expect(res.status).toBe(200);
  });

  it("refuses a callback whose X-Shopify-Shop-Domain is not the key's shop", async () => {
    const call = (shop: string) =>
      fetch(`${baseUrl}/carrier/rates/${key}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-hmac-sha256': sign(body),
          'x-shopify-shop-domain': shop,
        },
        body,
      });
    expect((await call('other-shop.myshopify.com')).status).toBe(401);
    expect((await call('POLICY-SHOP.myshopify.com')).status).toBe(200);
  });

  it('answers an unknown key with 404 before the body is sent', async () => {
    // Headers announce 100 KB, and no byte of it is ever written.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${baseUrl}/carrier/rates/${newRateKey()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': '100000' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status).toBe(404);
  });
});

describe('S9: a budget per rate key', () => {
  it('answers 429 with Retry-After past the budget, and other keys are not affected', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < RATE_LIMIT + 5; i++) {
      const res = await fetch(`${baseUrl}/carrier/rates/${otherKey}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': sign(body) },
        body,
      });
      await res.arrayBuffer();
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    // The bucket refills at RATE_LIMIT a minute: a second of calls may win one more.
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(RATE_LIMIT);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(RATE_LIMIT + 1);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(4);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect((await callCarrier(baseUrl, key, body)).status).toBe(200);
  });
});
