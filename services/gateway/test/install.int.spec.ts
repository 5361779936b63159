import { authV1 } from '@ratesmith/contracts';
import { RpcClient } from '@ratesmith/kit';
import { NOT_INSTALLED, startStack, until, type Stack } from './harness';
import { settledDocuments } from './security/helpers';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({}, { RATE_ENGINE_URL: 'https://rates.example.com' });
});
afterAll(() => stack?.stop());

const post = (path: string, json: unknown) =>
  stack.api(path, { method: 'POST', token: null, json });
const count = (db: 'auth' | 'rules', collection: string, filter: Record<string, unknown> = {}) =>
  stack.dbs[db].db!.collection(collection).countDocuments(filter);

/** Follows one redirect by hand and answers its Location. */
async function location(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return res.headers.get('location')!;
}

/** install → authorize (auto-approved by the double) → the callback URL Shopify redirects to. */
async function authorize(shop: string): Promise<string> {
  const res = await post('/api/install', { shop, email: 'owner@example.com' });
  expect(res.status).toBe(200);
  return location(res.body.url);
}

describe('install through the gateway', () => {
  const shop = 'fresh-store.myshopify.com';

  it('install → authorize → callback → sealed token → carrier service → into the app', async () => {
    const res = await post('/api/install', { shop: `  ${shop} `, email: ' owner@example.com ' });
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${stack.shopify.url}/admin/oauth/authorize`);
    expect(url.searchParams.get('shop')).toBe(shop);
    expect(url.searchParams.get('client_id')).toBe('test-api-key');
    expect(url.searchParams.get('scope')).toBe('read_products,read_shipping,write_shipping');
    expect(url.searchParams.get('redirect_uri')).toBe(`${stack.baseUrl}/auth/callback`);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);

    const callback = await location(res.body.url);
    expect(callback.startsWith(`${stack.baseUrl}/auth/callback?`)).toBe(true);
    // Into the app inside the shop's admin, as the library builds it from the signed host.
    expect(await location(callback)).toBe(
      'https://admin.shopify.com/store/fresh-store/apps/test-api-key',
    );

    const [issued] = stack.shopify.oauth.accessTokensOf(shop);
    const stored = await stack.dbs.auth.db!.collection('tokens').findOne({ shop });
    expect(stored!.sealed).toEqual({
      kid: 'test',
      iv: expect.any(String),
      tag: expect.any(String),
      ciphertext: expect.any(String),
    });
    expect(JSON.stringify(stored)).not.toContain(issued);
    expect(stored!.expires_at).toBeInstanceOf(Date);
    const shopDoc = await stack.dbs.auth.db!.collection('shops').findOne({ shop });
    expect(shopDoc).toMatchObject({ installed: true, email: 'owner@example.com' });
    expect(shopDoc!.rate_key).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const services = stack.shopify.carrierServices.list(shop);
    expect(services).toEqual([
      expect.objectContaining({
        name: 'Ratesmith',
        callbackUrl: `https://rates.example.com/carrier/rates/${shopDoc!.rate_key}`,
        active: true,
        supportsServiceDiscovery: true,
      }),
    ]);
    expect(shopDoc!.carrier_service_id).toBe(services[0]!.id);
    const snapshot = await until(
      () => stack.kv.get(shop),
      (e) => !!e && (e.json() as { rateKey: string | null }).rateKey === shopDoc!.rate_key,
      'the snapshot with the rate key',
    );
    expect(snapshot).toBeTruthy();

    // The app works for the shop at once, without a token exchange.
    const exchanges = stack.shopify.oauth.stats.tokenExchanges;
    const list = await stack.api('/api/global-rules', { token: stack.token(shop) });
    expect(list.status).toBe(200);
    expect(stack.shopify.oauth.stats.tokenExchanges).toBe(exchanges);
  });

  it("the install form cannot change an installed shop's stored email", async () => {
    const res = await post('/api/install', { shop, email: 'intruder@example.net' });
    expect(res.status).toBe(200);
    const shopDoc = await stack.dbs.auth.db!.collection('shops').findOne({ shop });
    expect(shopDoc).toMatchObject({ installed: true, email: 'owner@example.com' });
  });

  it("a stranger's install form for a shop not yet installed writes nothing to the shop's record", async () => {
    const other = 'half-way-store.myshopify.com';
    const owner = await post('/api/install', { shop: other, email: 'owner@example.com' });
    const stranger = await post('/api/install', { shop: other, email: 'intruder@example.net' });
    expect([owner.status, stranger.status]).toEqual([200, 200]);
    // Half-way through installing: no shop record yet, whoever posted the form.
    expect(await count('auth', 'shops', { shop: other })).toBe(0);
    // The owner approves the app in Shopify: their form's email is the one kept.
    await location(await location(owner.body.url));
    const shopDoc = await stack.dbs.auth.db!.collection('shops').findOne({ shop: other });
    expect(shopDoc).toMatchObject({ installed: true, email: 'owner@example.com' });
    // The stranger's form, never approved, changed nothing; its state is spent only by approval.
    expect(await count('auth', 'shops', { email: 'intruder@example.net' })).toBe(0);
  });

  it('registers the carrier service once however often the shop installs', async () => {
    const callback = await authorize(shop);
    await location(callback);
    expect(stack.shopify.carrierServices.list(shop)).toHaveLength(1);
    expect(await count('auth', 'tokens', { shop })).toBe(1);
  });

  it('refuses a replayed callback, storing nothing', async () => {
    const other = 'replay-store.myshopify.com';
    const callback = await authorize(other);
    await location(callback);
    const sealed = await stack.dbs.auth.db!.collection('tokens').findOne({ shop: other });
    const res = await fetch(callback, { redirect: 'manual' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      status: false,
      message: expect.stringMatching(/expired or was already used/),
    });
    expect(await stack.dbs.auth.db!.collection('tokens').findOne({ shop: other })).toEqual(sealed);
  });

  it('refuses a state issued for another shop, storing nothing', async () => {
    const victim = 'victim-store.myshopify.com';
    const callback = new URL(await authorize('attacker-store.myshopify.com'));
    const forged = stack.shopify.signedQuery({
      code: 'whatever',
      host: callback.searchParams.get('host')!,
      shop: victim,
      state: callback.searchParams.get('state')!,
      timestamp: String(Math.floor(Date.now() / 1000)),
    });
    const res = await fetch(`${stack.baseUrl}/auth/callback?${new URLSearchParams(forged)}`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(401);
    expect(await count('auth', 'tokens', { shop: victim })).toBe(0);
    expect(await count('auth', 'shops', { shop: victim })).toBe(0);
  });

  it.each([
    ['a tampered HMAC', (q: URLSearchParams) => q.set('hmac', 'a'.repeat(64))],
    ['a changed code', (q: URLSearchParams) => q.set('code', 'other')],
    ['a stale timestamp', null],
  ])('refuses a callback with %s, storing nothing', async (_label, tamper) => {
    const shop2 = `tamper-${Math.random().toString(36).slice(2, 8)}.myshopify.com`;
    const callback = new URL(await authorize(shop2));
    const query = new URLSearchParams(callback.search);
    if (tamper) tamper(query);
    else {
      const params = Object.fromEntries(query);
      delete params.hmac;
      params.timestamp = String(Math.floor(Date.now() / 1000) - 3600);
      for (const [k, v] of Object.entries(stack.shopify.signedQuery(params))) query.set(k, v);
    }
    const res = await fetch(`${stack.baseUrl}/auth/callback?${query}`, { redirect: 'manual' });
    expect(res.status).toBe(401);
    expect(res.headers.get('location')).toBeNull();
    expect(await count('auth', 'tokens', { shop: shop2 })).toBe(0);
    expect(stack.shopify.carrierServices.list(shop2)).toEqual([]);
  });
});

describe('install page validation', () => {
  it.each([
    [{ shop: 'good.myshopify.com', email: '' }, 'Please provide a valid email.'],
    [{ shop: 'good.myshopify.com', email: '   ' }, 'Please provide a valid email.'],
    [{ shop: 'good.myshopify.com' }, 'Please provide a valid email.'],
    [{ shop: 'good.myshopify.com', email: 'owner@example' }, 'Please enter a valid email address.'],
    [
      { shop: 'good.myshopify.com', email: 'own er@example.com' },
      'Please enter a valid email address.',
    ],
    [{ shop: 'good.myshopify.com', email: 42 }, 'Please enter a valid email address.'],
    [{ shop: '', email: 'owner@example.com' }, 'Please provide your Shopify subdomain.'],
    [{ email: 'owner@example.com' }, 'Please provide your Shopify subdomain.'],
    [
      { shop: 'good.example.com', email: 'owner@example.com' },
      'Please enter a valid Shopify subdomain (e.g., your-store.myshopify.com)',
    ],
  ])('answers 400 for %j with the page message', async (body, message) => {
    const res = await post('/api/install', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: false, message });
  });

  const malformed = [
    'good.myshopify.com/admin',
    'good.myshopify.com:8443',
    'good.myshopify.com.evil.com',
    'evil.com',
    'Good.myshopify.com',
    'gööd.myshopify.com',
    'xn--gd-fkaa.myshopify.com/..',
    '..myshopify.com',
    'good..myshopify.com',
    '-good.myshopify.com',
    'https://good.myshopify.com',
  ];

  it.each(malformed)('refuses the shop %s on install, storing nothing', async (shop) => {
    const states = await count('auth', 'oauth_states');
    const res = await post('/api/install', { shop, email: 'owner@example.com' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'Please enter a valid Shopify subdomain (e.g., your-store.myshopify.com)',
    );
    expect(await count('auth', 'oauth_states')).toBe(states);
    expect(await count('auth', 'shops', { email: 'owner@example.com', shop })).toBe(0);
  });

  it.each(malformed)('answers 400 without a redirect to verify %s', async (shop) => {
    const res = await stack.api(`/api/verify?shop=${encodeURIComponent(shop)}`, {
      token: null,
      redirect: 'manual',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.body).toEqual({ status: false, message: expect.any(String) });
  });

  it('limits the OAuth states one shop can ask for (429 with Retry-After)', async () => {
    const path = '/api/verify?shop=busy-store.myshopify.com';
    const statuses = [];
    for (let i = 0; i < 21; i++) statuses.push((await stack.api(path, { token: null })).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    const last = await stack.api(path, { token: null });
    expect(last.status).toBe(429);
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await count('auth', 'oauth_states', { shop: 'busy-store.myshopify.com' })).toBe(20);
  });

  it('answers verify with an authorize URL for a valid shop', async () => {
    const res = await stack.api('/api/verify?shop=verify-store.myshopify.com', { token: null });
    expect(res.status).toBe(200);
    const url = new URL(res.body.auth_url);
    expect(url.pathname).toBe('/admin/oauth/authorize');
    expect(url.searchParams.get('shop')).toBe('verify-store.myshopify.com');
  });
});

describe('reinstall', () => {
  const shop = 'again-store.myshopify.com';
  const now = () => String(Math.floor(Date.now() / 1000));
  const host = Buffer.from('admin.shopify.com/store/again-store').toString('base64');

  it('answers the authorize URL for a link Shopify signed', async () => {
    const body = stack.shopify.signedQuery({ shop, host, timestamp: now() });
    const res = await post('/api/reinstall', body);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(new URL(res.body.data.url).searchParams.get('shop')).toBe(shop);
  });

  it('covers extra signed parameters', async () => {
    const body = stack.shopify.signedQuery({ shop, host, timestamp: now(), embedded: '1' });
    expect((await post('/api/reinstall', body)).body.status).toBe(true);
  });

  it.each([
    [
      'a tampered HMAC',
      () => ({ ...stack.shopify.signedQuery({ shop, host, timestamp: now() }), host: 'x' }),
    ],
    [
      'a stale timestamp',
      () => stack.shopify.signedQuery({ shop, host, timestamp: String(Number(now()) - 600) }),
    ],
    [
      'a timestamp from the future',
      () => stack.shopify.signedQuery({ shop, host, timestamp: String(Number(now()) + 600) }),
    ],
    ['an HMAC of another secret', () => ({ shop, host, timestamp: now(), hmac: 'f'.repeat(64) })],
  ])('refuses %s with status false', async (_label, body) => {
    const states = await count('auth', 'oauth_states', { shop });
    const res = await post('/api/reinstall', body());
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: false, message: expect.any(String) });
    expect(await count('auth', 'oauth_states', { shop })).toBe(states);
  });

  it('says "Reinstallation failed" for a malformed request', async () => {
    const res = await post('/api/reinstall', { shop, host });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: false, message: 'Reinstallation failed' });
  });
});

describe('embedded first load (token exchange)', () => {
  it('installs a shop from its session token on the first API call', async () => {
    const shop = 'appstore-store.myshopify.com';
    const exchanges = stack.shopify.oauth.stats.tokenExchanges;
    const res = await stack.api('/api/global-rules', { token: stack.token(shop) });
    expect(res.status).toBe(200);
    expect(stack.shopify.oauth.stats.tokenExchanges).toBe(exchanges + 1);
    expect(await count('auth', 'tokens', { shop })).toBe(1);
    expect(stack.shopify.carrierServices.list(shop)).toHaveLength(1);
    await stack.api('/api/global-rules', { token: stack.token(shop) });
    expect(stack.shopify.oauth.stats.tokenExchanges).toBe(exchanges + 1);
  });

  it('installs on the first API call when each Shopify call takes 700 ms (over the 2 s a database call may take)', async () => {
    const shop = 'slow-shopify.myshopify.com';
    stack.shopify.setLatency(700);
    try {
      const started = Date.now();
      const res = await stack.api('/api/global-rules', { token: stack.token(shop) });
      // The exchange, then the carrier's list, create and zone reads: more than 2 s in all.
      expect(Date.now() - started).toBeGreaterThan(2000);
      expect(res.status).toBe(200);
      expect(stack.shopify.carrierServices.list(shop)).toHaveLength(1);
    } finally {
      stack.shopify.setLatency(0);
    }
  });

  it('with the legacy install flow, Shopify refuses the exchange until a code grant installed the shop', async () => {
    const shop = 'legacy-flow.myshopify.com';
    stack.shopify.oauth.setInstallFlow('legacy');
    try {
      const refused = await stack.api('/api/global-rules', { token: stack.token(shop) });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('x-shopify-api-request-failure-reauthorize')).toBe('1');
      expect(await count('auth', 'tokens', { shop })).toBe(0);
      await location(await authorize(shop));
      expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    } finally {
      stack.shopify.oauth.setInstallFlow('managed');
    }
  });

  it('an admin load re-reads a carrier service not checked for 5 minutes (a plan downgrade shows)', async () => {
    const shop = 'load-check.myshopify.com';
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    const shops = stack.dbs.auth.db!.collection('shops');
    // The first load's install writes the shop's record after it answered: only once that
    // is done can its check time be set back (a late write would set it to now again).
    await settledDocuments(stack, shop);
    expect(await shops.findOne({ shop })).toMatchObject({ carrier_state: 'active' });
    stack.shopify.carrierServices.deactivate(shop);
    await shops.updateOne(
      { shop },
      { $set: { carrier_checked_at: new Date(Date.now() - 6 * 60_000) } },
    );
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    await until(
      () => shops.findOne({ shop }),
      (doc) => doc?.carrier_state === 'inactive',
      'the load check to record the inactive service',
    );
  });

  it('retries the carrier service on a later load when Shopify failed it', async () => {
    const shop = 'unlucky-store.myshopify.com';
    // This shop's next call only: another test's shop may still be read in the background.
    stack.shopify.graphql.failNext(503, 1, undefined, shop);
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    expect(stack.shopify.carrierServices.list(shop)).toEqual([]);
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    await until(
      async () => stack.shopify.carrierServices.list(shop),
      (list) => list.length === 1,
      'the carrier service to be registered',
    );
  });

  it('stays refused when Shopify refuses the exchange, and says where to authorize again', async () => {
    const res = await stack.api('/api/global-rules', { token: stack.token(NOT_INSTALLED) });
    expect(res.status).toBe(401);
    expect(await count('auth', 'tokens', { shop: NOT_INSTALLED })).toBe(0);
    // The session is genuine, so the admin gets the shop's authorize URL to leave the frame for.
    expect(res.headers.get('x-shopify-api-request-failure-reauthorize')).toBe('1');
    const url = new URL(res.headers.get('x-shopify-api-request-failure-reauthorize-url')!);
    expect(`${url.origin}${url.pathname}`).toBe(`${stack.shopify.url}/admin/oauth/authorize`);
    expect(url.searchParams.get('shop')).toBe(NOT_INSTALLED);
  });

  it('a token that does not verify gets no authorize URL', async () => {
    // A character in the middle of the signature: the last one may only carry padding bits.
    const token = stack.token(NOT_INSTALLED, {});
    const at = token.lastIndexOf('.') + 10;
    const forged = `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    const res = await stack.api('/api/global-rules', { token: forged });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-shopify-api-request-failure-reauthorize-url')).toBeNull();
  });
});

describe('webhooks', () => {
  const hook = (topic: string, shop: string, extra: { hmac?: string; webhookId?: string } = {}) =>
    stack.shopify.sendWebhook(`${stack.baseUrl}/webhooks/${topic}`, topic, shop, undefined, extra);

  it('refuses a bad HMAC with 401 and does nothing', async () => {
    const shop = 'hooked-store.myshopify.com';
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    const res = await hook('app/uninstalled', shop, { hmac: 'bm90IHRoZSBobWFj' });
    expect(res.status).toBe(401);
    expect(await count('auth', 'tokens', { shop })).toBe(1);
  });

  it('app/uninstalled deletes the tokens; later calls are refused; redelivery is harmless', async () => {
    const shop = 'leaving-store.myshopify.com';
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    stack.shopify.uninstall(shop);
    const id = 'redelivered-1';
    expect((await hook('app/uninstalled', shop, { webhookId: id })).status).toBe(200);
    expect((await hook('app/uninstalled', shop, { webhookId: id })).status).toBe(200);
    expect(await count('auth', 'tokens', { shop })).toBe(0);
    expect(await stack.dbs.auth.db!.collection('shops').findOne({ shop })).toMatchObject({
      installed: false,
      rate_key: null,
    });
    const res = await stack.api('/api/global-rules', { token: stack.token(shop) });
    expect(res.status).toBe(401);
    await until(
      () => stack.kv.get(shop),
      (e) => !!e && (e.json() as { rateKey: string | null }).rateKey === null,
      'the snapshot without a rate key',
    );
  });

  it('shop/redact leaves no document of the shop in any database', async () => {
    const shop = 'gone-store.myshopify.com';
    const created = await stack.api('/api/global-rules', {
      method: 'POST',
      token: stack.token(shop),
      json: { name: 'Summer' },
    });
    expect(created.status).toBe(200);
    await stack.api('/api/settings', {
      method: 'POST',
      token: stack.token(shop),
      json: { carrier_name: 'Fast' },
    });
    stack.shopify.uninstall(shop);
    expect((await hook('app/uninstalled', shop)).status).toBe(200);
    expect((await hook('shop/redact', shop)).status).toBe(200);
    expect((await hook('shop/redact', shop)).status).toBe(200);

    const leftovers = async () => {
      let total = 0;
      for (const db of ['auth', 'rules'] as const) {
        for (const c of await stack.dbs[db].db!.listCollections().toArray())
          total += await count(db, c.name, { shop });
      }
      return total;
    };
    await until(leftovers, (n) => n === 0, 'every document of the shop to go');
    await until(
      () => stack.kv.get(shop),
      (e) => !e || e.operation !== 'PUT',
      'the snapshot to go',
    );
  });

  it('shop/redact reaches the rules service even if it was down when the webhook came', async () => {
    const shop = 'later-store.myshopify.com';
    const created = await stack.api('/api/global-rules', {
      method: 'POST',
      token: stack.token(shop),
      json: { name: 'Winter' },
    });
    expect(created.status).toBe(200);
    stack.shopify.uninstall(shop);
    expect((await hook('app/uninstalled', shop)).status).toBe(200);
    await stack.stopRules();
    try {
      expect((await hook('shop/redact', shop)).status).toBe(200);
      expect(await count('rules', 'rulesets', { shop })).toBe(1);
    } finally {
      await stack.startRules();
    }
    await until(
      () => count('rules', 'rulesets', { shop }),
      (n) => n === 0,
      'the rulesets to go',
    );
  });

  it('RunAdminQuery refuses an uninstalled shop; GetAccessToken is refused for every shop', async () => {
    const auth = new RpcClient(stack.nc, authV1.AuthService, {
      timeoutMs: 5000,
      subjectPrefix: stack.servers.subjectPrefix,
      displayName: 'auth',
    });
    const firstProduct = (shop: string) =>
      auth.call('runAdminQuery', {
        shop,
        query: authV1.AdminQuery.PRODUCTS,
        variablesJson: JSON.stringify({ first: 1 }),
        timeLimitMs: 3000,
      });
    await expect(firstProduct('leaving-store.myshopify.com')).rejects.toMatchObject({
      kind: 'forbidden',
    });
    const live = JSON.parse((await firstProduct('hooked-store.myshopify.com')).dataJson);
    expect(live.products.edges).toHaveLength(1);
    await expect(
      auth.call('getAccessToken', { shop: 'hooked-store.myshopify.com' }),
    ).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it.each(['customers/data_request', 'customers/redact'])('acknowledges %s', async (topic) => {
    expect((await hook(topic, 'hooked-store.myshopify.com')).status).toBe(200);
  });
});
