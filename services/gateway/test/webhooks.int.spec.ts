import { createHmac } from 'node:crypto';
import { signBody, webhookPayload } from '@ratesmith/shopify-double';
import { mintSessionToken } from '../src/auth/session-token';
import { API_KEY, SHOP_A, startStack, until, type Stack } from './harness';

/**
 * Webhooks are signed with the app secret, which also signs session tokens
 * and admin links. These tests replay those other signatures as webhooks,
 * and real webhooks in the wrong place, and expect every one refused with
 * the victim shop untouched.
 */
let stack: Stack;
const PREVIOUS_SECRET = 'the-secret-before-the-rotation';
beforeAll(async () => {
  stack = await startStack(
    { SHOPIFY_API_SECRET_PREVIOUS: PREVIOUS_SECRET },
    // No carrier check in the background of admin loads: its Shopify calls, landing at
    // any time, would take the one failure a test sets up for a webhook's own call.
    { CARRIER_LOAD_CHECK_INTERVAL_MS: String(24 * 3600_000) },
  );
});
afterAll(() => stack?.stop());

const VICTIM = 'victim-store.myshopify.com';

interface Headers {
  topic: string;
  shop: string;
  hmac: string;
  webhookId?: string;
  triggeredAt?: string;
}

/** A raw POST to the webhook route with Shopify's headers, whatever the body. */
async function deliver(body: string, h: Headers): Promise<number> {
  const res = await fetch(`${stack.baseUrl}/webhooks/${h.topic}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': h.topic,
      'x-shopify-shop-domain': h.shop,
      'x-shopify-api-version': '2026-10',
      'x-shopify-webhook-id': h.webhookId ?? crypto.randomUUID(),
      'x-shopify-hmac-sha256': h.hmac,
      ...(h.triggeredAt ? { 'x-shopify-triggered-at': h.triggeredAt } : {}),
    },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

const hook = (topic: string, shop: string, extra: { webhookId?: string } = {}) =>
  stack.shopify.sendWebhook(`${stack.baseUrl}/webhooks/${topic}`, topic, shop, undefined, extra);

async function rateKeyOf(shop: string): Promise<string> {
  const doc = await stack.dbs.auth.db!.collection('shops').findOne({ shop });
  return doc!.rate_key as string;
}

/** The shop's checkout callback, signed as Shopify signs it. */
async function checkout(rateKey: string): Promise<number> {
  const body = JSON.stringify({
    rate: {
      origin: { country: 'US' },
      destination: { country: 'US' },
      items: [{ quantity: 1, price: 1000, grams: 100, requires_shipping: true, product_id: 1 }],
      currency: 'USD',
    },
  });
  const res = await fetch(`${stack.carrierUrl}/carrier/rates/${rateKey}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-hmac-sha256': signBody(body, 'test-api-secret'),
    },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** Everything the forged webhooks would destroy, read back. */
async function victimState() {
  const rulesets = await stack.dbs.rules
    .db!.collection('rulesets')
    .countDocuments({ shop: VICTIM });
  const tokens = await stack.dbs.auth.db!.collection('tokens').countDocuments({ shop: VICTIM });
  const shopDoc = await stack.dbs.auth.db!.collection('shops').findOne({ shop: VICTIM });
  const api = (await stack.api('/api/global-rules', { token: stack.token(VICTIM) })).status;
  return { rulesets, tokens, installed: shopDoc?.installed, rateKey: shopDoc?.rate_key, api };
}

let before: Awaited<ReturnType<typeof victimState>>;
beforeAll(async () => {
  // The attacker is a staff user of an installed shop; the victim is another installed shop.
  expect((await stack.api('/api/global-rules', { token: stack.token(SHOP_A) })).status).toBe(200);
  const created = await stack.api('/api/global-rules', {
    method: 'POST',
    token: stack.token(VICTIM),
    json: { name: 'Victim rules' },
  });
  expect(created.status).toBe(200);
  const key = await rateKeyOf(VICTIM);
  await until(
    () => checkout(key),
    (s) => s === 200,
    "the victim's checkout to answer",
  );
  before = await victimState();
  expect(before).toMatchObject({ rulesets: 1, tokens: 1, installed: true, api: 200 });
});

describe('S6/S7: signatures made for something else are not webhooks', () => {
  const topics = ['app/uninstalled', 'shop/redact'];

  it.each(topics)(
    "a session token's signature replayed as %s for another shop is refused, victim intact",
    async (topic) => {
      const [header, payload, signature] = stack.token(SHOP_A).split('.');
      const body = `${header}.${payload}`;
      const hmac = Buffer.from(signature!, 'base64url').toString('base64');
      // The signature is genuine for these bytes: only the binding to a webhook is missing.
      expect(createHmac('sha256', 'test-api-secret').update(body).digest('base64')).toBe(hmac);
      expect(await deliver(body, { topic, shop: VICTIM, hmac })).toBe(401);
      expect(await victimState()).toEqual(before);
      expect(await checkout(await rateKeyOf(VICTIM))).toBe(200);
    },
  );

  it.each(topics)("a signed admin link's query replayed as %s is refused", async (topic) => {
    const signed = stack.shopify.signedQuery({
      host: 'YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvc2hvcC1h',
      shop: SHOP_A,
      timestamp: String(Math.floor(Date.now() / 1000)),
    });
    const { hmac: hex, ...params } = signed;
    const body = new URLSearchParams(Object.entries(params).sort()).toString();
    const hmac = Buffer.from(hex!, 'hex').toString('base64');
    expect(signBody(body, 'test-api-secret')).toBe(hmac);
    expect(await deliver(body, { topic, shop: VICTIM, hmac })).toBe(401);
    expect(await victimState()).toEqual(before);
  });

  it("a genuine webhook of the attacker's shop with the victim's header is refused", async () => {
    const body = JSON.stringify(webhookPayload('app/uninstalled', SHOP_A));
    const hmac = signBody(body, 'test-api-secret');
    expect(await deliver(body, { topic: 'app/uninstalled', shop: VICTIM, hmac })).toBe(401);
    expect(await victimState()).toEqual(before);
  });

  it('a JSON array or scalar body is refused even when signed', async () => {
    for (const body of ['[]', '"x"', '12', 'null']) {
      const hmac = signBody(body, 'test-api-secret');
      expect(await deliver(body, { topic: 'shop/redact', shop: VICTIM, hmac })).toBe(401);
    }
    expect(await victimState()).toEqual(before);
  });

  it('a topic Ratesmith does not subscribe to is refused (400)', async () => {
    const body = JSON.stringify({ shop_domain: VICTIM });
    const hmac = signBody(body, 'test-api-secret');
    expect(await deliver(body, { topic: 'orders/create', shop: VICTIM, hmac })).toBe(400);
  });

  it('a webhook without its id header is refused (400)', async () => {
    const body = JSON.stringify(webhookPayload('shop/redact', VICTIM));
    const res = await fetch(`${stack.baseUrl}/webhooks/shop/redact`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'shop/redact',
        'x-shopify-shop-domain': VICTIM,
        'x-shopify-api-version': '2026-10',
        'x-shopify-hmac-sha256': signBody(body, 'test-api-secret'),
      },
      body,
    });
    expect(res.status).toBe(400);
  });
});

describe('a signed delivery that is no delivery of Shopify’s', () => {
  it('an id over 64 characters, or a triggered-at older than 48 hours (a replay), is refused (400) unclaimed', async () => {
    const body = JSON.stringify(webhookPayload('customers/redact', VICTIM));
    const hmac = signBody(body, 'test-api-secret');
    const longId = 'x'.repeat(65);
    const oldId = crypto.randomUUID();
    const topic = 'customers/redact';
    expect(await deliver(body, { topic, shop: VICTIM, hmac, webhookId: longId })).toBe(400);
    const old = new Date(Date.now() - 49 * 3_600_000).toISOString();
    expect(
      await deliver(body, { topic, shop: VICTIM, hmac, webhookId: oldId, triggeredAt: old }),
    ).toBe(400);
    const fresh = new Date(Date.now() - 47 * 3_600_000).toISOString();
    expect(await deliver(body, { topic, shop: VICTIM, hmac, triggeredAt: fresh })).toBe(200);
    const claimed = await stack.dbs.auth
      .db!.collection('webhook_deliveries')
      .countDocuments({ webhook_id: { $in: [longId, oldId] } });
    expect(claimed).toBe(0);
  });
});

describe('a genuine webhook still cannot harm a shop that has the app', () => {
  it('app/uninstalled while Shopify still accepts the token: acknowledged, nothing changes', async () => {
    expect((await hook('app/uninstalled', VICTIM)).status).toBe(200);
    expect(await victimState()).toEqual(before);
  });

  it('shop/redact while the shop is installed: acknowledged (200), nothing erased, the request recorded', async () => {
    const res = await hook('shop/redact', VICTIM);
    // A refusal would have Shopify retry the delivery for days.
    expect(res.status).toBe(200);
    expect(await victimState()).toEqual(before);
    const doc = await stack.dbs.auth.db!.collection('shops').findOne({ shop: VICTIM });
    expect(doc!.redact_deferred_at).toBeInstanceOf(Date);
  });
});

describe('S7: each webhook id acts once', () => {
  it('a replayed app/uninstalled after a reinstall does nothing', async () => {
    const shop = 'returning-store.myshopify.com';
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    stack.shopify.uninstall(shop);
    const webhookId = 'uninstall-once';
    expect((await hook('app/uninstalled', shop, { webhookId })).status).toBe(200);
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(401);

    // The merchant installs again (managed install: the double grants, token exchange on load).
    stack.shopify.oauth.managedInstall(shop);
    await until(
      async () => (await stack.api('/api/global-rules', { token: stack.token(shop) })).status,
      (s) => s === 200,
      'the reinstall',
    );
    // The captured delivery comes again: same id, same bytes.
    expect((await hook('app/uninstalled', shop, { webhookId })).status).toBe(200);
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    const doc = await stack.dbs.auth.db!.collection('shops').findOne({ shop });
    expect(doc).toMatchObject({ installed: true });
    expect(doc!.rate_key).toEqual(expect.any(String));
  });

  it('a failed delivery is not remembered: its retry acts', async () => {
    const shop = 'flaky-store.myshopify.com';
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    stack.shopify.uninstall(shop);
    const webhookId = 'retry-after-failure';
    // What the install started after its answer (the shipping zones' reads) is done first:
    // the one failure set up below is for the webhook's own call.
    let seen = -1;
    while (seen !== stack.shopify.graphql.operations.length) {
      seen = stack.shopify.graphql.operations.length;
      await new Promise((r) => setTimeout(r, 500));
    }
    // Shopify's Admin API fails while the app asks whether its token still works.
    stack.shopify.graphql.failNext(503, 1);
    const failed = await hook('app/uninstalled', shop, { webhookId });
    // The failed call is not among the operations the double answered: none should be.
    const answered = stack.shopify.graphql.operations
      .slice(seen)
      .map((o) => `${o.shop} ${o.fields}`);
    expect([failed.status, answered]).toEqual([503, []]);
    expect(await stack.dbs.auth.db!.collection('tokens').countDocuments({ shop })).toBe(1);
    expect((await hook('app/uninstalled', shop, { webhookId })).status).toBe(200);
    expect(await stack.dbs.auth.db!.collection('tokens').countDocuments({ shop })).toBe(0);
  });
});

describe('during a secret rotation', () => {
  it('a webhook signed with the previous secret is accepted, one signed otherwise is not', async () => {
    const body = JSON.stringify(webhookPayload('customers/redact', VICTIM));
    const topic = 'customers/redact';
    expect(
      await deliver(body, { topic, shop: VICTIM, hmac: signBody(body, PREVIOUS_SECRET) }),
    ).toBe(200);
    expect(
      await deliver(body, { topic, shop: VICTIM, hmac: signBody(body, 'never-the-secret') }),
    ).toBe(401);
  });

  it("the admin's session token signed with the previous secret still works", async () => {
    const old = mintSessionToken({ shop: VICTIM, apiKey: API_KEY, apiSecret: PREVIOUS_SECRET });
    expect((await stack.api('/api/global-rules', { token: old })).status).toBe(200);
    const forged = mintSessionToken({
      shop: VICTIM,
      apiKey: API_KEY,
      apiSecret: 'never-the-secret',
    });
    expect((await stack.api('/api/global-rules', { token: forged })).status).toBe(401);
  });
});

describe('app/scopes_update', () => {
  it('the next admin load exchanges its session for a token with the new scopes, once', async () => {
    const shop = 'rescoped-store.myshopify.com';
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    const exchanges = stack.shopify.oauth.stats.tokenExchanges;
    expect((await hook('app/scopes_update', shop)).status).toBe(200);
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    expect(stack.shopify.oauth.stats.tokenExchanges).toBe(exchanges + 1);
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    expect(stack.shopify.oauth.stats.tokenExchanges).toBe(exchanges + 1);
  });

  it('a body that is not a scopes payload is refused, even when signed', async () => {
    const body = JSON.stringify({ shop_domain: VICTIM });
    const hmac = signBody(body, 'test-api-secret');
    expect(await deliver(body, { topic: 'app/scopes_update', shop: VICTIM, hmac })).toBe(401);
  });
});
