import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostParam } from '@ratesmith/shopify-double';
import { SHOP_A, startStack, until, type Stack } from './harness';

/**
 * Shopify opens the App URL (`/`) with signed parameters. Inside the admin
 * (`embedded=1`, an `id_token`), the app must open without a single browser
 * redirect, exchanging the `id_token` itself when the shop has no token yet
 * (managed install, reinstall, scope change). Outside the admin, a signed
 * load of a shop that has not installed the app leads to the shop's
 * authorize page; an open without any shop says how to reach the app.
 */
let stack: Stack;
const dist = mkdtempSync(join(tmpdir(), 'ratesmith-app-load-'));
const SHELL_MARK = '<div id="root"></div>';
beforeAll(async () => {
  // A built admin of one line, so the app shell is recognisable in answers.
  writeFileSync(
    join(dist, 'index.html'),
    `<!doctype html><html><head></head><body>${SHELL_MARK}</body></html>`,
  );
  stack = await startStack({ FRONTEND_DIST: dist });
  // Starting every service takes long on a loaded machine.
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  rmSync(dist, { recursive: true, force: true });
});

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

/**
 * The admin's load of the app: signed query with `embedded=1`, `host`,
 * `shop`, `timestamp` and an `id_token` signed like App Bridge's (the shop's
 * own unless `idToken` says otherwise; null: none).
 */
function adminLoad(shop: string, idToken: string | null = stack.token(shop)) {
  return signedLoad(shop, {
    embedded: '1',
    locale: 'en',
    ...(idToken === null ? {} : { id_token: idToken }),
  });
}

const get = (url: string) => fetch(url, { redirect: 'manual' });
const stats = () => ({ ...stack.shopify.oauth.stats });
const tokensOf = (shop: string) => stack.dbs.auth.db!.collection('tokens').countDocuments({ shop });
/**
 * The shop is installed (its record says so). A busy machine can finish the load's token
 * exchange after the shell answered, and app/scopes_update marks only an installed shop.
 */
const installed = (shop: string) =>
  until(
    () => stack.dbs.auth.db!.collection('shops').findOne({ shop }),
    (doc) => doc?.installed === true,
    `${shop} to be installed`,
  );
const hook = (topic: string, shop: string) =>
  stack.shopify.sendWebhook(`${stack.baseUrl}/webhooks/${topic}`, topic, shop);

/** Opens the app as the admin does: the shell at once, no redirect. */
async function expectShell(url: string): Promise<void> {
  const res = await get(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('location')).toBeNull();
  const html = await res.text();
  expect(html).toContain(SHELL_MARK);
  expect(html).toContain('<meta name="shopify-api-key" content="test-api-key" />');
}

/** The first open costs exactly one token exchange, no OAuth; the next open none. */
async function expectOneExchangeThenNone(shop: string): Promise<void> {
  const before = stats();
  await expectShell(adminLoad(shop));
  expect(stats()).toEqual({ ...before, tokenExchanges: before.tokenExchanges + 1 });
  expect(await tokensOf(shop)).toBe(1);
  await expectShell(adminLoad(shop));
  expect(stats()).toEqual({ ...before, tokenExchanges: before.tokenExchanges + 1 });
  // The shell's API calls work with no further exchange.
  expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
  expect(stack.shopify.oauth.stats.tokenExchanges).toBe(before.tokenExchanges + 1);
}

describe('inside the admin: the app opens without a redirect', () => {
  it('the first open after a managed install: the id_token is exchanged, the shell served', async () => {
    const shop = 'managed-first-open.myshopify.com';
    expect(await tokensOf(shop)).toBe(0);
    await expectOneExchangeThenNone(shop);
    const doc = await stack.dbs.auth.db!.collection('shops').findOne({ shop });
    expect(doc).toMatchObject({ installed: true, rate_key: expect.any(String) });
  });

  it('a reinstall after an uninstall', async () => {
    const shop = 'reinstalled-store.myshopify.com';
    await expectShell(adminLoad(shop));
    stack.shopify.uninstall(shop);
    expect((await hook('app/uninstalled', shop)).status).toBe(200);
    expect(await tokensOf(shop)).toBe(0);
    // The merchant installs again from the admin (Shopify-managed install).
    stack.shopify.oauth.managedInstall(shop);
    await expectOneExchangeThenNone(shop);
  });

  it('the open after an app/scopes_update webhook', async () => {
    const shop = 'rescoped-on-load.myshopify.com';
    await expectShell(adminLoad(shop));
    await installed(shop);
    expect((await hook('app/scopes_update', shop)).status).toBe(200);
    await expectOneExchangeThenNone(shop);
    const doc = await stack.dbs.auth.db!.collection('shops').findOne({ shop });
    expect(doc!.scopes_changed_at).toBeNull();
  });

  it('an id_token naming another shop is not exchanged (the shell still loads)', async () => {
    const before = stats();
    await expectShell(adminLoad(NEW_SHOP, stack.token(SHOP_A)));
    expect(stats()).toEqual(before);
    expect(await tokensOf(NEW_SHOP)).toBe(0);
  });

  it.each([
    ['no id_token', () => null],
    ['an id_token that does not verify', () => stack.token(NEW_SHOP).slice(0, -4) + 'AAAA'],
    [
      'an expired id_token',
      () => stack.token(NEW_SHOP, { exp: Math.floor(Date.now() / 1000) - 60 }),
    ],
    ['an id_token for another app', () => stack.token(NEW_SHOP, { aud: 'another-app' })],
    ['an oversized id_token', () => stack.token(NEW_SHOP, { pad: 'x'.repeat(2100) })],
  ])('%s: the shell, never OAuth, nothing exchanged', async (_label, idToken) => {
    const before = stats();
    await expectShell(adminLoad(NEW_SHOP, idToken()));
    expect(stats()).toEqual(before);
    expect(await tokensOf(NEW_SHOP)).toBe(0);
  });

  it('simultaneous first opens of one shop make one exchange', async () => {
    const shop = 'many-tabs.myshopify.com';
    const before = stack.shopify.oauth.stats.tokenExchanges;
    await Promise.all(Array.from({ length: 5 }, () => expectShell(adminLoad(shop))));
    expect(stack.shopify.oauth.stats.tokenExchanges).toBe(before + 1);
  });

  it('with the legacy install flow, a refused exchange still leads the top window to OAuth', async () => {
    const shop = 'legacy-open.myshopify.com';
    stack.shopify.oauth.setInstallFlow('legacy');
    try {
      const res = await get(adminLoad(shop));
      expect(res.status).toBe(200);
      const html = await res.text();
      const target = /<meta name="ratesmith-redirect" content="([^"]+)">/.exec(html)?.[1];
      expect(target?.replace(/&#38;/g, '&')).toMatch(
        new RegExp(`^${stack.shopify.url}/admin/oauth/authorize\\?.*shop=${shop}`),
      );
      expect(html).toContain('<script src="/escape-frame.js"></script>');
      expect(html).toContain('https://cdn.shopify.com/shopifycloud/app-bridge.js');
      const script = await fetch(`${stack.baseUrl}/escape-frame.js`);
      expect(script.headers.get('content-type')).toMatch(/javascript/);
      expect(await script.text()).toContain("window.open(meta.getAttribute('content'), '_top')");
    } finally {
      stack.shopify.oauth.setInstallFlow('managed');
    }
  });
});

describe('outside the admin: a signed load of a shop that has not installed the app', () => {
  it('redirects to the shop authorize page with a fresh state', async () => {
    const res = await get(signedLoad(NEW_SHOP));
    expect(res.status).toBe(302);
    const url = new URL(res.headers.get('location')!);
    expect(`${url.origin}${url.pathname}`).toBe(`${stack.shopify.url}/admin/oauth/authorize`);
    expect(url.searchParams.get('shop')).toBe(NEW_SHOP);
    expect(url.searchParams.get('redirect_uri')).toBe(`${stack.baseUrl}/auth/callback`);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
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
    await expectShell(signedLoad(NEW_SHOP));
  });

  it('after a scope change, one trip through OAuth settles it (no loop)', async () => {
    const shop = 'rescoped-top-level.myshopify.com';
    await expectShell(adminLoad(shop));
    await installed(shop);
    expect((await hook('app/scopes_update', shop)).status).toBe(200);
    const authorize = (await get(signedLoad(shop))).headers.get('location')!;
    expect(authorize).toContain('/admin/oauth/authorize');
    const callback = (await get(authorize)).headers.get('location')!;
    expect((await get(callback)).status).toBe(302);
    // The code grant's token carries the new scopes: the next opens go straight in.
    const before = stats();
    await expectShell(signedLoad(shop));
    await expectShell(adminLoad(shop));
    expect(stats()).toEqual(before);
  });
});

describe('loads that are not a signed install request open the app', () => {
  beforeAll(async () => {
    expect((await stack.api('/api/global-rules', { token: stack.token(SHOP_A) })).status).toBe(200);
  });

  it.each([
    ['an installed shop', () => signedLoad(SHOP_A)],
    [
      'a bad signature',
      () => signedLoad('bad-signature.myshopify.com').replace(/hmac=[0-9a-f]{4}/, 'hmac=0000'),
    ],
    [
      'a link signed 120 s ago',
      () =>
        signedLoad('stale-visit.myshopify.com', {
          timestamp: String(Math.floor(Date.now() / 1000) - 120),
        }),
    ],
    ['no signature', () => `${stack.baseUrl}/?shop=another-visit.myshopify.com`],
  ])('%s', async (_label, url) => {
    await expectShell(url());
  });
});

describe('the App URL opened outside the admin without a shop', () => {
  it('says how to open Ratesmith from the admin, links the install page, runs no script', async () => {
    const res = await get(`${stack.baseUrl}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    const html = await res.text();
    expect(html).not.toContain(SHELL_MARK);
    expect(html).toContain('<strong>Apps</strong>, then <strong>Ratesmith</strong>');
    expect(html).toContain('<a href="/install">');
    expect(html).not.toMatch(/<script/i);
    expect(res.headers.get('content-security-policy')).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});
