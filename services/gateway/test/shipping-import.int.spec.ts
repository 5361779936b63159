import { SHOP_A, startStack, until, type Stack } from './harness';
import { cart, doubleControl, profiles } from './native-profiles';

/**
 * "Import from Shopify" end to end: profiles loaded into the double through
 * its HTTP control, the plan (GET), Confirm (POST), then carts through the
 * double's checkout control, where checkout asks Ratesmith's signed carrier
 * callback: its rates equal the native rates the double works out.
 */

let stack: Stack;
const control = (path: string, method: string, json: unknown) =>
  doubleControl(stack, SHOP_A, path, method, json);
beforeAll(async () => {
  stack = await startStack();
  await control('delivery-profiles', 'PUT', profiles());
}, 60_000);
afterAll(() => stack?.stop());

describe('Import from Shopify', () => {
  let plan: string;

  it('plans in the merchant words, listing every rate it leaves out', async () => {
    const { status, body } = await stack.api('/api/shipping-import');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: true,
      message: 'Nothing was changed yet: confirm to import.',
      summary: '3 zones, 7 rates → 1 ruleset of 5 rules; 2 rates cannot be imported:',
      skipped: [
        {
          zone: 'West coast',
          rate: 'Express',
          reason:
            'checkout shows it next to “Standard” for some carts, and Ratesmith answers one rate a cart',
        },
        {
          zone: 'West coast',
          rate: 'Old rate',
          reason: 'it is disabled in Shopify, so checkout does not show it',
        },
      ],
    });
    expect(body.rules.map((r: { name: string; price: string }) => `${r.name} ${r.price}`)).toEqual([
      'West coast: Free shipping 0.00',
      'West coast: Standard 5.00',
      'Canada: Standard 9.00',
      'Canada: Standard 19.00',
      'Rest of world: International 35.00',
    ]);
    plan = body.plan;
  });

  it('writes one new ruleset, disabled, leaving the enabled one as it was', async () => {
    const current = await stack.api('/api/global-rules', {
      method: 'POST',
      json: { name: 'Current' },
    });
    const currentId = current.body.rule.id as string;
    expect((await stack.api(`/api/global-rules/${currentId}/toggle`)).body.status).toBe(true);

    const { status, body } = await stack.api('/api/shipping-import', {
      method: 'POST',
      json: { plan },
    });
    expect({ status, message: body.message }).toEqual({
      status: 200,
      message: expect.stringMatching(
        /^Imported as the ruleset “Imported from Shopify .*”, disabled/,
      ),
    });
    expect(body.ruleset.name).toMatch(/^Imported from Shopify \d{4}-\d{2}-\d{2}$/);
    const list = await stack.api('/api/global-rules');
    expect(list.body.shop.global_rule_id).toBe(currentId);
    const saved = await stack.api(`/api/global-rules/rules?globalRuleId=${body.ruleset.id}`);
    expect(saved.body.rules).toHaveLength(5);

    // A plan made before Shopify's rates changed is refused, and nothing is written.
    await control('delivery-profiles', 'PUT', profiles('6.00'));
    const stale = await stack.api('/api/shipping-import', { method: 'POST', json: { plan } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/changed since this plan was made/);
    expect((await stack.api('/api/global-rules')).body.globalRules).toHaveLength(2);
    await control('delivery-profiles', 'PUT', profiles());

    // The merchant enables it and lets checkout ask Ratesmith in every zone.
    expect((await stack.api(`/api/global-rules/${body.ruleset.id}/toggle`)).body.status).toBe(true);
    await control('delivery-profiles/carrier', 'POST', {
      carrierService: 'Ratesmith',
      zones: 'all',
    });
  });

  it("quotes at checkout, through the signed callback, what Shopify's rates show", async () => {
    const carts = [
      cart('US', 'CA', 4999, 500),
      cart('US', 'WA', 5000, 500),
      cart('US', 'NY', 2000, 500),
      cart('US', null, 2000, 500),
      cart('CA', 'ON', 1000, 453),
      cart('CA', 'QC', 1000, 454),
      cart('JP', null, 1000, 100),
    ];
    await until(
      () => control('checkout', 'POST', carts[0]),
      (r) => r.carrierRates?.[0]?.body?.rates?.length === 1,
      'the rate engine to quote the imported ruleset',
    );
    const seen: string[] = [];
    for (const c of carts) {
      const reply = await control('checkout', 'POST', c);
      const native = reply.nativeRates.map(
        (n: any) => `${n.name}|${Math.round(Number(n.price.amount) * 100)}|${n.description ?? ''}`,
      );
      // No zone (a US state no zone lists): checkout asks nobody, and shows no rate.
      const ratesmith = (reply.carrierRates[0]?.body.rates ?? []).map(
        (q: any) => `${q.service_name}|${q.total_price}|${q.description}`,
      );
      const { destination, items } = c.rate;
      const handled = native.filter((n: string) => !n.startsWith('Express|'));
      expect({ destination, items, ratesmith }).toEqual({ destination, items, ratesmith: handled });
      seen.push(...ratesmith);
    }
    expect(seen).toEqual([
      'Standard|500|',
      'Free shipping|0|Over 50.00',
      'Standard|900|',
      'Standard|1900|',
      'International|3500|',
    ]);
  });
});
