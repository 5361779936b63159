/**
 * Delivery profiles shaped like the double's control takes them
 * (tools/shopify-double/README.md), and carts for its checkout: the
 * import's and the shadow's end-to-end tests share them.
 */
import type { Stack } from './harness';

/** A call to one of the double's test controls for `shop` (its README); expects 200. */
export async function doubleControl(
  stack: Stack,
  shop: string,
  path: string,
  method: string,
  json: unknown,
): Promise<any> {
  const res = await fetch(`${stack.shopify.url}/__double/shops/${shop}/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return res.json();
}

const money = (amount: string) => ({ amount, currencyCode: 'USD' });
const price = (operator: string, amount: string) => ({
  field: 'TOTAL_PRICE',
  operator,
  conditionCriteria: { __typename: 'MoneyV2', ...money(amount) },
});
const weight = (operator: string, value: number, unit: string) => ({
  field: 'TOTAL_WEIGHT',
  operator,
  conditionCriteria: { __typename: 'Weight', value, unit },
});
const rate = (name: string, amount: string, methodConditions: unknown[] = [], more = {}) => ({
  name,
  active: true,
  description: null,
  rateProvider: { __typename: 'DeliveryRateDefinition', price: money(amount) },
  methodConditions,
  ...more,
});
const country = (code: string | null, provinces: string[] = []) => ({
  name: code ?? 'Rest of world',
  code: code ? { countryCode: code, restOfWorld: false } : { countryCode: null, restOfWorld: true },
  provinces: provinces.map((p) => ({ code: p, name: p })),
});
/** A General profile: West coast (US-CA, US-WA by default), Canada, rest of world. */
export const profiles = (
  standard = '5.00',
  { westCoast = ['CA', 'WA'], international = '35.00' } = {},
) => ({
  nodes: [
    {
      name: 'General profile',
      default: true,
      profileLocationGroups: [
        {
          locationGroup: {},
          locationGroupZones: [
            {
              zone: { name: 'West coast', countries: [country('US', westCoast)] },
              methodDefinitions: [
                rate('Standard', standard, [price('LESS_THAN_OR_EQUAL_TO', '49.99')]),
                rate('Free shipping', '0.00', [price('GREATER_THAN_OR_EQUAL_TO', '50.00')], {
                  description: 'Over 50.00',
                }),
                rate('Express', '15.00'),
                rate('Old rate', '1.00', [], { active: false }),
              ],
            },
            {
              zone: { name: 'Canada', countries: [country('CA')] },
              methodDefinitions: [
                rate('Standard', '9.00', [weight('LESS_THAN_OR_EQUAL_TO', 1, 'POUNDS')]),
                rate('Standard', '19.00', [weight('GREATER_THAN_OR_EQUAL_TO', 1, 'POUNDS')]),
              ],
            },
            {
              zone: { name: 'Rest of world', countries: [country(null)] },
              methodDefinitions: [rate('International', international)],
            },
          ],
        },
      ],
    },
  ],
});

export const cart = (country: string, province: string | null, price: number, grams: number) => ({
  rate: {
    origin: { country: 'US', postal_code: '94103', province: 'CA' },
    destination: { country, province, postal_code: '10001' },
    items: [{ name: 'Mug', quantity: 1, grams, price, requires_shipping: true, product_id: 1 }],
    currency: 'USD',
    locale: 'en',
  },
});
