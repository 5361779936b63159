import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { DEMO_SHOP, launchBrowser, startOwnApp, type OwnApp } from './harness';

/**
 * S8: the admin may be framed only by the shop that asked and by
 * admin.shopify.com. The header is checked on every HTML route for two shops;
 * then Chromium frames the app from another loopback origin (a real second
 * server) and from intercepted https origins: only the shop's own origin
 * gets the app, every other framing page gets a blocked frame.
 */

let app: OwnApp;
let browser: Browser;
let framer: Server;
let framerUrl: string;

const OTHER_SHOP = 'other-store.myshopify.com';
const HTML_ROUTES = [
  '/',
  '/install',
  '/dashboard',
  '/global-rules',
  '/edit-global-rule/1',
  '/product-rules',
  '/edit-product-rule/1',
  '/settings',
  '/faq',
  '/no-such-page',
];

beforeAll(async () => {
  [app, browser] = await Promise.all([startOwnApp(), launchBrowser()]);
  // A page on another origin (another port of the loopback) that frames whatever ?src= names.
  framer = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    res.setHeader('content-type', 'text/html');
    res.end(framingPage(src));
  });
  await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
  framerUrl = `http://127.0.0.1:${(framer.address() as AddressInfo).port}`;
}, 150_000);

afterAll(async () => {
  await new Promise((resolve) => framer?.close(resolve));
  await browser?.close();
  await app?.stop();
});

const framingPage = (src: string) =>
  `<!doctype html><html><body><iframe id="app" src="${src.replace(/"/g, '&quot;')}" width="800" height="600"></iframe></body></html>`;

const csp = async (path: string) => {
  const res = await fetch(`${app.url}${path}`);
  expect(res.headers.get('content-type')).toMatch(/text\/html/);
  return res.headers.get('content-security-policy') ?? '';
};
const frameAncestors = (policy: string) =>
  policy
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('frame-ancestors'));

describe('S8: Content-Security-Policy frame-ancestors', () => {
  it.each(HTML_ROUTES)(
    'S8: %s names the asking shop and admin.shopify.com, different per shop',
    async (path) => {
      const a = frameAncestors(await csp(`${path}?shop=${DEMO_SHOP}&host=x`));
      const b = frameAncestors(await csp(`${path}?shop=${OTHER_SHOP}&host=x`));
      expect(a).toBe(`frame-ancestors https://${DEMO_SHOP} https://admin.shopify.com`);
      expect(b).toBe(`frame-ancestors https://${OTHER_SHOP} https://admin.shopify.com`);
      // No shop, or a malformed one: nobody may frame the page.
      for (const query of ['', '?shop=evil.com', `?shop=${DEMO_SHOP}.evil.com`, '?shop=a%20b'])
        expect(frameAncestors(await csp(`${path}${query}`))).toBe("frame-ancestors 'none'");
    },
  );
});

/**
 * Opens `framing` and says whether the app rendered inside its iframe (its
 * #root got children) or Chromium refused to frame it (a frame-ancestors
 * console error, or the frame left on Chromium's error page).
 */
async function framedAppRenders(page: Page, framing: string): Promise<boolean> {
  const refusals: string[] = [];
  page.on('console', (m) => {
    if (/frame-ancestors|Refused to frame/i.test(m.text())) refusals.push(m.text());
  });
  await page.goto(framing);
  const frame = await (await page.waitForSelector('#app')).contentFrame();
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (refusals.length > 0 || frame?.url().startsWith('chrome-error')) return false;
    if (await frame?.$('#root > *').catch(() => null)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the framed app neither rendered nor was refused within 20 s (${framing})`);
}

describe('S8: framing in Chromium', () => {
  it('S8: a page on another loopback origin cannot frame the app', async () => {
    const page = await browser.newPage();
    const src = `${app.url}/?shop=${DEMO_SHOP}&host=x`;
    expect(await framedAppRenders(page, `${framerUrl}/?src=${encodeURIComponent(src)}`)).toBe(
      false,
    );
    await page.close();
  });

  /**
   * https origins cannot be served here, so Chromium's requests to them are
   * answered by playwright: the framing page is ours, the framed app is the
   * real app's answer (its headers included) under an https URL.
   */
  async function throughHttps(page: Page, framingOrigin: string, shop: string) {
    const appOrigin = 'https://ratesmith-app.test';
    await page.route(`${framingOrigin}/**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: framingPage(`${appOrigin}/?shop=${shop}&host=x`),
      }),
    );
    await page.route(`${appOrigin}/**`, async (route) => {
      const url = new URL(route.request().url());
      const response = await route.fetch({ url: `${app.url}${url.pathname}${url.search}` });
      await route.fulfill({ response });
    });
    try {
      return await framedAppRenders(page, `${framingOrigin}/admin`);
    } finally {
      // The answer can come while the framed page still loads its chunks: their route.fetch
      // calls would fail once the page is closed, as errors of the test.
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    }
  }

  it("S8: the shop's own https origin can frame the app", async () => {
    const page = await browser.newPage();
    expect(await throughHttps(page, `https://${DEMO_SHOP}`, DEMO_SHOP)).toBe(true);
    await page.close();
  });

  it.each([
    ['another shop framing with the first shop named', `https://${OTHER_SHOP}`, DEMO_SHOP],
    ['an unrelated https origin', 'https://evil.example', DEMO_SHOP],
    ['the shop framing without naming itself', `https://${DEMO_SHOP}`, ''],
  ])('S8: %s is blocked', async (_name, origin, shop) => {
    const page = await browser.newPage();
    expect(await throughHttps(page, origin, shop)).toBe(false);
    await page.close();
  });
});
