import { createServer, request as httpRequest, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fromBinary } from '@bufbuild/protobuf';
import { carrierCallbackPath, rateEngineV1 } from '@ratesmith/contracts';
import { createLogger } from '@ratesmith/kit';
import { and, cond, filter, item, requestTo, settings, snapshot } from '../../test/fixtures/cases';
import { NO_METRICS as metrics } from '../../test/fixtures/metrics';
import { carrierHandler } from '../carrier/server';
import { compileSnapshot, parseRateRequest, parseSnapshot, Quoter } from '../engine';
import { SnapshotStore } from '../snapshots/store';
import { plainBatch } from './testing';
import type { Batch } from './entries';
import { OutcomeRecorder } from './recorder';
import { RECENT_LIMITS, RecentSampler, traceRecent } from './recent';

const SHOP = 'recent.myshopify.com';
const KEY = 'recent-key-123456789012345';
const T0 = Date.UTC(2026, 10, 24, 12);

describe('the recent checkouts sampler', () => {
  it("takes at most the shop's setting of its callbacks a minute, then again the next minute", () => {
    const sampler = new RecentSampler();
    const taken = (at: number, perMinute: number) =>
      Array.from({ length: 20 }, (_, i) => sampler.take(SHOP, at + i * 2000, perMinute)).filter(
        Boolean,
      ).length;
    expect(taken(T0, 6)).toBe(6);
    expect(sampler.take(SHOP, T0 + 50_000, 6)).toBe(false);
    expect(taken(T0 + 60_000, 3)).toBe(3);
  });

  it('takes none of a shop that turned Recent checkouts off (its compiled limit is 0)', () => {
    const sampler = new RecentSampler();
    expect(sampler.take(SHOP, T0, 0)).toBe(false);
    const off = compileSnapshot(
      parseSnapshot({
        ...snapshot({ filters: [] }),
        settings: settings({ recent_checkouts_enabled: false }),
      }),
    );
    expect(off.recentPerMinute).toBe(0);
    expect(compileSnapshot(postcodeSnapshot()).recentPerMinute).toBe(6);
  });

  it('takes at most perSecond callbacks a second over all shops, however many shops call', () => {
    const sampler = new RecentSampler();
    const shops = Array.from({ length: 500 }, (_, i) => `s${i}.myshopify.com`);
    expect(shops.filter((shop) => sampler.take(shop, T0 + 10, 30)).length).toBe(
      RECENT_LIMITS.perSecond,
    );
    expect(shops.filter((shop) => sampler.take(shop, T0 + 1010, 30)).length).toBe(
      RECENT_LIMITS.perSecond,
    );
  });

  it('counts a bounded number of shops a minute', () => {
    const sampler = new RecentSampler({ perSecond: 1000, shops: 3 });
    const taken = ['a', 'b', 'c', 'd', 'e'].map((s) => sampler.take(s, T0, 1));
    expect(taken).toEqual([true, true, true, false, false]);
    expect(sampler.take('d', T0 + 60_000, 1)).toBe(true);
  });
});

const postcodeSnapshot = () =>
  parseSnapshot({
    ...snapshot({
      filters: [filter(and(cond('shipping_postal_code', 'equal', '90210-1234')), 1, 5)],
    }),
    shop: SHOP,
    version: 3,
    rateKey: KEY,
  });
const LA = { country: 'US', province: 'CA', postal_code: '90210-1234', city: 'Beverly Hills' };
const body = () => requestTo([item(1250, 2, { product_id: 7, variant_id: 8 })], LA);

describe('traceRecent', () => {
  it('keeps the figures, the rates and the trace, but no region or postal code', () => {
    const compiled = compileSnapshot(postcodeSnapshot());
    const request = parseRateRequest(body());
    // The preview's trace of the same cart compares the postal code: the recent one must not keep it.
    const full = new Quoter().quote(compiled, request, true);
    expect(full.trace!.steps[0]!.postalCode).toBe('902101234');
    const checkout = traceRecent(
      { shop: SHOP, compiled, request, rates: full.rates, at: T0 },
      1.234,
    )!;
    expect(checkout).toMatchObject({
      shop: SHOP,
      at: new Date(T0).toISOString(),
      country: 'US',
      currency: 'USD',
      lines: [{ productId: '7', variantId: '8', quantity: 2, price: 1250, grams: 0 }],
      rates: [{ totalPrice: full.rates[0]!.total_price }],
      latencyUs: 1234,
      snapshotVersion: 3n,
    });
    const trace = fromBinary(rateEngineV1.TraceSchema, checkout.trace as Uint8Array);
    expect(trace.steps).toHaveLength(1);
    expect(trace.steps[0]).toMatchObject({ matched: true, feeAfter: 500n });
    expect(trace.steps[0]!.postalCode).toBeUndefined();
    expect(trace.steps[0]!.region).toBeUndefined();
    expect(
      JSON.stringify(checkout, (_k, v: unknown) => (typeof v === 'bigint' ? 0 : v)),
    ).not.toMatch(/90210|Beverly/);
  });
});

describe('a sampled callback', () => {
  let server: Server;
  let recorder: OutcomeRecorder;
  const sent: Batch[] = [];
  /** The response being answered, and whether it was ended when each trace arrived. */
  let answering: ServerResponse | undefined;
  const endedWhenTraced: boolean[] = [];

  beforeAll(async () => {
    const store = new SnapshotStore({
      capacity: 10,
      source: async () => undefined,
      fetchTimeoutMs: 100,
      logger: createLogger('test', 'silent'),
      metrics,
    });
    store.apply(postcodeSnapshot(), 0);
    class Watching extends OutcomeRecorder {
      override addRecent(checkout: Parameters<OutcomeRecorder['addRecent']>[0]): void {
        endedWhenTraced.push(answering?.writableEnded ?? false);
        super.addRecent(checkout);
      }
    }
    recorder = new Watching({
      sink: async (batch) => void sent.push(plainBatch(batch)),
      logger: createLogger('test', 'silent'),
      flushMs: 60_000,
    });
    const handler = carrierHandler({
      store,
      secret: 'secret',
      hmacMode: 'monitor',
      ratePerKey: 0,
      unsignedRatePerKey: 0,
      bodyLimit: 100_000,
      maxItems: 100,
      quoter: new Quoter(),
      outcomes: recorder,
      filterAnalytics: true,
      recent: new RecentSampler(),
      shadow: new RecentSampler({ perSecond: 0, shops: 0 }),
      metrics,
      logger: createLogger('test', 'silent'),
      live: () => true,
    });
    server = createServer((req, res) => {
      answering = res;
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('is answered before its trace is computed, and the trace follows in the next batch', async () => {
    const { port } = server.address() as AddressInfo;
    const payload = JSON.stringify(body());
    const answered = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        { port, host: '127.0.0.1', method: 'POST', path: carrierCallbackPath(KEY) },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.text).rates[0].total_price).toBe('500');
    // The trace was computed once the answer had been written in full, never before.
    expect(endedWhenTraced).toEqual([true]);
    await new Promise((r) => setImmediate(r));
    await recorder.flush();
    const recent = sent.flatMap((b) => b.recent);
    expect(recent).toHaveLength(1);
    expect(recent[0]).toMatchObject({ shop: SHOP, country: 'US' });
    expect(recent[0]!.latencyUs).toBeGreaterThan(0);
    // The callback's quote (not the trace's second one) was counted per filter, once.
    const details = sent.flatMap((b) => b.details);
    expect(details).toHaveLength(1);
    expect(details[0]!.filters.length).toBeGreaterThan(0);
    expect(details[0]!.filters.every((f) => f.matched === 1)).toBe(true);
  });
});
