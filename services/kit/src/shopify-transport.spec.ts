import {
  SHOP_DOMAIN_HEADER,
  shopifyAdminUrl,
  shopifyTransport,
  type FetchFunction,
} from './shopify-transport';

function recorder() {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch: FetchFunction = async (input, init = {}) => {
    calls.push({ url: input.toString(), init });
    return new Response('{}');
  };
  return { calls, fetch };
}

describe('shopifyTransport', () => {
  it('sends https://<shop>/... to the origin with the shop in a header', async () => {
    const { calls, fetch } = recorder();
    const transport = shopifyTransport({ origin: 'http://127.0.0.1:4567', fetch });
    await transport('https://a-shop.myshopify.com/admin/api/2026-10/graphql.json?x=1', {
      method: 'POST',
      body: '{"query":"{ shop { id } }"}',
      headers: { 'X-Shopify-Access-Token': 'shpat_1' },
    });
    expect(calls[0]!.url).toBe('http://127.0.0.1:4567/admin/api/2026-10/graphql.json?x=1');
    const headers = new Headers(calls[0]!.init.headers);
    expect(headers.get(SHOP_DOMAIN_HEADER)).toBe('a-shop.myshopify.com');
    expect(headers.get('x-shopify-access-token')).toBe('shpat_1');
    expect(calls[0]!.init.method).toBe('POST');
    expect(calls[0]!.init.body).toBe('{"query":"{ shop { id } }"}');
  });

  it('reads a Request object too', async () => {
    const { calls, fetch } = recorder();
    const transport = shopifyTransport({ origin: 'http://127.0.0.1:4567', fetch });
    await transport(
      new Request('https://b-shop.myshopify.com/admin/oauth/access_token', {
        method: 'POST',
        body: 'a=1',
      }),
    );
    expect(calls[0]!.url).toBe('http://127.0.0.1:4567/admin/oauth/access_token');
    expect(calls[0]!.init.body).toBe('a=1');
    expect(new Headers(calls[0]!.init.headers).get(SHOP_DOMAIN_HEADER)).toBe(
      'b-shop.myshopify.com',
    );
  });

  it('leaves the URL alone without an origin, but still bounds the call', async () => {
    const { calls, fetch } = recorder();
    await shopifyTransport({ fetch })('https://a-shop.myshopify.com/admin/oauth/access_token');
    expect(calls[0]!.url).toBe('https://a-shop.myshopify.com/admin/oauth/access_token');
    expect(calls[0]!.init.signal).toBeInstanceOf(AbortSignal);
  });

  it('aborts a call that takes longer than the time limit', async () => {
    const hanging: FetchFunction = (_input, init) =>
      new Promise((_resolve, reject) =>
        init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)),
      );
    const transport = shopifyTransport({ fetch: hanging, timeoutMs: 50 });
    await expect(transport('https://a-shop.myshopify.com/')).rejects.toThrow(/timeout|abort/i);
  });
});

describe('shopifyAdminUrl', () => {
  it('is the shop admin without an origin', () => {
    expect(shopifyAdminUrl('a-shop.myshopify.com', '/admin/oauth/authorize').toString()).toBe(
      'https://a-shop.myshopify.com/admin/oauth/authorize',
    );
  });

  it('carries the shop as a parameter with an origin', () => {
    expect(
      shopifyAdminUrl(
        'a-shop.myshopify.com',
        '/admin/oauth/authorize',
        'http://127.0.0.1:1',
      ).toString(),
    ).toBe('http://127.0.0.1:1/admin/oauth/authorize?shop=a-shop.myshopify.com');
  });
});
