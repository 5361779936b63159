import type { ShippingZonesReply } from '@ratesmith/contracts';
import { sentFilter } from '@ratesmith/contracts/testing';
import { carrierRateRequest } from '@ratesmith/shopify-double';
import { startStack, until, type Stack } from './harness';

/**
 * Where checkout asks Ratesmith (Admin API 2026-10: a carrier service is
 * asked only in the zones it takes part in), end to end: the gateway, the
 * auth service and the Shopify double's delivery profiles and checkout. An
 * install adds Ratesmith to no zone; the merchant's POST does, and takes it
 * out again.
 */
let stack: Stack;
beforeAll(async () => {
  // Admin loads do not re-check the carrier service here: what changes is the tests' doing.
  stack = await startStack({}, { CARRIER_LOAD_CHECK_INTERVAL_MS: '3600000' });
}, 60_000);
afterAll(() => stack?.stop());

const SHOP = 'zones-a.myshopify.com';
const OTHER = 'zones-b.myshopify.com';

async function zones(shop: string) {
  const res = await stack.api('/api/shipping-zones', { token: stack.token(shop) });
  expect(res.status).toBe(200);
  return res.body as ShippingZonesReply;
}
const post = (shop: string, json: unknown) =>
  stack.api('/api/shipping-zones', { method: 'POST', token: stack.token(shop), json });
const carrier = async (shop: string) => {
  const res = await stack.api('/api/carrier-service', { token: stack.token(shop) });
  expect(res.status).toBe(200);
  return res.body.carrier_service as { state: string; zones: unknown };
};
const flat = (reply: ShippingZonesReply) => reply.profiles.flatMap((p) => p.zones);
const asking = (reply: ShippingZonesReply) =>
  Object.fromEntries(flat(reply).map((z) => [z.name, z.ratesmith]));
/** The rate answers of the carrier services Shopify asked for a cart shipped to `country`. */
const checkout = (shop: string, country: string, province?: string) =>
  stack.shopify.checkout(
    shop,
    carrierRateRequest({ destination: { country, province: province ?? '', postal_code: '' } }),
  );
const updates = (shop: string) =>
  stack.shopify.graphql.operations.filter(
    (o) => o.shop === shop && o.fields.includes('deliveryProfileUpdate'),
  ).length;

describe('shipping zones', () => {
  let general: string[] = [];
  let canada = '';

  it('after install: no zone asks Ratesmith, nothing confirmed, and checkout does not ask it', async () => {
    const first = await zones(SHOP);
    expect(first).toMatchObject({ status: true, confirmed: false });
    expect(first.profiles).toHaveLength(1);
    const [profile] = first.profiles;
    expect(profile).toMatchObject({ name: expect.any(String), default: true });
    expect(profile!.zones.map((z) => z.name)).toEqual([
      'Domestic',
      'Canada',
      'Europe',
      'Rest of world',
    ]);
    expect(flat(first).every((z) => !z.ratesmith)).toBe(true);
    const ca = profile!.zones.find((z) => z.name === 'Canada')!;
    expect(ca.id).toMatch(/^gid:\/\/shopify\/DeliveryZone\/\d+$/);
    expect(ca.countries).toEqual([
      expect.objectContaining({ code: 'CA', rest_of_world: false, provinces: expect.any(Array) }),
    ]);
    expect(profile!.zones.find((z) => z.name === 'Rest of world')!.countries).toEqual([
      { code: '', rest_of_world: true, provinces: [] },
    ]);
    general = profile!.zones.map((z) => z.id);
    canada = ca.id;

    expect(await carrier(SHOP)).toMatchObject({ state: 'active', zones: { asking: 0, total: 4 } });
    // Registered and active, yet in no zone: Shopify does not call it.
    expect(await checkout(SHOP, 'CA', 'ON')).toEqual([]);
    expect(updates(SHOP)).toBe(0);
  });

  it("POST adds Ratesmith to the General profile's zones: confirmed, counted, and checkout answers its rate", async () => {
    const res = await post(SHOP, { zone_ids: general, ratesmith: true });
    expect(res.status).toBe(200);
    const reply = res.body as ShippingZonesReply;
    expect(reply).toMatchObject({
      status: true,
      confirmed: true,
      message: 'Checkout now asks Ratesmith for rates in these 4 shipping zones.',
    });
    expect(flat(reply).every((z) => z.ratesmith)).toBe(true);
    // 4 zones of one location group: one update (at most 5 zones each).
    expect(updates(SHOP)).toBe(1);
    expect(await zones(SHOP)).toEqual({ ...reply, message: '' });
    expect((await carrier(SHOP)).zones).toEqual({ asking: 4, total: 4 });

    // Adding again changes nothing in Shopify.
    const again = await post(SHOP, { zone_ids: [...general, general[0]], ratesmith: true });
    expect(again.status).toBe(200);
    expect(updates(SHOP)).toBe(1);

    // A ruleset with a fee, saved and enabled as the admin does.
    const created = await stack.api('/api/global-rules', {
      method: 'POST',
      token: stack.token(SHOP),
      json: { name: 'Zones' },
    });
    const id = created.body.rule.id as string;
    const saved = await stack.api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      token: stack.token(SHOP),
      json: { rules: [sentFilter({ name: 'Cheap carts' })] },
    });
    expect(saved.status).toBe(200);
    expect(
      (await stack.api(`/api/global-rules/${id}/toggle`, { token: stack.token(SHOP) })).status,
    ).toBe(200);
    const answers = await until(
      () => checkout(SHOP, 'CA', 'ON'),
      (a) => ((a[0]?.body as { rates?: unknown[] })?.rates ?? []).length > 0,
      "Ratesmith's rate at checkout",
    );
    expect(answers).toEqual([
      {
        service: 'Ratesmith',
        status: 200,
        body: {
          rates: [expect.objectContaining({ service_name: 'Saver', total_price: '499' })],
        },
      },
    ]);
  });

  it('POST ratesmith: false takes it out of a zone: checkout there no longer asks it, elsewhere still does', async () => {
    const res = await post(SHOP, { zone_ids: [canada], ratesmith: false });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(
      'Checkout no longer asks Ratesmith for rates in this shipping zone.',
    );
    expect(asking(res.body as ShippingZonesReply)).toEqual({
      Domestic: true,
      Canada: false,
      Europe: true,
      'Rest of world': true,
    });
    expect(await checkout(SHOP, 'CA', 'ON')).toEqual([]);
    expect((await checkout(SHOP, 'US', 'NY'))[0]).toMatchObject({
      service: 'Ratesmith',
      status: 200,
    });
    expect((await carrier(SHOP)).zones).toEqual({ asking: 3, total: 4 });
    // Only Ratesmith's definitions went: Canada's own rates are still there.
    const rates = await stack.shopify.checkoutRates(SHOP, carrierRateRequest());
    expect(rates.zone?.name).toBe('Canada');
    expect(rates.nativeRates.length).toBeGreaterThan(0);
  });

  it('an empty list only records the choice', async () => {
    const shop = 'zones-empty.myshopify.com';
    expect((await zones(shop)).confirmed).toBe(false);
    const res = await post(shop, { zone_ids: [], ratesmith: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ confirmed: true, message: 'Saved.' });
    expect(flat(res.body as ShippingZonesReply).some((z) => z.ratesmith)).toBe(false);
    expect(updates(shop)).toBe(0);
    expect((await zones(shop)).confirmed).toBe(true);
  });

  it('a zone deleted in Shopify meanwhile is a 400 asking to reload; nothing changes', async () => {
    const res = await post(SHOP, {
      zone_ids: [canada, 'gid://shopify/DeliveryZone/99999999'],
      ratesmith: true,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: false,
      message: 'That shipping zone is no longer in Shopify. Reload the page.',
    });
    expect(asking(await zones(SHOP)).Canada).toBe(false);
  });

  it('without a registered carrier service: 409 saying to fix it first', async () => {
    const shop = 'zones-basic-plan.myshopify.com';
    stack.shopify.carrierServices.setCarrierCalculatedShipping(shop, false);
    const list = await zones(shop);
    expect((await carrier(shop)).state).toBe('needs_plan');
    const res = await post(shop, { zone_ids: [flat(list)[0]!.id], ratesmith: true });
    expect(res.status).toBe(409);
    expect(res.body.status).toBe(false);
    expect(res.body.message).toMatch(/fix the carrier service first/);
    expect(updates(shop)).toBe(0);
  });

  it.each([
    ['no body', {}],
    ['a bare number', { zone_ids: ['123'], ratesmith: true }],
    ['another resource', { zone_ids: ['gid://shopify/DeliveryProfile/1'], ratesmith: true }],
    ['ratesmith as text', { zone_ids: [], ratesmith: 'true' }],
    ['zone_ids not a list', { zone_ids: 'gid://shopify/DeliveryZone/1', ratesmith: true }],
    [
      '251 ids',
      {
        zone_ids: Array.from({ length: 251 }, (_, i) => `gid://shopify/DeliveryZone/${i}`),
        ratesmith: true,
      },
    ],
  ])('400 for %s', async (_name, json) => {
    const res = await post(SHOP, json);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message: 'The request is not valid.' });
  });

  it('401 without a session token', async () => {
    expect((await stack.api('/api/shipping-zones', { token: null })).status).toBe(401);
    const res = await stack.api('/api/shipping-zones', {
      method: 'POST',
      token: null,
      json: { zone_ids: [], ratesmith: true },
    });
    expect(res.status).toBe(401);
  });

  it('after app/scopes_update, the new token reads the zones again', async () => {
    const shop = 'zones-rescoped.myshopify.com';
    const coverageOf = async () =>
      (await stack.dbs.auth.db!.collection('shops').findOne({ shop }))?.zone_coverage as unknown;
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    await until(coverageOf, (c) => c !== null && c !== undefined, 'the coverage read at install');
    // The merchant adds Ratesmith in Shopify's own settings; nothing re-reads it yet.
    stack.shopify.deliveryProfiles.addCarrierToZones(shop, 'Ratesmith', 'all');
    expect(await coverageOf()).toEqual({ asking: 0, total: 4 });
    const exchanges = stack.shopify.oauth.stats.tokenExchanges;
    const hook = await stack.shopify.sendWebhook(
      `${stack.baseUrl}/webhooks/app/scopes_update`,
      'app/scopes_update',
      shop,
    );
    expect(hook.status).toBe(200);
    // The next admin load exchanges its session; the repair after every new token reads the zones.
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    expect(stack.shopify.oauth.stats.tokenExchanges).toBe(exchanges + 1);
    expect(
      await until(
        coverageOf,
        (c) => (c as { asking?: number })?.asking === 4,
        'the coverage read again',
      ),
    ).toEqual({ asking: 4, total: 4 });
  });

  it("shop A cannot touch shop B's zones", async () => {
    const b = await zones(OTHER);
    const bIds = flat(b).map((z) => z.id);
    const before = updates(OTHER);
    const res = await post(SHOP, { zone_ids: bIds, ratesmith: true });
    // B's ids are not in A's profiles (or, were they the same numbers, name A's own zones).
    expect([200, 400]).toContain(res.status);
    expect(JSON.stringify(res.body)).not.toContain(OTHER);
    expect(updates(OTHER)).toBe(before);
    expect(flat(await zones(OTHER)).every((z) => !z.ratesmith)).toBe(true);
    // Naming B is refused outright.
    expect(
      (await stack.api(`/api/shipping-zones?shop=${OTHER}`, { token: stack.token(SHOP) })).status,
    ).toBe(403);
    expect((await post(SHOP, { shop: OTHER, zone_ids: bIds, ratesmith: false })).status).toBe(403);
  });
});
