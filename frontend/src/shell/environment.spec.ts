import { demoHost, resolveShopContext, shopName, tokenSourceFor } from './environment';

describe('the shell finds its shop and host', () => {
  beforeEach(() => sessionStorage.clear());

  it('takes both from the query and stores them in the session', () => {
    const ctx = resolveShopContext('?shop=a.myshopify.com&host=aG9zdA', sessionStorage);
    expect(ctx).toEqual({ shop: 'a.myshopify.com', host: 'aG9zdA' });
    expect(resolveShopContext('', sessionStorage)).toEqual(ctx);
  });

  it('has nothing when neither the query nor the session has both', () => {
    expect(resolveShopContext('?shop=a.myshopify.com', sessionStorage)).toBeUndefined();
  });

  it('names the shop without its domain', () => {
    expect(shopName('my-store.myshopify.com')).toBe('my-store');
  });

  it("gives a demo shop the host the admin would: base64url of the store's admin path", () => {
    expect(demoHost('ratesmith-demo.myshopify.com')).toBe(
      'YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvcmF0ZXNtaXRoLWRlbW8',
    );
  });

  it('gets session tokens from App Bridge when the gateway put its meta tag in, else from the demo endpoint', () => {
    const page = document.implementation.createHTMLDocument();
    expect(tokenSourceFor('a.myshopify.com', page)).toEqual({
      kind: 'demo',
      shop: 'a.myshopify.com',
    });
    const meta = page.createElement('meta');
    meta.name = 'shopify-api-key';
    page.head.append(meta);
    expect(tokenSourceFor('a.myshopify.com', page)).toEqual({ kind: 'app-bridge' });
  });
});
