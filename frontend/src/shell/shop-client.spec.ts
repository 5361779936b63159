import { shopApiClient } from './shop-client';

describe("a shop's api client", () => {
  it('is made once a shop, so the screens and the web vitals report share its session token', () => {
    const a = shopApiClient('a.myshopify.com');
    expect(shopApiClient('a.myshopify.com')).toBe(a);
    expect(shopApiClient('b.myshopify.com')).not.toBe(a);
  });
});
