import { frameAncestorsFor } from './security-headers';
import { jsonDepthExceeds } from './validate';

describe('jsonDepthExceeds', () => {
  it('finds nesting beyond the limit without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonDepthExceeds(deep)).toBe(true);
    expect(jsonDepthExceeds({ a: { b: [1, 2, { c: 3 }] } }, 4)).toBe(false);
    expect(jsonDepthExceeds({ a: { b: [1, 2, { c: { d: 1 } }] } }, 4)).toBe(true);
  });
});

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
