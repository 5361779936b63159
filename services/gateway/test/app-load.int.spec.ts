import { hostParam } from '@ratesmith/shopify-double';
import { SHOP_A, startStack, type Stack } from './harness';

/**
 * Shopify opens the App URL with signed parameters. For a shop that has not
 * installed the app (a legacy or a purchase-email install, a link from the
 * Partner dashboard), that load must lead to the shop's authorize page.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack?.stop());

const NEW_SHOP = 'first-visit.myshopify.com';

function signedLoad(shop: string, extra: Record<string, string> = {}) {
  const params = stack.shopify.signedQuery({
    host: hostParam(shop),
    shop,
    timestamp: String(Math.floor(Date.now() / 1000)),
    ...extra,
  });
  return `${stack.baseUrl}/?${new URLSearchParams(params).toString()}`;
}

const get = (url: string) => fetch(url, { redirect: 'manual' });

describe('a signed app load of a shop that has not installed the app', () => {
  it('top-level: redirects to the shop authorize page with a fresh state', async () => {
    const res = await get(signedLoad(NEW_SHOP));
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get('location')!);
    expect(`${url.origin}${url.pathname}`).toBe(`${stack.shopify.url}/admin/oauth/authorize`);
    expect(url.searchParams.get('shop')).toBe(NEW_SHOP);
    expect(url.searchParams.get('redirect_uri')).toBe(`${stack.baseUrl}/auth/callback`);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('inside the admin frame: a page that opens the authorize URL in the top window', async () => {
    const res = await get(signedLoad(NEW_SHOP, { embedded: '1' }));
    expect(res.status).toBe(200);
    const html = await res.text();
    const target = /<meta name="ratesmith-redirect" content="([^"]+)">/.exec(html)?.[1];
    expect(target?.replace(/&#38;/g, '&')).toMatch(
      new RegExp(`^${stack.shopify.url}/admin/oauth/authorize\\?.*shop=${NEW_SHOP}`),
    );
    expect(html).toContain('<script src="/escape-frame.js"></script>');
    expect(html).toContain('https://cdn.shopify.com/shopifycloud/app-bridge.js');
    const script = await fetch(`${stack.baseUrl}/escape-frame.js`);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain("window.open(meta.getAttribute('content'), '_top')");
  });

  it('the whole install then works: authorize, callback, into the admin', async () => {
    const authorize = (await get(signedLoad(NEW_SHOP))).headers.get('location')!;
    const callback = (await get(authorize)).headers.get('location')!;
    const into = await get(callback);
    expect(into.status).toBe(302);
    expect(into.headers.get('location')).toBe(
      'https://admin.shopify.com/store/first-visit/apps/test-api-key',
    );
    // Installed now: the same signed load opens the app instead of asking again.
    expect((await get(signedLoad(NEW_SHOP))).status).toBe(200);
  });
});

describe('loads that are not a signed install request open the app', () => {
  beforeAll(async () => {
    expect((await stack.api('/api/global-rules', { token: stack.token(SHOP_A) })).status).toBe(200);
  });

  it.each([
    ['an installed shop', () => signedLoad(SHOP_A)],
    ['a bad signature', () => signedLoad(NEW_SHOP).replace(/hmac=[0-9a-f]{4}/, 'hmac=0000')],
    [
      'a link signed 120 s ago',
      () =>
        signedLoad('stale-visit.myshopify.com', {
          timestamp: String(Math.floor(Date.now() / 1000) - 120),
        }),
    ],
    ['no signature', () => `${stack.baseUrl}/?shop=another-visit.myshopify.com`],
  ])('%s', async (_label, url) => {
    const res = await get(url());
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
  });
});
