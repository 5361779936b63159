import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { carrierCallbackPath, type NativeLocationGroup } from '@ratesmith/contracts';
import { createLogger } from '@ratesmith/kit';
import { and, cond, filter, item, requestTo, snapshot } from '../../test/fixtures/cases';
import { NO_METRICS as metrics } from '../../test/fixtures/metrics';
import { carrierHandler } from '../carrier/server';
import { parseSnapshot, Quoter } from '../engine';
import { SnapshotStore } from '../snapshots/store';
import type { Batch } from './entries';
import { RecentSampler } from './recent';
import { OutcomeRecorder } from './recorder';
import { plainBatch } from './testing';

/**
 * Shadow mode through the callback: checkout gets no rate from Ratesmith,
 * and each signed callback is compared after its answer (the shadow
 * ruleset's quote beside the zone's native rates), keeping figures only.
 */
const SHOP = 'shadow.myshopify.com';
const KEY = 'shadow-key-123456789012345678';
const SECRET = 'the-app-secret';
const usd = (amount: string) => ({ amount, currencyCode: 'USD' });

/** A US zone (California only) with a flat rate and a free rate from 100.00. */
const NATIVE: NativeLocationGroup = {
  locationGroup: { id: 'gid://shopify/DeliveryLocationGroup/1' },
  locationGroupZones: [
    {
      zone: {
        id: 'gid://shopify/DeliveryZone/1',
        name: 'California',
        countries: [
          { code: { countryCode: 'US', restOfWorld: false }, provinces: [{ code: 'CA' }] },
        ],
      },
      methodDefinitions: [
        {
          id: 'm1',
          name: 'Standard',
          active: true,
          description: null,
          rateProvider: { __typename: 'DeliveryRateDefinition', price: usd('7.00') },
          methodConditions: [],
        },
        {
          id: 'm2',
          name: 'Free',
          active: true,
          description: null,
          rateProvider: { __typename: 'DeliveryRateDefinition', price: usd('0.00') },
          methodConditions: [
            {
              field: 'TOTAL_PRICE',
              operator: 'GREATER_THAN_OR_EQUAL_TO',
              conditionCriteria: { __typename: 'MoneyV2', ...usd('100.00') },
            },
          ],
        },
      ],
    },
  ],
};

let server: Server;
let recorder: OutcomeRecorder;
let port: number;
const sent: Batch[] = [];

async function call(body: unknown, signed: boolean) {
  const text = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signed)
    headers['x-shopify-hmac-sha256'] = createHmac('sha256', SECRET).update(text).digest('base64');
  const res = await fetch(`http://127.0.0.1:${port}${carrierCallbackPath(KEY)}`, {
    method: 'POST',
    headers,
    body: text,
  });
  return { status: res.status, text: await res.text() };
}

/** What the recorder sent since the last look, once the comparisons after the answers ran. */
async function sentSince(): Promise<Batch[]> {
  await new Promise((resolve) => setImmediate(resolve));
  await recorder.flush();
  return sent.splice(0);
}

beforeAll(async () => {
  const store = new SnapshotStore({
    capacity: 10,
    source: async () => undefined,
    fetchTimeoutMs: 100,
    logger: createLogger('test', 'silent'),
    metrics,
  });
  const shadowRules = [filter(and(cond('shipping_country', 'equal', 'US')), 1, 5)];
  store.apply(
    parseSnapshot({
      ...snapshot({ filters: [filter(and(cond('shipping_country', 'equal', 'US')), 1, 9)] }),
      shop: SHOP,
      version: 3,
      rateKey: KEY,
      shadow: {
        ruleset: { id: 'shadow-1', name: 'Imported', filters: shadowRules },
        native: NATIVE,
        startedAt: '2026-11-30T00:00:00.000Z',
      },
    }),
    0,
  );
  store.synced = true;
  recorder = new OutcomeRecorder({
    sink: async (batch) => void sent.push(plainBatch(batch)),
    logger: createLogger('test', 'silent'),
    flushMs: 60_000,
  });
  server = createServer(
    carrierHandler({
      store,
      secret: SECRET,
      hmacMode: 'verify-present',
      ratePerKey: 0,
      unsignedRatePerKey: 0,
      bodyLimit: 300_000,
      maxItems: 1000,
      quoter: new Quoter(),
      outcomes: recorder,
      filterAnalytics: true,
      recent: new RecentSampler(),
      shadow: new RecentSampler({ perSecond: 1000, shops: 10 }),
      metrics,
      logger: createLogger('test', 'silent'),
      live: () => true,
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const LA = {
  country: 'US',
  province: 'CA',
  postal_code: '90210',
  city: 'Beverly Hills',
  name: 'Jane Customer',
  address1: '1 Secret Lane',
  phone: '555-0100',
};

it('answers no rate and compares the shadow quote with the zone’s native rates, figures only', async () => {
  const res = await call(requestTo([item(12_000, 1, { grams: 500 })], LA), true);
  expect(res).toEqual({ status: 200, text: '{"rates":[]}' });
  const batches = await sentSince();
  const shadow = batches.flatMap((b) => b.shadow);
  expect(shadow).toHaveLength(1);
  expect(shadow[0]).toMatchObject({
    shop: SHOP,
    country: 'US',
    currency: 'USD',
    // The shadow ruleset's fee (5.00), not the enabled one's (9.00).
    quoted: [expect.objectContaining({ totalPrice: '500' })],
    // 120.00 gets both native rates, cheapest first.
    native: [
      { serviceName: 'Free', serviceCode: '', totalPrice: '0' },
      { serviceName: 'Standard', serviceCode: '', totalPrice: '700' },
    ],
    lines: [expect.objectContaining({ price: 12_000, quantity: 1, grams: 500 })],
    snapshotVersion: 3,
  });
  // The rule of recent checkouts: nothing beyond the country.
  const kept = JSON.stringify(shadow);
  for (const secret of ['90210', 'Beverly', 'Jane', 'Secret', '555-0100', 'US-CA', 'Item '])
    expect(kept).not.toContain(secret);
  // No outcome is counted: every cart would read as one left without a rate.
  expect(batches.flatMap((b) => b.counts)).toEqual([]);
});

it('compares a cart outside every native zone as one without a native rate', async () => {
  await call(requestTo([item(1000, 2)], { country: 'US', province: 'NY' }), true);
  const [compared] = (await sentSince()).flatMap((b) => b.shadow);
  expect(compared).toMatchObject({ quoted: [expect.objectContaining({ totalPrice: '500' })] });
  expect(compared!.native ?? []).toEqual([]);
});

it('compares no unsigned callback (only Shopify’s carts count)', async () => {
  const res = await call(requestTo([item(1000, 1)], LA), false);
  expect(res).toEqual({ status: 200, text: '{"rates":[]}' });
  expect((await sentSince()).flatMap((b) => b.shadow)).toEqual([]);
});
