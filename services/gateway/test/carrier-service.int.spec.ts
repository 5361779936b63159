import { startStack, until, type Stack } from './harness';

/**
 * The carrier service as Shopify sees it: registered on install, its state
 * kept per shop and shown to the merchant, re-read by the daily sweep (every
 * 2 s here), "Check again" repairing it, and checkout (the double calling
 * every active carrier service, as Shopify does) reaching the rate engine.
 */
let stack: Stack;
beforeAll(async () => {
  // Admin loads never check here (1 h): what changes without a request is the sweep's doing.
  stack = await startStack(
    {},
    { CARRIER_CHECK_INTERVAL_MS: '2000', CARRIER_LOAD_CHECK_INTERVAL_MS: '3600000' },
  );
});
afterAll(() => stack?.stop());

const status = async (shop: string) => {
  const res = await stack.api('/api/carrier-service', { token: stack.token(shop) });
  expect(res.status).toBe(200);
  return res.body.carrier_service as {
    state: string;
    detail: string;
    checked_at: string | null;
    zones: { asking: number; total: number } | null;
  };
};
const checkAgain = async (shop: string) => {
  const res = await stack.api('/api/carrier-service/check', {
    method: 'POST',
    token: stack.token(shop),
    json: {},
  });
  expect(res.status).toBe(200);
  return res.body.carrier_service as { state: string; detail: string };
};
const shopDoc = (shop: string) => stack.dbs.auth.db!.collection('shops').findOne({ shop });
const install = async (shop: string) =>
  expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
/**
 * The merchant's step since Admin API 2026-10: the service takes part in every
 * zone of the shop (registering it adds it to none), so checkout asks it.
 */
const inEveryZone = async (shop: string) => {
  const list = await stack.api('/api/shipping-zones', { token: stack.token(shop) });
  const ids = (list.body.profiles as { zones: { id: string }[] }[]).flatMap((p) =>
    p.zones.map((z) => z.id),
  );
  const res = await stack.api('/api/shipping-zones', {
    method: 'POST',
    token: stack.token(shop),
    json: { zone_ids: ids, ratesmith: true },
  });
  expect(res.status).toBe(200);
};
/** Install reads the zones in the background: the coverage shows once that read is stored. */
const coverage = (shop: string) =>
  until(
    () => status(shop),
    (s) => s.zones !== null,
    'the zone coverage',
  ).then((s) => s.zones);

describe('carrier service status', () => {
  it('an installed shop is active and checkout reaches the rate engine with its key', async () => {
    const shop = 'plus-plan.myshopify.com';
    await install(shop);
    expect(await coverage(shop)).toEqual({ asking: 0, total: 4 });
    const current = await status(shop);
    expect(current).toEqual({
      state: 'active',
      detail: '',
      checked_at: expect.any(String),
      zones: { asking: 0, total: 4 },
    });
    // Registered, but in no zone yet: checkout does not ask it.
    expect(await stack.shopify.checkout(shop)).toEqual([]);
    await inEveryZone(shop);
    expect((await status(shop)).zones).toEqual({ asking: 4, total: 4 });
    const answers = await stack.shopify.checkout(shop);
    expect(answers).toEqual([{ service: 'Ratesmith', status: 200, body: { rates: [] } }]);
    // Shopify's callback lands on this shop's key: another key would be 404.
    const [service] = stack.shopify.carrierServices.list(shop);
    expect(service!.callbackUrl).toBe(
      `${stack.carrierUrl}/carrier/rates/${(await shopDoc(shop))!.rate_key}`,
    );
  });

  it('a plan without carrier-calculated shipping: needs_plan with Shopify’s reason; Check again registers it once the plan allows', async () => {
    const shop = 'basic-plan.myshopify.com';
    stack.shopify.carrierServices.setCarrierCalculatedShipping(shop, false);
    await install(shop); // the install stands
    const refused = await status(shop);
    expect(refused.state).toBe('needs_plan');
    expect(refused.detail).toMatch(/Carrier Calculated Shipping must be enabled/);
    expect(await stack.shopify.checkout(shop)).toEqual([]);

    // Still refused: Check again says so again.
    expect((await checkAgain(shop)).state).toBe('needs_plan');
    stack.shopify.carrierServices.setCarrierCalculatedShipping(shop, true);
    // Check again waits for the zones: counted in its answer.
    expect(await checkAgain(shop)).toEqual({
      state: 'active',
      detail: '',
      checked_at: expect.any(String),
      zones: { asking: 0, total: 4 },
    });
    expect(stack.shopify.carrierServices.list(shop)).toEqual([
      expect.objectContaining({ name: 'Ratesmith', active: true }),
    ]);
    await inEveryZone(shop);
    expect((await stack.shopify.checkout(shop))[0]!.status).toBe(200);
  });

  it('a bare 403 from Shopify reads as needs_plan too', async () => {
    const shop = 'forbidden-plan.myshopify.com';
    stack.shopify.carrierServices.setCarrierCalculatedShipping(shop, false, 'forbidden');
    await install(shop);
    expect((await status(shop)).state).toBe('needs_plan');
  });

  it('a plan downgrade: the daily check reports inactive without an admin load; Check again reactivates', async () => {
    const shop = 'downgraded.myshopify.com';
    await install(shop);
    expect((await status(shop)).state).toBe('active');
    await inEveryZone(shop);
    stack.shopify.carrierServices.setCarrierCalculatedShipping(shop, false);
    expect(await stack.shopify.checkout(shop)).toEqual([]);
    // No request of this shop reaches the gateway meanwhile: only the sweep can see it.
    // The sweep re-checks every shop of this file every 2 s, one at a time: on a loaded
    // machine a round takes a while, hence the generous bound (the barrier returns at once).
    await until(
      () => shopDoc(shop),
      (doc) => doc?.carrier_state === 'inactive',
      'the sweep to record the inactive service',
      45_000,
    );
    expect((await status(shop)).state).toBe('inactive');
    // Reactivating needs the plan: refused while it is missing, not fought over.
    expect((await checkAgain(shop)).state).toBe('needs_plan');
    stack.shopify.carrierServices.setCarrierCalculatedShipping(shop, true);
    expect((await checkAgain(shop)).state).toBe('active');
    expect(stack.shopify.carrierServices.list(shop)).toHaveLength(1);
    expect((await stack.shopify.checkout(shop))[0]!.status).toBe(200);
  });

  it('a merchant-deleted service is registered again by the next check', async () => {
    const shop = 'deleted-service.myshopify.com';
    await install(shop);
    const before = (await shopDoc(shop))!.carrier_service_id as string;
    stack.shopify.carrierServices.clear(shop);
    await until(
      () => shopDoc(shop),
      (doc) => !!doc?.carrier_service_id && doc.carrier_service_id !== before,
      'the sweep to register the service again',
      45_000,
    );
    expect(stack.shopify.carrierServices.list(shop)).toEqual([
      expect.objectContaining({ id: (await shopDoc(shop))!.carrier_service_id, active: true }),
    ]);
  });

  it('a stale stored id falls back to the service found by name, keeping one service', async () => {
    const shop = 'stale-id.myshopify.com';
    await install(shop);
    const [service] = stack.shopify.carrierServices.list(shop);
    await stack.dbs.auth
      .db!.collection('shops')
      .updateOne(
        { shop },
        { $set: { carrier_service_id: 'gid://shopify/DeliveryCarrierService/1' } },
      );
    expect((await checkAgain(shop)).state).toBe('active');
    expect((await shopDoc(shop))!.carrier_service_id).toBe(service!.id);
    expect(stack.shopify.carrierServices.list(shop)).toHaveLength(1);
  });

  it('an id Shopify cannot even parse falls back to creating the service', async () => {
    const shop = 'garbled-id.myshopify.com';
    await install(shop);
    stack.shopify.carrierServices.clear(shop);
    await stack.dbs.auth
      .db!.collection('shops')
      .updateOne({ shop }, { $set: { carrier_service_id: 'not-a-gid' } });
    expect((await checkAgain(shop)).state).toBe('active');
    const [created] = stack.shopify.carrierServices.list(shop);
    expect((await shopDoc(shop))!.carrier_service_id).toBe(created!.id);
  });

  it('Shopify failing is an error state with the reason, and the next check recovers', async () => {
    const shop = 'flaky-shopify.myshopify.com';
    await install(shop);
    stack.shopify.graphql.failNext(500, 1_000);
    const failed = await checkAgain(shop);
    expect(failed.state).toBe('error');
    expect(failed.detail).toMatch(/^Shopify could not be asked/);
    stack.shopify.graphql.failNext(500, 0);
    expect((await checkAgain(shop)).state).toBe('active');
  });

  it('a shop that is not installed gets no status', async () => {
    const res = await stack.api('/api/carrier-service', {
      token: stack.token('shop-x.myshopify.com'),
    });
    expect(res.status).toBe(401);
  });
});
