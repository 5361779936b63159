import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { carrierCallbackPath } from '@ratesmith/contracts';
import { createLogger } from '@ratesmith/kit';
import { and, cond, filter, item, requestTo, snapshot } from '../../test/fixtures/cases';
import { NO_METRICS as metrics } from '../../test/fixtures/metrics';
import { parseSnapshot, Quoter } from '../engine';
import type { Batch } from '../outcomes/entries';
import { OutcomeRecorder } from '../outcomes/recorder';
import { RecentSampler } from '../outcomes/recent';
import { plainBatch } from '../outcomes/testing';
import { SnapshotStore } from '../snapshots/store';
import { carrierHandler } from './server';

/**
 * Unsigned callbacks for a rate key whose callbacks Shopify signs are a
 * stranger's: answered, but on a budget of their own and outside the shop's
 * counts; and an unsigned body, or a signed one past 8 KB, is scanned for
 * nesting before it is parsed.
 */
const SHOP = 'strangers.myshopify.com';
const KEY = 'strangers-key-12345678901234';
const SECRET = 'the-app-secret';
const UNSIGNED_BUDGET = 3;

let server: Server;
let recorder: OutcomeRecorder;
let port: number;
const sent: Batch[] = [];
const body = JSON.stringify(requestTo([item(1250, 2)], { country: 'US', postal_code: '10001' }));
const sign = (text: string) => createHmac('sha256', SECRET).update(text).digest('base64');

async function call(text: string, signed: boolean) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signed) headers['x-shopify-hmac-sha256'] = sign(text);
  const res = await fetch(`http://127.0.0.1:${port}${carrierCallbackPath(KEY)}`, {
    method: 'POST',
    headers,
    body: text,
  });
  return { status: res.status, text: await res.text(), retryAfter: res.headers.get('retry-after') };
}

/** The matched counts the shop's outcomes received since the last look. */
async function countedSince(): Promise<number> {
  await recorder.flush();
  const details = sent.splice(0).flatMap((b) => b.details);
  return details.flatMap((d) => d.filters).reduce((n, f) => n + (f.matched ?? 0), 0);
}

beforeAll(async () => {
  const store = new SnapshotStore({
    capacity: 10,
    source: async () => undefined,
    fetchTimeoutMs: 100,
    logger: createLogger('test', 'silent'),
    metrics,
  });
  store.apply(
    parseSnapshot({
      ...snapshot({ filters: [filter(and(cond('shipping_country', 'equal', 'US')), 1, 5)] }),
      shop: SHOP,
      version: 1,
      rateKey: KEY,
    }),
    0,
  );
  store.synced = true;
  recorder = new OutcomeRecorder({
    sink: async (batch) => void sent.push(plainBatch(batch)),
    logger: createLogger('test', 'silent'),
    flushMs: 60_000,
  });
  const handler = carrierHandler({
    store,
    secret: SECRET,
    hmacMode: 'verify-present',
    ratePerKey: 1000,
    unsignedRatePerKey: UNSIGNED_BUDGET,
    bodyLimit: 300_000,
    maxItems: 1000,
    quoter: new Quoter(),
    outcomes: recorder,
    filterAnalytics: true,
    recent: new RecentSampler({ perSecond: 0, shops: 0 }),
    shadow: new RecentSampler({ perSecond: 0, shops: 0 }),
    metrics,
    logger: createLogger('test', 'silent'),
    live: () => true,
  });
  server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

it('refuses an unsigned body nested past 8 levels before parsing it', async () => {
  const deep = `{"rate":{"items":[${'['.repeat(50_000)}${']'.repeat(50_000)}]}}`;
  const res = await call(deep, false);
  expect(res).toMatchObject({ status: 400 });
  expect(JSON.parse(res.text)).toEqual({ error: 'The request body nests too deeply.' });
  // Shopify's own shape, 5 deep with an item's properties, still passes.
  const shaped = JSON.parse(body) as { rate: { items: Record<string, unknown>[] } };
  shaped.rate.items[0]!.properties = { engraving: 'A' };
  expect((await call(JSON.stringify(shaped), false)).status).toBe(200);
  await countedSince();
});

it('counts unsigned callbacks on the shop’s budget until Shopify is seen signing for the key', async () => {
  for (let i = 0; i < UNSIGNED_BUDGET + 2; i++) expect((await call(body, false)).status).toBe(200);
  expect(await countedSince()).toBe(UNSIGNED_BUDGET + 2);
});

it('then answers unsigned ones on their own small budget, outside the shop’s counts', async () => {
  expect((await call(body, true)).status).toBe(200);
  expect(await countedSince()).toBe(1);
  const unsigned = [];
  for (let i = 0; i < UNSIGNED_BUDGET + 2; i++) unsigned.push(await call(body, false));
  expect(unsigned.slice(0, UNSIGNED_BUDGET).map((r) => r.status)).toEqual(
    Array(UNSIGNED_BUDGET).fill(200),
  );
  expect(JSON.parse(unsigned[0]!.text).rates[0].total_price).toBe('500');
  expect(unsigned.slice(UNSIGNED_BUDGET).map((r) => r.status)).toEqual([429, 429]);
  expect(Number(unsigned[UNSIGNED_BUDGET]!.retryAfter)).toBeGreaterThan(0);
  expect(await countedSince()).toBe(0);
  // Shopify's own callbacks keep their budget and their counts.
  for (let i = 0; i < 5; i++) expect((await call(body, true)).status).toBe(200);
  expect(await countedSince()).toBe(5);
});

it('scans a signed body too once it is larger than a usual cart, and refuses one nested past 8 levels', async () => {
  const deep = `{"rate":{"items":[${'['.repeat(50_000)}${']'.repeat(50_000)}]}}`;
  const res = await call(deep, true);
  expect(res).toMatchObject({ status: 400 });
  expect(JSON.parse(res.text)).toEqual({ error: 'The request body nests too deeply.' });
  // Under 8 KB a signed body goes straight to the parser: refused there, for its shape.
  const small = `{"rate":{"items":[${'['.repeat(20)}${']'.repeat(20)}]}}`;
  const parsed = await call(small, true);
  expect(parsed.status).toBe(400);
  expect(JSON.parse(parsed.text).error).not.toBe('The request body nests too deeply.');
  expect(await countedSince()).toBe(0);
});
