import type { ShadowReportReply, ShadowVerdict } from '@ratesmith/contracts';
import { SHOP_A, startStack, until, type Stack } from './harness';
import { cart, doubleControl, profiles } from './native-profiles';

/**
 * Shadow mode end to end through the double: import the shop's rates, change
 * some of them in Shopify, run the imported ruleset in shadow for 500
 * simulated checkouts that ask Ratesmith (each shows exactly the native
 * rates: Ratesmith answers none), and the report's figures equal a count this test makes from
 * the native rates checkout showed and the imported rules as written.
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

it('shadows 500 checkouts: checkout shows only native rates, the report counts as the test does', async () => {
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

  // Go live: the shadow ruleset is enabled and answers at checkout, next to Shopify's own rates.
  const live = await stack.api('/api/shadow/go-live', { method: 'POST' });
  expect(live.body).toMatchObject({ shadow: null, message: expect.stringMatching(/is live/) });
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
  expect(reply.nativeRates.map((n: { name: string }) => n.name)).toEqual(['Standard', 'Express']);
  const again = await stack.api('/api/shadow/go-live', { method: 'POST' });
  expect(again.status).toBe(400);
}, 120_000);
