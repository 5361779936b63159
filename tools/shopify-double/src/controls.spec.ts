import { startShopifyDouble, type ShopifyDouble } from './double';

/** The store control (PUT /__double/shops/<shop>/store), over HTTP against a running double. */

const SHOP = 'store-control.myshopify.com';
const OTHER = 'other-store.myshopify.com';

const SHOP_QUERY = '{ shop { currencyCode currencyFormats { moneyFormat } weightUnit } }';
const CREATE = `mutation C($input: DeliveryCarrierServiceCreateInput!) {
  carrierServiceCreate(input: $input) { carrierService { id active } userErrors { field message } }
}`;

let shopify: ShopifyDouble;
beforeAll(async () => {
  shopify = await startShopifyDouble({ apiKey: 'k', apiSecret: 's' });
});
afterAll(() => shopify.stop());

const putStore = (shop: string, body: unknown) =>
  fetch(`${shopify.url}/__double/shops/${shop}/store`, {
    method: 'PUT',
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** What the app's RatesmithShopCurrency query reads: the store currency and weight unit. */
async function shopSettings(shop: string) {
  const reply = await shopify.graphql.dispatch(shop, { query: SHOP_QUERY });
  return (reply.body as { data: { shop: unknown } }).data.shop;
}

/** carrierServiceCreate's answer for the shop: a service, or the plan's userError. */
async function createCarrier(shop: string) {
  const reply = await shopify.graphql.dispatch(shop, {
    query: CREATE,
    variables: {
      input: {
        name: 'Ratesmith',
        callbackUrl: 'https://x.test/c',
        active: true,
        supportsServiceDiscovery: true,
      },
    },
  });
  return (
    reply.body as {
      data: {
        carrierServiceCreate: { carrierService: unknown; userErrors: { message: string }[] };
      };
    }
  ).data.carrierServiceCreate;
}

describe('PUT /__double/shops/<shop>/store', () => {
  it('sets the store currency and weight unit of that shop only, and answers what it set', async () => {
    const put = await putStore(SHOP, { currency: 'EUR', weightUnit: 'POUNDS' });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ shop: SHOP, currency: 'EUR', weightUnit: 'POUNDS' });
    expect(await shopSettings(SHOP)).toEqual({
      currencyCode: 'EUR',
      currencyFormats: { moneyFormat: '€{{amount_with_comma_separator}}' },
      weightUnit: 'POUNDS',
    });
    expect(await shopSettings(OTHER)).toEqual({
      currencyCode: 'USD',
      currencyFormats: { moneyFormat: '${{amount}}' },
      weightUnit: 'KILOGRAMS',
    });

    // What a body leaves out stays as it was.
    expect((await putStore(SHOP, { weightUnit: 'GRAMS' })).status).toBe(200);
    expect(await shopSettings(SHOP)).toMatchObject({ currencyCode: 'EUR', weightUnit: 'GRAMS' });
    // A currency without a known format gets Shopify's "{{amount}} CODE".
    expect((await putStore(SHOP, { currency: 'CHF' })).status).toBe(200);
    expect(await shopSettings(SHOP)).toMatchObject({
      currencyCode: 'CHF',
      currencyFormats: { moneyFormat: '{{amount}} CHF' },
    });
  });

  it('takes carrier-calculated shipping off the plan (Shopify then refuses the carrier service) and back', async () => {
    const shop = 'no-carrier-plan.myshopify.com';
    const put = await putStore(shop, { carrierCalculatedShipping: false });
    expect(await put.json()).toEqual({ shop, carrierCalculatedShipping: false });
    const refused = await createCarrier(shop);
    expect(refused.carrierService).toBeNull();
    expect(refused.userErrors).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/Carrier Calculated Shipping/) }),
    ]);

    expect((await putStore(shop, { carrierCalculatedShipping: true })).status).toBe(200);
    const created = await createCarrier(shop);
    expect(created.userErrors).toEqual([]);
    expect(created.carrierService).toMatchObject({ active: true });
  });

  it.each([
    ['a lowercase currency', { currency: 'eur' }, /^currency: must be a 3-letter currency code/],
    ['a 4-letter currency', { currency: 'EURO' }, /^currency: /],
    ['an unknown weight unit', { weightUnit: 'STONES' }, /^weightUnit: /],
    ['a string for a boolean', { carrierCalculatedShipping: 'no' }, /^carrierCalculatedShipping: /],
    ['an unknown field', { currency: 'EUR', colour: 'red' }, /colour/],
    ['an empty time zone', { timezone: '' }, /^timezone: /],
    ['an array', [], /^body: /],
  ])(
    'refuses %s with 400 and the check that failed, changing nothing',
    async (_, body, message) => {
      const shop = 'refused-store.myshopify.com';
      const put = await putStore(shop, body);
      expect(put.status).toBe(400);
      expect(await put.json()).toEqual({ status: false, message: expect.stringMatching(message) });
      expect(await shopSettings(shop)).toMatchObject({
        currencyCode: 'USD',
        weightUnit: 'KILOGRAMS',
      });
    },
  );

  it('refuses a body that is not JSON, and the other methods', async () => {
    const notJson = await putStore(SHOP, '{currency: EUR');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({
      status: false,
      message: expect.stringMatching(/not JSON/),
    });
    const get = await fetch(`${shopify.url}/__double/shops/${SHOP}/store`);
    expect(get.status).toBe(405);
  });
});
