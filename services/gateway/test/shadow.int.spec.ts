import {
  authV1,
  type NativeRateOff,
  type ShadowReportReply,
  type ShadowVerdict,
} from '@ratesmith/contracts';
import { RpcClient } from '@ratesmith/kit';
import { SHOP_A, SHOP_B, startStack, until, type Stack } from './harness';
import { cart, doubleControl, profiles } from './native-profiles';

/**
 * Shadow mode end to end through the double: import the shop's rates, change
 * some of them in Shopify, run the imported ruleset in shadow for 500
 * simulated checkouts that ask Ratesmith (each shows exactly the native
 * rates: Ratesmith answers none), and the report's figures equal a count this test makes from
 * the native rates checkout showed and the imported rules as written. Then go live with
 * Shopify's own rates turned off (checkout shows Ratesmith's only), and Undo: the double's
 * profiles are back byte for byte, the shadow with its figures, the native rates at checkout.
 */

let stack: Stack;
const control = (path: string, method: string, json: unknown) =>
  doubleControl(stack, SHOP_A, path, method, json);

/** What the imported ruleset quotes (profiles() at 5.00, the import's test says so): cents or none. */
function importedQuote(country: string, province: string, price: number, grams: number) {
  if (country === 'US') {
    if (province !== 'CA' && province !== 'WA') return null;
    return price <= 4999 ? 500 : 0;
  }
  if (country === 'CA') return grams <= 453 ? 900 : 1900;
  return 3500;
}

/** A small deterministic generator (the carts are the same on every run). */
function* carts() {
  let seed = 37;
  // mulberry32: 32-bit integer steps only, so no float rounding cuts its period short.
  const next = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const places = [
    ['US', 'CA'],
    ['US', 'WA'],
    ['US', 'NY'],
    ['US', 'TX'],
    ['CA', 'ON'],
    ['JP', ''],
  ] as const;
  for (;;) {
    const [country, province] = places[next(places.length)]!;
    yield { country, province, price: 1000 + next(9000), grams: 100 + next(800) };
  }
}

beforeAll(async () => {
  stack = await startStack(
    {},
    {},
    {},
    {},
    { OUTCOME_FLUSH_MS: 200, SHADOW_SAMPLE_PER_SECOND: 1000 },
  );
  await control('delivery-profiles', 'PUT', profiles());
}, 60_000);
afterAll(() => stack?.stop());

it('shadows 500 checkouts (the report counts as the test does), goes live with Shopify’s rates off, undoes it byte for byte', async () => {
  const plan = await stack.api('/api/shipping-import');
  const imported = await stack.api('/api/shipping-import', {
    method: 'POST',
    json: { plan: plan.body.plan },
  });
  const rulesetId = imported.body.ruleset.id as string;

  // Shopify's rates move on: West coast also ships to New York at 6.00, international is 30.00.
  await control(
    'delivery-profiles',
    'PUT',
    profiles('6.00', { westCoast: ['CA', 'WA', 'NY'], international: '30.00' }),
  );
  await control('delivery-profiles/carrier', 'POST', { carrierService: 'Ratesmith', zones: 'all' });

  const unknown = await stack.api('/api/shadow', {
    method: 'POST',
    json: { ruleset_id: 'a'.repeat(24) },
  });
  expect(unknown.status).toBe(404);
  const started = await stack.api('/api/shadow', {
    method: 'POST',
    json: { ruleset_id: rulesetId },
  });
  expect(started.status).toBe(200);
  expect(started.body.shadow).toMatchObject({
    ruleset_id: rulesetId,
    ruleset_name: imported.body.ruleset.name,
  });
  expect(started.body.seen).toBe(0);

  // The engine has the shadow once a checkout's carrier answer is Ratesmith's empty one.
  const probe = cart('JP', null, 1000, 100);
  await until(
    () => control('checkout', 'POST', probe),
    (r) => r.carrierRates?.[0]?.body?.rates?.length === 0,
    'the rate engine to run the shadow',
  );
  // The probes counted too: start again from nothing.
  await stack.api('/api/shadow', { method: 'POST', json: { ruleset_id: rulesetId } });

  const counts: Record<ShadowVerdict, number> = {
    same: 0,
    cheaper: 0,
    dearer: 0,
    no_rate: 0,
    only_ratesmith: 0,
  };
  const differences: number[] = [];
  let notAsked = 0;
  let asked = 0;
  for (const c of carts()) {
    if (asked === 500) break;
    const reply = await control(
      'checkout',
      'POST',
      cart(c.country, c.province || null, c.price, c.grams),
    );
    // No zone holds Texas: checkout asks no carrier, so Ratesmith never sees that cart.
    if (reply.carrierRates.length === 0) {
      notAsked++;
      continue;
    }
    asked++;
    // Checkout shows exactly the native rates: every carrier asked answered none.
    for (const asked of reply.carrierRates) expect(asked.body).toEqual({ rates: [] });
    const native: number | null = reply.nativeRates.length
      ? Math.round(Number(reply.nativeRates[0].price.amount) * 100)
      : null;
    const ours = importedQuote(c.country, c.province, c.price, c.grams);
    if (ours === null) counts[native === null ? 'same' : 'no_rate']++;
    else if (native === null) counts.only_ratesmith++;
    else {
      counts[ours === native ? 'same' : ours < native ? 'cheaper' : 'dearer']++;
      differences.push(ours - native);
    }
  }
  expect(notAsked).toBeGreaterThan(0);
  // Every kind of cart came up.
  expect(Object.values(counts).filter((n) => n > 0).length).toBeGreaterThanOrEqual(4);

  const report = await until(
    () => stack.api('/api/shadow'),
    (r) => r.body.seen >= 500,
    'the shadow carts to be recorded',
    20_000,
  );
  expect(report.body.seen).toBe(500);
  expect(report.body.counts).toEqual(counts);
  const figures = report.body as ShadowReportReply;
  expect(figures.distribution.reduce((n, r) => n + r.count, 0)).toBe(differences.length);
  const largest = Math.max(...differences.map(Math.abs));
  expect(Math.abs(figures.largest[0]!.difference!)).toBe(largest);
  expect(figures.largest.length).toBe(Math.min(20, differences.filter((d) => d !== 0).length));
  // Figures only: the cart's country, never its province or postal code.
  const text = JSON.stringify(report.body);
  expect(text).not.toMatch(/"(province|postal_code|name)":"?(CA|WA|NY|10001|Mug)/);

  // Go live, with Shopify's own rates of the zones Ratesmith takes part in turned off.
  const { global_rule_id: enabledBefore } = (await stack.api('/api/global-rules')).body.shop;
  // While checkout does not call Ratesmith (as auth last saw it), no Shopify rate is offered
  // to turn off, and a list is refused: checkout would be left without rates.
  const shops = stack.dbs.auth.db!.collection('shops');
  const { carrier_state: carrierState } = (await shops.findOne({ shop: SHOP_A }))!;
  await shops.updateOne({ shop: SHOP_A }, { $set: { carrier_state: 'inactive' } });
  const notCalled = await stack.api('/api/shadow/go-live');
  expect(notCalled.body).toMatchObject({
    rates: [],
    message: expect.stringMatching(/^Checkout does not call Ratesmith/),
  });
  const refusedOff = await stack.api('/api/shadow/go-live', {
    method: 'POST',
    json: { turn_off_native: ['gid://shopify/DeliveryMethodDefinition/1'] },
  });
  expect(refusedOff.status).toBe(409);
  expect(refusedOff.body.message).toBe(notCalled.body.message);
  await shops.updateOne({ shop: SHOP_A }, { $set: { carrier_state: carrierState } });
  const profilesBefore = JSON.stringify(stack.shopify.deliveryProfiles.get(SHOP_A));
  const goLivePlan = await stack.api('/api/shadow/go-live');
  expect(goLivePlan.status).toBe(200);
  const offered = goLivePlan.body.rates as NativeRateOff[];
  // Every zone asks Ratesmith: every active merchant rate, never the inactive "Old rate" nor a carrier.
  expect(offered.map((r) => `${r.zone}: ${r.name}: ${r.price}`)).toEqual([
    'West coast: Standard: 6.00 USD, order up to 49.99 USD',
    'West coast: Free shipping: 0.00 USD, order from 50.00 USD',
    'West coast: Express: 15.00 USD',
    'Canada: Standard: 9.00 USD, weight up to 1 lb',
    'Canada: Standard: 19.00 USD, weight from 1 lb',
    'Rest of world: International: 30.00 USD',
  ]);
  const ids = offered.map((r) => r.id);
  await refusals(ids, profilesBefore);

  const live = await stack.api('/api/shadow/go-live', {
    method: 'POST',
    json: { turn_off_native: [...ids].reverse() },
  });
  expect(live.status).toBe(200);
  expect(live.body).toMatchObject({
    shadow: null,
    message: `“${imported.body.ruleset.name}” is live: checkout gets Ratesmith’s rates. 6 Shopify rates disabled.`,
    go_live: { ruleset_id: rulesetId, turned_off: offered },
  });
  expect((await stack.api('/api/global-rules')).body.shop.global_rule_id).toBe(rulesetId);
  const reply = await until(
    () => control('checkout', 'POST', cart('US', 'CA', 2500, 500)),
    (r) => r.carrierRates?.[0]?.body?.rates?.length === 1,
    'the rate engine to answer for real',
  );
  expect(reply.carrierRates[0].body.rates[0]).toMatchObject({
    service_name: 'Standard',
    total_price: '500',
  });
  // Checkout shows Ratesmith's rates and no native one, in every zone.
  expect(reply.nativeRates).toEqual([]);
  for (const c of [cart('CA', 'ON', 2500, 300), cart('JP', null, 2500, 300)]) {
    const elsewhere = await control('checkout', 'POST', c);
    expect(elsewhere.nativeRates).toEqual([]);
    expect(elsewhere.carrierRates[0].body.rates).toHaveLength(1);
  }
  // The activity log says so, as for a toggle.
  await until(
    () => stack.api('/api/activity'),
    (r) =>
      r.body.activity.some(
        (v: { subject_id: string; event: string; summary: string }) =>
          v.subject_id === rulesetId &&
          v.event === 'enable' &&
          v.summary === 'Enabled: went live from shadow mode',
      ),
    'the go-live in the activity log',
  );
  // A reload of the report still offers Undo.
  expect((await stack.api('/api/shadow')).body.go_live).toMatchObject({ turned_off: offered });

  // Undo: Shopify's rates back byte for byte, the shadow back with its figures.
  const undone = await stack.api('/api/shadow/undo-go-live', { method: 'POST' });
  expect(undone.status).toBe(200);
  expect(undone.body.message).toBe(
    `Undone: “${imported.body.ruleset.name}” runs in shadow again. 6 Shopify rates enabled again.`,
  );
  expect(JSON.stringify(stack.shopify.deliveryProfiles.get(SHOP_A))).toBe(profilesBefore);
  expect(undone.body).toMatchObject({
    shadow: { ruleset_id: rulesetId, started_at: report.body.shadow.started_at },
    seen: 500,
    counts,
    go_live: null,
  });
  expect((await stack.api('/api/global-rules')).body.shop.global_rule_id).toBe(enabledBefore);
  await until(
    () => stack.api('/api/activity'),
    (r) =>
      r.body.activity.some((v: { summary: string }) => / going live was undone$/.test(v.summary)),
    'the undo in the activity log',
  );
  const shadowAgain = await until(
    () => control('checkout', 'POST', cart('US', 'CA', 2500, 500)),
    (r) => r.carrierRates?.[0]?.body?.rates?.length === 0,
    'the rate engine to run the shadow again',
  );
  expect(shadowAgain.nativeRates.map((n: { name: string }) => n.name)).toEqual([
    'Standard',
    'Express',
  ]);
  expect((await stack.api('/api/shadow/undo-go-live', { method: 'POST' })).status).toBe(400);

  // Shopify refuses the turning off: Ratesmith is live, the answer says Shopify's rates still
  // show and that going live again or Undo is possible; going live again turns them off.
  stack.shopify.graphql.failNext(
    500,
    20,
    { errors: 'Internal error' },
    SHOP_A,
    /mutation RatesmithDeliveryProfileUpdate/,
  );
  const failed = await stack.api('/api/shadow/go-live', {
    method: 'POST',
    json: { turn_off_native: ids },
  });
  stack.shopify.graphql.failNext(500, 0);
  expect(failed.status).toBe(503);
  expect(failed.body.message).toMatch(
    /^“.+” is live, but Shopify’s own rates could not be disabled: checkout still shows them beside Ratesmith’s\. Go live again to retry disabling them, or Undo\.$/,
  );
  expect(JSON.stringify(stack.shopify.deliveryProfiles.get(SHOP_A))).toBe(profilesBefore);
  const halfLive = await stack.api('/api/shadow');
  expect(halfLive.body).toMatchObject({ shadow: null, go_live: { turned_off: offered } });
  expect((await stack.api('/api/global-rules')).body.shop.global_rule_id).toBe(rulesetId);
  const retried = await stack.api('/api/shadow/go-live', {
    method: 'POST',
    json: { turn_off_native: ids },
  });
  expect(retried.status).toBe(200);
  expect(retried.body.message).toBe(
    '6 Shopify rates disabled: checkout shows Ratesmith’s rates only.',
  );
  expect((await control('checkout', 'POST', cart('CA', 'ON', 2500, 300))).nativeRates).toEqual([]);
  expect((await stack.api('/api/shadow/undo-go-live', { method: 'POST' })).status).toBe(200);
  expect(JSON.stringify(stack.shopify.deliveryProfiles.get(SHOP_A))).toBe(profilesBefore);

  // Go live keeping Shopify's rates: both show at checkout.
  const keep = await stack.api('/api/shadow/go-live', { method: 'POST', json: {} });
  expect(keep.body).toMatchObject({
    shadow: null,
    message: `“${imported.body.ruleset.name}” is live: checkout gets Ratesmith’s rates.`,
    go_live: { turned_off: [] },
  });
  const both = await until(
    () => control('checkout', 'POST', cart('US', 'CA', 2500, 500)),
    (r) => r.carrierRates?.[0]?.body?.rates?.length === 1,
    'the rate engine to answer for real',
  );
  expect(both.nativeRates.map((n: { name: string }) => n.name)).toEqual(['Standard', 'Express']);
  expect(JSON.stringify(stack.shopify.deliveryProfiles.get(SHOP_A))).toBe(profilesBefore);
  const again = await stack.api('/api/shadow/go-live', { method: 'POST' });
  expect(again.status).toBe(400);

  // Undo after the ruleset enabled before going live was deleted: none is enabled (never an
  // id that no longer exists), the shadow is back.
  expect((await stack.api('/api/shadow/undo-go-live', { method: 'POST' })).status).toBe(200);
  const before = (
    await stack.api('/api/global-rules', { method: 'POST', json: { name: 'Before' } })
  ).body.rule.id as string;
  expect((await stack.api(`/api/global-rules/${before}/toggle`)).status).toBe(200);
  expect((await stack.api('/api/shadow/go-live', { method: 'POST', json: {} })).status).toBe(200);
  expect((await stack.api(`/api/global-rules/${before}`, { method: 'DELETE' })).status).toBe(200);
  const afterDelete = await stack.api('/api/shadow/undo-go-live', { method: 'POST' });
  expect(afterDelete.status).toBe(200);
  expect(afterDelete.body).toMatchObject({ shadow: { ruleset_id: rulesetId }, go_live: null });
  expect((await stack.api('/api/global-rules')).body.shop.global_rule_id).toBeFalsy();
}, 180_000);

/**
 * A confirmed list that is not the current one is refused and changes
 * nothing: one rate fewer (the list changed since), a carrier's participant
 * (Ratesmith's own), another shop's rate; the auth service itself refuses a
 * participant or another shop's rate whoever asks.
 */
async function refusals(ids: string[], profilesBefore: string) {
  const zones =
    stack.shopify.deliveryProfiles.profiles(SHOP_A)[0]!.profileLocationGroups[0]!
      .locationGroupZones;
  const participant = zones[0]!.methodDefinitions.find(
    (m) => m.rateProvider.__typename === 'DeliveryParticipant',
  )!.id;
  const otherShop =
    stack.shopify.deliveryProfiles.profiles(SHOP_B)[0]!.profileLocationGroups[0]!
      .locationGroupZones[0]!.methodDefinitions[0]!.id;
  for (const list of [ids.slice(1), [...ids.slice(1), participant], [...ids, otherShop]]) {
    const refused = await stack.api('/api/shadow/go-live', {
      method: 'POST',
      json: { turn_off_native: list },
    });
    expect({ status: refused.status, message: refused.body.message }).toEqual({
      status: 409,
      message: 'Your Shopify rates changed since you reviewed them: review the list again.',
    });
  }
  const malformed = await stack.api('/api/shadow/go-live', {
    method: 'POST',
    json: { turn_off_native: ['gid://shopify/DeliveryZone/1'] },
  });
  expect(malformed.status).toBe(400);
  const auth = new RpcClient(stack.nc, authV1.AuthService, {
    timeoutMs: 10_000,
    subjectPrefix: stack.servers.subjectPrefix,
    displayName: 'auth',
  });
  for (const id of [participant, otherShop])
    await expect(
      auth.call('setNativeRatesActive', {
        shop: SHOP_A,
        methodDefinitionIds: [ids[0]!, id],
        active: false,
      }),
    ).rejects.toMatchObject({ kind: 'invalid_data', message: expect.stringMatching(/not one of/) });
  expect(JSON.stringify(stack.shopify.deliveryProfiles.get(SHOP_A))).toBe(profilesBefore);
  expect((await stack.api('/api/shadow')).body.shadow).not.toBeNull();
}
