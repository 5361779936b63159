import { AppError } from '@ratesmith/kit';
import { parseInput } from '../../http/validate';
import { shippingZonesBody } from './schemas';

const ZONE = 'gid://shopify/DeliveryZone/123';
const parse = (body: unknown) => parseInput(shippingZonesBody, body);

describe('POST /api/shipping-zones body', () => {
  it('takes zone gids and a boolean, dropping unknown keys', () => {
    expect(parse({ zone_ids: [ZONE], ratesmith: true, shop_id: 'x' })).toEqual({
      zone_ids: [ZONE],
      ratesmith: true,
    });
    expect(parse({ zone_ids: [], ratesmith: false })).toEqual({ zone_ids: [], ratesmith: false });
    expect(parse({ zone_ids: Array(250).fill(ZONE), ratesmith: true }).zone_ids).toHaveLength(250);
  });

  it.each([
    ['no body', {}],
    ['no ratesmith', { zone_ids: [ZONE] }],
    ['ratesmith as text', { zone_ids: [ZONE], ratesmith: 'true' }],
    ['ratesmith as a number', { zone_ids: [ZONE], ratesmith: 1 }],
    ['zone_ids not a list', { zone_ids: ZONE, ratesmith: true }],
    ['a bare number', { zone_ids: ['123'], ratesmith: true }],
    ['another resource', { zone_ids: ['gid://shopify/DeliveryProfile/1'], ratesmith: true }],
    ['21 digits', { zone_ids: [`gid://shopify/DeliveryZone/${'1'.repeat(21)}`], ratesmith: true }],
    ['trailing text', { zone_ids: [`${ZONE}\n`], ratesmith: true }],
    ['a number in the list', { zone_ids: [123], ratesmith: true }],
    ['251 ids', { zone_ids: Array(251).fill(ZONE), ratesmith: true }],
  ])('refuses %s', (_name, body) => {
    expect(() => parse(body)).toThrow(AppError);
  });
});
