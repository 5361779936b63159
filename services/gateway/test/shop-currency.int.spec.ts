import { shopCurrency } from '@ratesmith/shopify-double';
import { startStack, type Stack } from './harness';
import { settledDocuments } from './security/helpers';

/**
 * GET /api/shop: the store currency read from Shopify (the double answers
 * `shop { currencyCode currencyFormats { moneyFormat } }` as the Admin API
 * does) the first time, then kept with the shop.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const currencyQueries = (shop: string) =>
  stack.shopify.graphql.operations.filter(
    (op) => op.shop === shop && op.fields.join() === 'shop' && op.requestedQueryCost === 2,
  ).length;

describe("the shop's currency", () => {
  it('answers the shop of the token with its currency, read from Shopify once', async () => {
    const shop = 'euro-store.myshopify.com';
    stack.shopify.setCurrency(shop, shopCurrency('EUR'));
    stack.shopify.setStore(shop, { timezone: 'Europe/Paris' });
    // Installed first, its record settled: a first load also checks the carrier service after
    // answering, and FerretDB applies two updates of one document at once as read, then write
    // the whole document, so one can take back the other's fields (MongoDB applies each
    // atomically). The fresh clone of 30 November lost the currency so.
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    await settledDocuments(stack, shop);
    const first = await stack.api('/api/shop', { token: stack.token(shop) });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      status: true,
      shop: {
        shop,
        currency_code: 'EUR',
        money_format: '€{{amount_with_comma_separator}}',
        weight_unit: 'kg',
        // Delivery dates count in it (docs/rates.md, "Delivery dates").
        timezone: 'Europe/Paris',
      },
    });
    expect(currencyQueries(shop)).toBe(1);

    // Kept with the shop: a change in Shopify is not read again, and no query is sent.
    stack.shopify.setCurrency(shop, shopCurrency('GBP'));
    const again = await stack.api('/api/shop', { token: stack.token(shop) });
    expect(again.body.shop.currency_code).toBe('EUR');
    expect(currencyQueries(shop)).toBe(1);
    const doc = await stack.dbs.auth.db!.collection('shops').findOne({ shop });
    expect(doc).toMatchObject({
      currency_code: 'EUR',
      money_format: '€{{amount_with_comma_separator}}',
      weight_unit: 'KILOGRAMS',
      iana_timezone: 'Europe/Paris',
    });
  });

  it('is USD with "${{amount}}" for a shop whose currency was never changed', async () => {
    const shop = 'dollar-store.myshopify.com';
    const res = await stack.api('/api/shop', { token: stack.token(shop) });
    expect(res.body.shop).toEqual({
      shop,
      currency_code: 'USD',
      money_format: '${{amount}}',
      weight_unit: 'kg',
      timezone: 'UTC',
    });
  });

  it("gives the shop's default weight unit in the editor's units, read with the currency", async () => {
    const shop = 'pound-store.myshopify.com';
    stack.shopify.setWeightUnit(shop, 'POUNDS');
    const res = await stack.api('/api/shop', { token: stack.token(shop) });
    expect(res.body.shop.weight_unit).toBe('lb');
  });

  it('reads Shopify again for a shop that kept a currency from before the weight unit was read', async () => {
    const shop = 'older-store.myshopify.com';
    stack.shopify.setWeightUnit(shop, 'OUNCES');
    await stack.api('/api/shop', { token: stack.token(shop) });
    await stack.dbs.auth
      .db!.collection('shops')
      .updateOne({ shop }, { $set: { weight_unit: null } });
    const res = await stack.api('/api/shop', { token: stack.token(shop) });
    expect(res.body.shop.weight_unit).toBe('oz');
    expect(currencyQueries(shop)).toBe(2);
  });

  it('needs a session token', async () => {
    expect((await stack.api('/api/shop', { token: null })).status).toBe(401);
  });
});
