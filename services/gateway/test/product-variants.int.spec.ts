import type { DoubleProduct } from '@ratesmith/shopify-double';
import { sentCondition, sentFilter } from '@ratesmith/contracts/testing';
import { startStack, type Stack } from './harness';

/**
 * A product rule limited to some variants: picked in the picker's body
 * (`{id, variant_ids}`), checked against the product's variants in Shopify,
 * stored as variant_ids, and the rate engine runs it only for those variants.
 */
let stack: Stack;
const SHOP = 'variant-shop.myshopify.com';
const TEE: DoubleProduct = {
  id: 880_001,
  title: 'Tee',
  handle: 'tee',
  vendor: 'V',
  image: null,
  variants: [
    { id: 880_101, title: 'Small', price: '10.00' },
    { id: 880_102, title: 'Medium', price: '10.00' },
    { id: 880_103, title: 'Large', price: '12.00' },
  ],
};
const CAP: DoubleProduct = {
  ...TEE,
  id: 880_002,
  title: 'Cap',
  handle: 'cap',
  variants: [{ id: 880_201, title: 'Default Title', price: '5.00' }],
};
beforeAll(async () => {
  stack = await startStack();
  stack.shopify.products.setProducts(SHOP, [TEE, CAP]);
});
afterAll(() => stack?.stop());

const api = (path: string, json?: unknown) =>
  stack.api(path, { token: stack.token(SHOP), method: json ? 'POST' : 'GET', json });

describe('product rules limited to variants', () => {
  it('refuses a variant of another product, and a product picked with no variants', async () => {
    const foreign = await api('/api/product-rules/add-shopify-product', {
      products: [{ id: String(TEE.id), variant_ids: ['880201'] }],
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe("A picked variant is not one of Tee's. Nothing was added.");
    const none = await api('/api/product-rules/add-shopify-product', {
      products: [{ id: String(TEE.id), variant_ids: [] }],
    });
    expect(none.status).toBe(400);
    expect((await api('/api/product-rules')).body.products.data).toEqual([]);
  });

  it('stores the picked variants, every variant when all or none are picked, and quotes only them', async () => {
    const added = await api('/api/product-rules/add-shopify-product', {
      products: [
        {
          id: `gid://shopify/Product/${TEE.id}`,
          variant_ids: ['gid://shopify/ProductVariant/880101', 880_103],
        },
        { id: CAP.id, variant_ids: [880_201] },
      ],
    });
    expect(added.status).toBe(200);
    const rules = (await api('/api/product-rules')).body.products.data as {
      id: string;
      name: string;
      variant_ids: string[];
      variants_count: number;
    }[];
    const tee = rules.find((r) => r.name === 'Tee')!;
    expect(tee).toMatchObject({ variant_ids: ['880101', '880103'], variants_count: 3 });
    expect(rules.find((r) => r.name === 'Cap')).toMatchObject({ variant_ids: [] });

    // A fee per unit of the rule's own units, quoted with the product rule's saved filters.
    const perUnit = sentFilter({
      name: 'Per tee',
      raw_query: {
        condition: 'AND',
        rules: [sentCondition('cart_price', 'greater_or_equal', '0')],
      },
      action_type: 2,
      action_data: '1',
    });
    expect((await api(`/api/product-rules/update/${tee.id}`, { rules: [perUnit] })).status).toBe(
      200,
    );
    const quote = (variant: number) =>
      api('/api/rate-preview', {
        rate: {
          destination: { country: 'US' },
          currency: 'USD',
          items: [{ price: 1000, quantity: 2, product_id: TEE.id, variant_id: variant }],
        },
      });
    const deadline = Date.now() + 10_000;
    while ((await quote(880_101)).body.rates?.[0]?.total_price !== '200') {
      if (Date.now() > deadline) throw new Error('the rate engine never quoted the picked variant');
      await new Promise((r) => setTimeout(r, 100));
    }
    // Medium was not picked: the rule does not run for it, nothing matches.
    const medium = await quote(880_102);
    expect(medium.body.rates).toEqual([]);
    expect(medium.body.trace.steps).toEqual([]);
  });
});
