import { sentCondition } from '@ratesmith/contracts/testing';
import { rulesV1, type Snapshot } from '@ratesmith/contracts';
import { RpcClient } from '@ratesmith/kit';
import { SHOP_A, SHOP_B, startStack, type Stack } from './harness';

/** Editing a product rule's filters: GET /api/product-rules/{id}/rules and POST .../update/{id}. */

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

let nextProduct = 5000;
async function addProductRule(shop = SHOP_A, name = 'Mug'): Promise<string> {
  const productId = String(nextProduct++);
  const { added } = await rules.call('addProductRules', {
    shop,
    products: [
      { productId, name, image: '', variants: [{ id: '1', title: 'Default', price: '0' }] },
    ],
  });
  return added[0]!.id;
}

async function snapshotOf(shop: string): Promise<Snapshot | undefined> {
  const entry = await stack.kv.get(shop);
  return entry && entry.length ? (entry.json() as Snapshot) : undefined;
}

const condition = sentCondition;
const freeItem = (name = 'Free mug in the US') => ({
  name,
  raw_query: {
    condition: 'AND',
    rules: [
      condition('shipping_country', 'equal', 'us'),
      {
        type: 'group',
        condition: 'OR',
        rules: [
          condition('cart_price', 'greater_or_equal', '25'),
          condition('cart_product_count_of_x_price', 'equal', { count: 2, amount: '0' }),
        ],
      },
    ],
  },
  action_type: 0,
  post_processing_action_type: 0,
});
const perUnitFee = (name = 'Per unit') => ({
  name,
  raw_query: { condition: 'AND', rules: [condition('cart_retail_product_count', 'less_than', 3)] },
  action_type: 2,
  action_data: '1.50',
  post_processing_action_type: 1,
});

const save = (id: string, body: unknown, token?: string) =>
  stack.api(`/api/product-rules/update/${id}`, { method: 'POST', json: body, token });

describe('product rule filters', () => {
  it('reads a new product rule with no filters, in the ruleset editor shape', async () => {
    const id = await addProductRule(SHOP_A, 'Teapot');
    const { status, body } = await stack.api(`/api/product-rules/${id}/rules?shop=${SHOP_A}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      status: true,
      productRule: expect.objectContaining({
        id,
        name: 'Teapot',
        active: true,
        variants_count: 1,
        filters: [],
      }),
      rules: [],
    });
  });

  it('saves all filters and reads them back, nested groups and normalised values intact', async () => {
    const id = await addProductRule();
    const saved = await save(id, { rules: [freeItem(), perUnitFee()] });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ status: true, message: 'Rules saved.' });
    expect(saved.body.rules).toHaveLength(2);

    const { body } = await stack.api(`/api/product-rules/${id}/rules`);
    expect(body.rules.map((f: { name: string }) => f.name)).toEqual([
      'Free mug in the US',
      'Per unit',
    ]);
    expect(body.rules[0]).toMatchObject({
      action_type: 0,
      action_data: null,
      raw_query: {
        condition: 'AND',
        rules: [
          { type: 'condition', field: 'shipping_country', value: 'US' },
          {
            type: 'group',
            condition: 'OR',
            rules: [{ value: 25 }, { value: { count: 2, amount: 0 } }],
          },
        ],
      },
    });
    expect(body.rules[1]).toMatchObject({
      action_type: 2,
      action_data: 1.5,
      post_processing_action_type: 1,
    });
    // Ids the server gave keep working on the next save (the editor sends them back).
    const again = await save(id, { rules: body.rules });
    expect(again.body.rules.map((f: { id: string }) => f.id)).toEqual(
      body.rules.map((f: { id: string }) => f.id),
    );
    expect(body.productRule.filters).toHaveLength(2);
  });

  it('answers every validation error at once and leaves the saved filters as they were', async () => {
    const id = await addProductRule();
    await save(id, { rules: [freeItem('Kept')] });
    const bad = [
      freeItem('Fine'),
      { ...perUnitFee(''), raw_query: { condition: 'AND', rules: [] } },
      {
        ...perUnitFee('Holes'),
        action_data: '',
        raw_query: {
          condition: 'OR',
          rules: [
            condition('cart_price', 'equal', ''),
            { type: 'group', condition: 'AND', rules: [] },
          ],
        },
      },
    ];
    const { status, body } = await save(id, { rules: bad });
    expect(status).toBe(400);
    expect(body).toEqual({
      status: false,
      message: 'Please fix the following errors:',
      errors: [
        'Rule #2 needs a name',
        'Rule #3 has 2 incomplete condition(s)',
        'Rule #3 needs an amount',
      ],
    });
    const after = await stack.api(`/api/product-rules/${id}/rules`);
    expect(after.body.rules.map((f: { name: string }) => f.name)).toEqual(['Kept']);
  });

  it('allows 50 filters per product rule, not 51', async () => {
    const id = await addProductRule();
    const fifty = Array.from({ length: 50 }, (_, i) => perUnitFee(`F${i}`));
    expect((await save(id, { rules: fifty })).status).toBe(200);
    const res = await save(id, { rules: [...fifty, perUnitFee('One too many')] });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(['A product rule can have at most 50 rules.']);
    const after = await stack.api(`/api/product-rules/${id}/rules`);
    expect(after.body.rules).toHaveLength(50);
  });

  it('answers 400 for malformed filter JSON and a missing rules list', async () => {
    const id = await addProductRule();
    const wrongType = await save(id, { rules: [{ name: 'x', action_type: 'free' }] });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.message).toBe('The request is not valid.');
    expect(wrongType.body.errors[0]).toMatch(/^rules\.0\.action_type/);
    const noRules = await save(id, {});
    expect(noRules.status).toBe(400);
    expect(noRules.body.status).toBe(false);
  });

  it('answers 404 for unknown and malformed product rule ids', async () => {
    for (const id of ['0123456789abcdef01234567', 'not-an-id']) {
      expect((await stack.api(`/api/product-rules/${id}/rules`)).body).toEqual({
        status: false,
        message: 'Product rule not found.',
      });
      const res = await save(id, { rules: [freeItem()] });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Product rule not found.');
    }
  });

  it('republishes the shop snapshot with the saved filters', async () => {
    const id = await addProductRule(SHOP_B, 'Snapshot mug');
    const asB = stack.token(SHOP_B);
    const before = (await snapshotOf(SHOP_B))!;
    expect(before.productRules.find((r) => r.id === id)?.filters).toEqual([]);

    expect((await save(id, { rules: [freeItem(), perUnitFee()] }, asB)).status).toBe(200);
    const after = (await snapshotOf(SHOP_B))!;
    expect(after.version).toBeGreaterThan(before.version);
    const rule = after.productRules.find((r) => r.id === id);
    expect(rule?.filters.map((f) => [f.name, f.action_type, f.action_data])).toEqual([
      ['Free mug in the US', 0, null],
      ['Per unit', 2, 1.5],
    ]);

    // A refused save publishes nothing.
    await save(id, { rules: [perUnitFee('')] }, asB);
    expect((await snapshotOf(SHOP_B))!.version).toBe(after.version);
  });

  it("never shows or changes another shop's product rule filters", async () => {
    const id = await addProductRule(SHOP_A, 'Private');
    await save(id, { rules: [freeItem('Mine')] });
    const asB = stack.token(SHOP_B);

    const read = await stack.api(`/api/product-rules/${id}/rules`, { token: asB });
    expect(read.status).toBe(404);
    expect(JSON.stringify(read.body)).not.toContain('Mine');
    expect((await save(id, { rules: [freeItem('Theirs')] }, asB)).status).toBe(404);
    // A shop parameter naming another shop is refused outright.
    const spoof = await stack.api(`/api/product-rules/${id}/rules?shop=${SHOP_B}`);
    expect(spoof.status).toBe(403);

    const mine = await stack.api(`/api/product-rules/${id}/rules`);
    expect(mine.body.rules.map((f: { name: string }) => f.name)).toEqual(['Mine']);
    expect((await snapshotOf(SHOP_B))?.productRules.some((r) => r.id === id)).toBe(false);
  });

  it('needs a session token', async () => {
    const id = await addProductRule();
    expect((await stack.api(`/api/product-rules/${id}/rules`, { token: null })).status).toBe(401);
    expect((await save(id, { rules: [] }, '')).status).toBe(401);
  });
});
