import { createHmac } from 'node:crypto';
import { signQuery } from '@ratesmith/shopify-double';
import { verifyShopifyQuery } from './shopify-hmac';

const secret = 'hush';
const now = 1_800_000_000;
const signed = (params: Record<string, string>) => ({ ...params, hmac: signQuery(params, secret) });
const base = {
  shop: 'a-shop.myshopify.com',
  host: 'YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvYQ',
  timestamp: String(now),
};

describe('verifyShopifyQuery', () => {
  it('accepts a link Shopify signed', () => {
    expect(verifyShopifyQuery(signed(base), secret, now)).toBe(true);
  });

  it('matches the documented algorithm: sorted k=v pairs joined with &, hex', () => {
    const message = `host=${base.host}&shop=${base.shop}&timestamp=${base.timestamp}`;
    const hmac = createHmac('sha256', secret).update(message).digest('hex');
    expect(verifyShopifyQuery({ ...base, hmac }, secret, now)).toBe(true);
  });

  it('encodes spaces as %20 like Shopify', () => {
    expect(verifyShopifyQuery(signed({ ...base, locale: 'en US' }), secret, now)).toBe(true);
  });

  it.each([
    ['a changed parameter', { ...signed(base), shop: 'b-shop.myshopify.com' }, now],
    ['another secret', { ...base, hmac: signQuery(base, 'other') }, now],
    ['a non-hex hmac', { ...base, hmac: 'z'.repeat(64) }, now],
    ['a short hmac', { ...base, hmac: 'ab' }, now],
    ['no timestamp', signed({ shop: base.shop, host: base.host }), now],
    ['a stale timestamp', signed(base), now + 301],
    ['a timestamp from the future', signed(base), now - 61],
  ])('refuses %s', (_label, params, at) => {
    expect(verifyShopifyQuery(params as Record<string, string>, secret, at)).toBe(false);
  });
});
