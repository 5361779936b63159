import { rulesV1, type Snapshot } from '@ratesmith/contracts';
import { sentCondition, sentFilter } from '@ratesmith/contracts/testing';
import { RpcClient } from '@ratesmith/kit';
import { SHOP_A, SHOP_B, startStack, type Stack } from './harness';

/**
 * POST /api/rate-preview with `draft.productRuleId`: a product rule's unsaved
 * filters quoted in place of its saved ones, the rest of the shop's rules as
 * published, without saving anything.
 */
let stack: Stack;
let rules: RpcClient<(typeof rulesV1.RulesService)['method']>;
beforeAll(async () => {
  stack = await startStack();
  rules = new RpcClient(stack.nc, rulesV1.RulesService, {
    timeoutMs: 3000,
    subjectPrefix: stack.servers.subjectPrefix,
    displayName: 'rules',
  });
});
afterAll(() => stack?.stop());

const PRODUCT = '7001';
const cart = (quantity: number) => ({
  destination: { country: 'US' },
  currency: 'EUR',
  items: [{ price: 1000, quantity, product_id: Number(PRODUCT), variant_id: 1 }],
});
const perUnit = (amount: string, name = 'Per mug') =>
  sentFilter({
    name,
    raw_query: { condition: 'AND', rules: [sentCondition('cart_price', 'greater_or_equal', '0')] },
    action_type: 2,
    action_data: amount,
  });
const preview = (json: unknown, token?: string) =>
  stack.api('/api/rate-preview', { method: 'POST', json, token });

async function snapshotHasRule(shop: string, id: string): Promise<boolean> {
  const entry = await stack.kv.get(shop);
  const snapshot = entry && entry.length ? (entry.json() as Snapshot) : undefined;
  return Boolean(snapshot?.productRules.some((rule) => rule.id === id));
}

describe('previewing a product rule’s draft', () => {
  it('quotes the draft in place of the saved filters, in the request’s currency, and saves nothing', async () => {
    // An install on the first call, then the rule (on from the start).
    expect((await stack.api('/api/product-rules')).status).toBe(200);
    const { added } = await rules.call('addProductRules', {
      shop: SHOP_A,
      products: [{ productId: PRODUCT, name: 'Mug', image: '', variants: [] }],
    });
    const id = added[0]!.id;
    const saved = await stack.api(`/api/product-rules/update/${id}`, {
      method: 'POST',
      json: { rules: [perUnit('1')] },
    });
    expect(saved.status).toBe(200);
    const deadline = Date.now() + 10_000;
    while (!(await snapshotHasRule(SHOP_A, id))) {
      if (Date.now() > deadline) throw new Error('the snapshot never had the rule');
      await new Promise((r) => setTimeout(r, 100));
    }

    const { status, body } = await preview({
      rate: cart(3),
      draft: { productRuleId: id, rules: [perUnit('2.50', 'Draft per mug')] },
    });
    expect(status).toBe(200);
    expect(body.rates).toEqual([expect.objectContaining({ total_price: '750', currency: 'EUR' })]);
    expect(body.trace.steps).toEqual([
      expect.objectContaining({
        scope: 'product',
        productRuleId: id,
        productId: PRODUCT,
        filterName: 'Draft per mug',
        matched: true,
        feeAfter: 750,
      }),
    ]);
    const stored = await stack.api(`/api/product-rules/${id}/rules`);
    expect(stored.body.rules.map((f: { name: string }) => f.name)).toEqual(['Per mug']);
  });

  it('names the draft in its problems, at product scope', async () => {
    const { added } = await rules.call('addProductRules', {
      shop: SHOP_A,
      products: [{ productId: '7002', name: 'Cup', image: '', variants: [] }],
    });
    const many = Array.from({ length: 51 }, () => perUnit('1'));
    const { status, body } = await preview({
      rate: cart(1),
      draft: { productRuleId: added[0]!.id, rules: many },
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({
      status: false,
      message: 'The draft rules cannot be previewed yet.',
      errors: ['The draft can have at most 50 rules.'],
    });
  });

  it("answers 404 for another shop's product rule", async () => {
    const { added } = await rules.call('addProductRules', {
      shop: SHOP_A,
      products: [{ productId: '7003', name: 'Bowl', image: '', variants: [] }],
    });
    const res = await preview(
      { rate: cart(1), draft: { productRuleId: added[0]!.id, rules: [perUnit('1')] } },
      stack.token(SHOP_B),
    );
    expect(res.status).toBe(404);
  });
});
