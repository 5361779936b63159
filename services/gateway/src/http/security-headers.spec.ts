import { frameAncestorsFor } from './security-headers';

describe('frameAncestorsFor', () => {
  it('allows only the asking shop and the admin to frame the app', () => {
    expect(frameAncestorsFor('Shop-A.myshopify.com')).toBe(
      'https://shop-a.myshopify.com https://admin.shopify.com',
    );
    expect(frameAncestorsFor('evil.com')).toBe("'none'");
    expect(frameAncestorsFor('a.myshopify.com https://evil.com')).toBe("'none'");
    expect(frameAncestorsFor(undefined)).toBe("'none'");
  });
});
