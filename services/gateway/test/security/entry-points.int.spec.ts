import { createHmac, randomUUID } from 'node:crypto';
import { DEMO_CATALOG, hostParam } from '@ratesmith/shopify-double';
import {
  API_KEY,
  API_SECRET,
  NOT_INSTALLED,
  SHOP_A,
  SHOP_B,
  startStack,
  type Stack,
} from '../harness';
import {
  cart,
  raw,
  rateKeyOf,
  seedShop,
  settledDocuments,
  shopDocuments,
  signBody,
  until,
} from './helpers';

/**
 * S5 (session-token tampering through the real /api), S6 (HMAC on every
 * Shopify entry point: webhooks, /auth/callback, /api/reinstall, the carrier
 * callback), S7 (replays), cross-protocol signature reuse (the app secret
 * signs session tokens, admin links, webhooks and carrier callbacks alike),
 * and S10 (forged X-Forwarded-For buys no extra quota).
 */

let stack: Stack;
const VICTIM = SHOP_B;
let victimKey: string;
let victimBefore: string;

const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  // Public limits off: this file is about signatures, S10 below turns them on.
  stack = await startStack({ PUBLIC_RATE_LIMIT: '0' }, {}, {}, {}, { CARRIER_RATE_LIMIT: 0 });
  expect((await stack.api('/api/global-rules')).status).toBe(200);
  await seedShop(stack, VICTIM, 'Victim', DEMO_CATALOG[0]!.id);
  victimKey = await rateKeyOf(stack, VICTIM);
  victimBefore = await settledDocuments(stack, VICTIM);
}, 60_000);
afterAll(() => stack?.stop());

/** The victim still works end to end and nothing of it changed. */
async function expectVictimIntact() {
  expect((await stack.api('/api/global-rules', { token: stack.token(VICTIM) })).status).toBe(200);
  expect((await carrier(victimKey, JSON.stringify({ rate: cart() }))).status).toBe(200);
  expect(await stack.dbs.rules.db!.collection('rulesets').countDocuments({ shop: VICTIM })).toBe(2);
  expect(await shopDocuments(stack, VICTIM)).toBe(victimBefore);
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT with any header and payload, signed as `alg` says (or not at all). */
function jwt(
  payload: Record<string, unknown>,
  options: { alg?: string; secret?: string; sign?: 'sha256' | 'sha512' | 'none' } = {},
): string {
  const header = b64url({ alg: options.alg ?? 'HS256', typ: 'JWT' });
  const unsigned = `${header}.${b64url(payload)}`;
  if (options.sign === 'none') return `${unsigned}.`;
  const signature = createHmac(options.sign ?? 'sha256', options.secret ?? API_SECRET)
    .update(unsigned)
    .digest('base64url');
  return `${unsigned}.${signature}`;
}

function claims(shop = SHOP_A, overrides: Record<string, unknown> = {}) {
  const t = now();
  const payload: Record<string, unknown> = {
    iss: `https://${shop}/admin`,
    dest: `https://${shop}`,
    aud: API_KEY,
    sub: '1',
    exp: t + 60,
    nbf: t,
    iat: t,
    jti: randomUUID(),
    sid: randomUUID(),
    ...overrides,
  };
  for (const [k, v] of Object.entries(payload)) if (v === undefined) delete payload[k];
  return payload;
}

describe('S5: session-token tampering through /api', () => {
  const valid = () => jwt(claims());
  const editedPayload = () => {
    const [h, , s] = valid().split('.');
    return `${h}.${b64url(claims(VICTIM))}.${s}`;
  };
  const CASES: [string, () => { token?: string; path?: string }][] = [
    ['alg none', () => ({ token: jwt(claims(), { alg: 'none', sign: 'none' }) })],
    ['HS512', () => ({ token: jwt(claims(), { alg: 'HS512', sign: 'sha512' }) })],
    ['HS256 header, HS512 signature', () => ({ token: jwt(claims(), { sign: 'sha512' }) })],
    ['wrong key', () => ({ token: jwt(claims(), { secret: 'not-the-app-secret' }) })],
    ['edited payload (dest → another shop)', () => ({ token: editedPayload() })],
    ['expired 15 s ago', () => ({ token: jwt(claims(SHOP_A, { exp: now() - 15 })) })],
    ['nbf 15 s ahead', () => ({ token: jwt(claims(SHOP_A, { nbf: now() + 15 })) })],
    ['wrong aud', () => ({ token: jwt(claims(SHOP_A, { aud: 'another-app' })) })],
    ['iss ≠ dest', () => ({ token: jwt(claims(SHOP_A, { iss: `https://${VICTIM}/admin` })) })],
    [
      'dest not a shop',
      () => ({
        token: jwt(
          claims(SHOP_A, { dest: 'https://evil.example', iss: 'https://evil.example/admin' }),
        ),
      }),
    ],
    ['dest with a path', () => ({ token: jwt(claims(SHOP_A, { dest: `https://${SHOP_A}/x` })) })],
    ['a shop that never installed', () => ({ token: jwt(claims(NOT_INSTALLED)) })],
    ...(['iss', 'dest', 'aud', 'sub', 'exp', 'nbf', 'iat', 'jti', 'sid'] as const).map(
      (claim): [string, () => { token: string }] => [
        `missing ${claim}`,
        () => ({ token: jwt(claims(SHOP_A, { [claim]: undefined })) }),
      ],
    ),
    ['two segments', () => ({ token: valid().split('.').slice(0, 2).join('.') })],
    ['four segments', () => ({ token: `${valid()}.${valid().split('.')[2]}` })],
    ['empty segments', () => ({ token: '..' })],
    ['a truncated signature', () => ({ token: valid().slice(0, -3) })],
    ['garbage', () => ({ token: 'not-a-token' })],
    ['padding in base64url', () => ({ token: `${valid()}=` })],
    ['no token', () => ({ token: '' })],
    [
      'token in the query string',
      () => ({ token: '', path: `/api/global-rules?id_token=${valid()}` }),
    ],
    ['token as ?token=', () => ({ token: '', path: `/api/global-rules?token=${valid()}` })],
  ];

  it('S5: a valid token is answered 200', async () => {
    expect((await stack.api('/api/global-rules', { token: valid() })).status).toBe(200);
  });

  it(`S5: ${CASES.length} tampered tokens are all 401 with one identical body`, async () => {
    const bodies = new Set<string>();
    const statuses: Record<string, number> = {};
    for (const [name, make] of CASES) {
      const { token, path } = make();
      const res = await stack.api(path ?? '/api/global-rules', { token: token || null });
      statuses[name] = res.status;
      bodies.add(JSON.stringify(res.body));
    }
    expect(Object.entries(statuses).filter(([, s]) => s !== 401)).toEqual([]);
    expect([...bodies]).toHaveLength(1);
  });

  it('S5: an uninstalled shop (Shopify revoked it, app/uninstalled delivered) is 401 like the rest', async () => {
    const shop = 'left-s5.myshopify.com';
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    stack.shopify.uninstall(shop);
    expect((await webhook('app/uninstalled', shop, uninstalledBody(shop))).status).toBe(200);
    const res = await stack.api('/api/global-rules', { token: stack.token(shop) });
    const reference = await stack.api('/api/global-rules', { token: 'garbage' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(reference.body);
  });
});

// ---------------------------------------------------------------- webhooks

const uninstalledBody = (shop: string) => ({
  id: 1,
  name: shop,
  domain: shop,
  myshopify_domain: shop,
});
const redactBody = (shop: string) => ({ shop_id: 1, shop_domain: shop });

/** A webhook as Shopify sends it; `headers` overrides or (with null) drops any header. */
function webhook(
  topic: string,
  shop: string,
  payload: unknown,
  options: { body?: string; headers?: Record<string, string | null>; hmac?: string } = {},
) {
  const body = options.body ?? JSON.stringify(payload);
  const headers: Record<string, string | null> = {
    'content-type': 'application/json',
    'x-shopify-topic': topic,
    'x-shopify-shop-domain': shop,
    'x-shopify-api-version': '2026-10',
    'x-shopify-webhook-id': randomUUID(),
    'x-shopify-triggered-at': new Date().toISOString(),
    'x-shopify-hmac-sha256': options.hmac ?? signBody(body),
    ...options.headers,
  };
  const sent = Object.fromEntries(
    Object.entries(headers).filter((e): e is [string, string] => e[1] !== null),
  );
  return raw(`${stack.baseUrl}/webhooks/${topic}`, { method: 'POST', headers: sent, body });
}

const swapCase = (s: string) =>
  s.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));

describe('S6: webhook signatures', () => {
  const body = JSON.stringify(redactBody(VICTIM));
  const good = signBody(body);
  const CASES: [string, number, Parameters<typeof webhook>[3]][] = [
    ['missing HMAC header', 400, { body, headers: { 'x-shopify-hmac-sha256': null } }],
    ['missing topic header', 400, { body, headers: { 'x-shopify-topic': null } }],
    ['missing shop header', 400, { body, headers: { 'x-shopify-shop-domain': null } }],
    ['missing webhook id', 400, { body, headers: { 'x-shopify-webhook-id': null } }],
    ['wrong HMAC', 401, { body, hmac: signBody(body, 'another-secret') }],
    ['truncated HMAC', 401, { body, hmac: good.slice(0, -4) }],
    ['case-changed HMAC', 401, { body, hmac: swapCase(good) }],
    ['hex instead of base64', 401, { body, hmac: Buffer.from(good, 'base64').toString('hex') }],
    ['body re-serialised', 401, { body: JSON.stringify(redactBody(VICTIM), null, 1), hmac: good }],
    ['body with a trailing space', 401, { body: `${body} `, hmac: good }],
    ['duplicated HMAC header', 401, { body, hmac: `${signBody('x')}, ${good}` }],
    [
      'shop spoofed (header names another shop than the signed body)',
      401,
      { body: JSON.stringify(redactBody(SHOP_A)) },
    ],
  ];

  it.each(CASES)('S6: webhook with %s → %i, nothing done', async (_name, status, options) => {
    const res = await webhook('shop/redact', VICTIM, undefined, options);
    expect(res.status).toBe(status);
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"shop/redact"'],
    ['null', 'null'],
    ['not JSON', 'shop_domain=x'],
    ['an object without the shop', '{"shop_id":1}'],
  ])('S6: a correctly signed body that is %s → 401', async (_name, raw) => {
    expect((await webhook('shop/redact', VICTIM, undefined, { body: raw })).status).toBe(401);
  });

  it('S6: a topic Ratesmith does not subscribe to → 400 whatever the signature', async () => {
    const res = await webhook('orders/create', VICTIM, redactBody(VICTIM));
    expect(res.status).toBe(400);
  });

  it('S6: a product topic whose body is no product (a compliance body) → 401, nothing read', async () => {
    const reads = stack.shopify.products.calls.length;
    const res = await webhook('products/update', VICTIM, redactBody(VICTIM));
    expect(res.status).toBe(401);
    expect(stack.shopify.products.calls.length).toBe(reads);
  });

  it('S6: app/uninstalled naming its shop only in `domain` (a custom domain) → 401', async () => {
    const res = await webhook('app/uninstalled', VICTIM, {
      domain: VICTIM,
      myshopify_domain: SHOP_A,
    });
    expect(res.status).toBe(401);
  });

  it('S6/S7: a genuine app/uninstalled while Shopify says the token still works → 200, nothing changes', async () => {
    expect((await webhook('app/uninstalled', VICTIM, uninstalledBody(VICTIM))).status).toBe(200);
    await expectVictimIntact();
  });

  it('S6/S7: a genuine shop/redact while the shop is installed → 200, nothing deleted', async () => {
    const shops = stack.dbs.auth.db!.collection('shops');
    const { updatedAt, redact_deferred_at: deferred } = (await shops.findOne({ shop: VICTIM }))!;
    expect((await webhook('shop/redact', VICTIM, redactBody(VICTIM))).status).toBe(200);
    // The one write: the request is recorded on the shop. Put back, the rest compares byte for byte.
    const doc = await shops.findOne({ shop: VICTIM });
    expect(doc!.redact_deferred_at).toBeInstanceOf(Date);
    await shops.updateOne(
      { shop: VICTIM },
      deferred === undefined
        ? { $unset: { redact_deferred_at: '' }, $set: { updatedAt } }
        : { $set: { redact_deferred_at: deferred, updatedAt } },
    );
    await expectVictimIntact();
  });
});

describe('S7: webhook replays', () => {
  it('S7: a repeated X-Shopify-Webhook-Id is acknowledged and has no second effect', async () => {
    const shop = 'replayed-s7.myshopify.com';
    const installed = async () =>
      (await stack.dbs.auth.db!.collection('shops').findOne({ shop }))?.installed;
    expect((await stack.api('/api/global-rules', { token: stack.token(shop) })).status).toBe(200);
    stack.shopify.uninstall(shop);
    const id = randomUUID();
    const send = (webhookId: string) =>
      webhook('app/uninstalled', shop, uninstalledBody(shop), {
        headers: { 'x-shopify-webhook-id': webhookId },
      });
    expect((await send(id)).status).toBe(200);
    expect(await installed()).toBe(false);

    // The merchant installs again (OAuth), then Shopify revokes again but has sent nothing new.
    const started = await stack.api('/api/install', {
      method: 'POST',
      token: null,
      json: { shop, email: 'owner@example.com' },
    });
    const callback = (await fetch(started.body.url, { redirect: 'manual' })).headers.get(
      'location',
    )!;
    expect((await fetch(callback, { redirect: 'manual' })).status).toBe(302);
    expect(await installed()).toBe(true);
    stack.shopify.uninstall(shop);
    // The old delivery again: already processed, so nothing happens.
    expect((await send(id)).status).toBe(200);
    expect(await installed()).toBe(true);
    // A new delivery does act: the replay above was refused for being a replay.
    const uninstalledAt = Date.now();
    expect((await send(randomUUID())).status).toBe(200);
    // Seen once under load (installed still true): the record's times say which step missed.
    const record = await stack.dbs.auth.db!.collection('shops').findOne({ shop });
    expect({
      installed: record?.installed,
      installedAt: record?.installed_at?.toISOString(),
      uninstalledAt: record?.uninstalled_at?.toISOString(),
      webhookSentAt: new Date(uninstalledAt).toISOString(),
    }).toMatchObject({ installed: false });
  });
});

// ---------------------------------------------------------------- /auth/callback

/** install → the double's authorize page → the callback URL Shopify would redirect to. */
async function authorize(shop: string): Promise<URL> {
  const res = await stack.api('/api/install', {
    method: 'POST',
    token: null,
    json: { shop, email: 'owner@example.com' },
  });
  expect(res.status).toBe(200);
  return new URL((await fetch(res.body.url, { redirect: 'manual' })).headers.get('location')!);
}

const states = (shop: string) =>
  stack.dbs.auth.db!.collection('oauth_states').countDocuments({ shop });

/** Re-signs `params` as Shopify would, after changing them. */
const resign = (params: Record<string, string>) => {
  const { hmac: _h, ...rest } = params;
  return stack.shopify.signedQuery(rest);
};

describe('S6/S7: /auth/callback', () => {
  it('S6: every tampered callback is refused without consuming the state; the genuine one then works once', async () => {
    const shop = 'callback-s6.myshopify.com';
    const genuine = await authorize(shop);
    const params = Object.fromEntries(genuine.searchParams);
    const other = Object.fromEntries((await authorize('other-s6.myshopify.com')).searchParams);
    const ts = Number(params.timestamp);
    const CASES: [string, string][] = [
      [
        'missing hmac',
        new URLSearchParams({ ...params, hmac: '' }).toString().replace('hmac=&', ''),
      ],
      ['wrong hmac', new URLSearchParams({ ...params, hmac: 'a'.repeat(64) }).toString()],
      [
        'truncated hmac',
        new URLSearchParams({ ...params, hmac: params.hmac!.slice(0, 60) }).toString(),
      ],
      [
        'case-changed hmac',
        new URLSearchParams({ ...params, hmac: params.hmac!.toUpperCase() }).toString(),
      ],
      [
        'timestamp 91 s old',
        new URLSearchParams(resign({ ...params, timestamp: String(ts - 91) })).toString(),
      ],
      [
        // From the genuine redirect's time, which is seconds old by the time this is sent on a
        // busy machine: 91 s ahead of it was once inside the 90 s window when it arrived.
        'timestamp 120 s ahead',
        new URLSearchParams(resign({ ...params, timestamp: String(ts + 120) })).toString(),
      ],
      ['duplicated shop', `${genuine.search.slice(1)}&shop=${VICTIM}`],
      ['duplicated hmac', `${genuine.search.slice(1)}&hmac=${params.hmac}`],
      ['shop spoofed', new URLSearchParams({ ...params, shop: VICTIM }).toString()],
      [
        "another shop's state, signed",
        new URLSearchParams(resign({ ...params, state: other.state! })).toString(),
      ],
      [
        'a made-up state, signed',
        new URLSearchParams(resign({ ...params, state: 'x'.repeat(32) })).toString(),
      ],
      ['code changed', new URLSearchParams({ ...params, code: 'other' }).toString()],
    ];
    const refused: Record<string, number> = {};
    for (const [name, query] of CASES) {
      const res = await raw(`${stack.baseUrl}/auth/callback?${query}`);
      if (![400, 401].includes(res.status) || res.headers.get('location'))
        refused[name] = res.status;
    }
    expect(refused).toEqual({});
    expect(await stack.dbs.auth.db!.collection('tokens').countDocuments({ shop })).toBe(0);
    expect(await states(shop)).toBe(1);

    const ok = await raw(genuine.toString());
    expect(ok.status).toBe(302);
    // S7: the code and state work once.
    const again = await raw(genuine.toString());
    expect(again.status).toBe(401);
    expect(await stack.dbs.auth.db!.collection('tokens').countDocuments({ shop })).toBe(1);
  });
});

// ---------------------------------------------------------------- /api/reinstall

describe('S6: /api/reinstall', () => {
  const shop = 'reinstall-s6.myshopify.com';
  const host = hostParam(shop);
  const signed = (timestamp = now()) =>
    stack.shopify.signedQuery({ shop, host, timestamp: String(timestamp) });
  const post = (body: unknown) =>
    raw(`${stack.baseUrl}/api/reinstall`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('S6: the genuine link is answered 200', async () => {
    const res = await post(signed());
    expect(res.status).toBe(200);
  });

  it('S6: every tampered link is refused and stores no OAuth state', async () => {
    const before = (await states(shop)) + (await states(VICTIM));
    const s = signed();
    const { hmac: _omit, ...unsigned } = s;
    const CASES: [string, unknown][] = [
      ['missing hmac', unsigned],
      ['wrong hmac', { ...s, hmac: 'b'.repeat(64) }],
      ['truncated hmac', { ...s, hmac: s.hmac!.slice(0, 63) }],
      ['case-changed hmac', { ...s, hmac: s.hmac!.toUpperCase() }],
      ['timestamp 91 s old', signed(now() - 91)],
      ['timestamp 120 s ahead', signed(now() + 120)],
      ['shop spoofed', { ...s, shop: VICTIM }],
      [
        'duplicated shop key (spoofed last)',
        JSON.stringify(s).replace(/}$/, `,"shop":"${VICTIM}"}`),
      ],
      ['an extra unsigned parameter', { ...s, embedded: '1' }],
    ];
    const wrong: Record<string, number> = {};
    for (const [name, body] of CASES) {
      const res = await post(body);
      if (![400, 401].includes(res.status)) wrong[name] = res.status;
    }
    expect(wrong).toEqual({});
    expect((await states(shop)) + (await states(VICTIM))).toBe(before);
  });
});

// ---------------------------------------------------------------- carrier callback

function carrier(key: string, body: string, signature: string | null = signBody(body)) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== null) headers['x-shopify-hmac-sha256'] = signature;
  return raw(`${stack.carrierUrl}/carrier/rates/${key}`, { method: 'POST', headers, body });
}

describe('S6: the carrier callback', () => {
  const body = JSON.stringify({ rate: cart() });
  const good = signBody(body);
  it.each([
    ['missing', body, null],
    ['wrong', body, signBody(body, 'another-secret')],
    ['truncated', body, good.slice(0, -4)],
    ['case-changed', body, swapCase(good)],
    ['body re-serialised', JSON.stringify({ rate: cart() }, null, 2), good],
    ['duplicated header', body, `${good}, ${good}`],
  ] as const)('S6: carrier callback with a %s signature → 401 with no body', async (_n, b, sig) => {
    const res = await carrier(victimKey, b, sig);
    expect(res.status).toBe(401);
    expect(res.text).toBe('');
  });

  it('S6: the genuine callback is answered 200 with rates', async () => {
    const res = await carrier(victimKey, body);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).rates.length).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------- cross-protocol

describe('cross-protocol: one secret signs four kinds of message; none passes for another', () => {
  it.each(['app/uninstalled', 'shop/redact'])(
    "(a) a session token's header.payload and signature as a %s webhook for another shop → refused",
    async (topic) => {
      const [h, p, s] = stack.token(SHOP_A).split('.');
      const res = await webhook(topic, VICTIM, undefined, {
        body: `${h}.${p}`,
        hmac: Buffer.from(s!, 'base64url').toString('base64'),
      });
      expect(res.status).toBe(401);
      await expectVictimIntact();
    },
  );

  it.each(['app/uninstalled', 'shop/redact'])(
    '(b) a signed admin link replayed as a %s webhook → refused',
    async (topic) => {
      const query = stack.shopify.signedQuery({
        host: hostParam(VICTIM),
        shop: VICTIM,
        timestamp: String(now()),
      });
      const { hmac, ...rest } = query;
      const message = new URLSearchParams(Object.entries(rest).sort()).toString();
      // The link's HMAC is over exactly this message: check, so the attack is the real one.
      expect(createHmac('sha256', API_SECRET).update(message).digest('hex')).toBe(hmac);
      const res = await webhook(topic, VICTIM, undefined, {
        body: message,
        hmac: Buffer.from(hmac!, 'hex').toString('base64'),
      });
      expect(res.status).toBe(401);
      await expectVictimIntact();
    },
  );

  it("(c) a webhook's body and HMAC as a query HMAC on /api/reinstall and /auth/callback → refused", async () => {
    const body = JSON.stringify(redactBody(VICTIM));
    const hex = Buffer.from(signBody(body), 'base64').toString('hex');
    const before = await states(VICTIM);
    const reinstall = await raw(`${stack.baseUrl}/api/reinstall`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        shop: VICTIM,
        host: hostParam(VICTIM),
        timestamp: String(now()),
        hmac: hex,
      }),
    });
    expect(reinstall.status).toBe(401);
    const callback = await raw(
      `${stack.baseUrl}/auth/callback?${new URLSearchParams({
        code: 'c',
        shop: VICTIM,
        state: 's'.repeat(32),
        timestamp: String(now()),
        hmac: hex,
      })}`,
    );
    expect([400, 401]).toContain(callback.status);
    // The body itself as the query (one key, no value) with its HMAC.
    const asQuery = await raw(
      `${stack.baseUrl}/auth/callback?${encodeURIComponent(body)}&hmac=${hex}`,
    );
    expect([400, 401]).toContain(asQuery.status);
    expect(await states(VICTIM)).toBe(before);
    await expectVictimIntact();
  });

  it('(d) a carrier-callback body and signature replayed as a webhook → refused', async () => {
    const body = JSON.stringify({ rate: cart() });
    expect((await carrier(victimKey, body)).status).toBe(200);
    for (const topic of ['app/uninstalled', 'shop/redact']) {
      const res = await webhook(topic, VICTIM, undefined, { body, hmac: signBody(body) });
      expect(res.status).toBe(401);
    }
    await expectVictimIntact();
  });
});

// ---------------------------------------------------------------- S10

describe('S10: forged client addresses buy no extra quota', () => {
  let limited: Stack;
  beforeAll(async () => {
    limited = await startStack({ PUBLIC_RATE_LIMIT: '5' }, {}, {}, {}, { CARRIER_RATE_LIMIT: 5 });
  }, 60_000);
  afterAll(() => limited?.stop());

  const forged = (i: number) => ({
    'x-forwarded-for': `203.0.113.${i}`,
    'x-real-ip': `198.51.100.${i}`,
    forwarded: `for=192.0.2.${i}`,
    'cf-connecting-ip': `192.0.2.${i}`,
  });

  it('S10: the public routes give 429 after PUBLIC_RATE_LIMIT calls from one client, whatever X-Forwarded-For says', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const res = await raw(`${limited.baseUrl}/api/verify?shop=s10-${i}.myshopify.com`, {
        headers: forged(i),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // Other public routes share the client's quota.
    const hook = await raw(`${limited.baseUrl}/webhooks/shop/redact`, {
      method: 'POST',
      headers: { ...forged(99), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(hook.status).toBe(429);
  });

  it('S10: the carrier callback gives 429 after CARRIER_RATE_LIMIT calls for one rate key, whatever X-Forwarded-For says', async () => {
    expect((await limited.api('/api/global-rules', { token: limited.token(SHOP_A) })).status).toBe(
      200,
    );
    const doc = await until(
      () => limited.dbs.auth.db!.collection('shops').findOne({ shop: SHOP_A }),
      (d) => !!d?.rate_key,
      'the rate key',
    );
    // The engine learns the key from the shop's snapshot; wait for it without spending quota.
    await until(
      () => limited.kv.get(SHOP_A),
      (e) => !!e && (e.json() as { rateKey: string | null }).rateKey === doc!.rate_key,
      'the snapshot with the rate key',
    );
    await new Promise((r) => setTimeout(r, 500));
    const body = JSON.stringify({ rate: cart() });
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) {
      const res = await raw(`${limited.carrierUrl}/carrier/rates/${doc!.rate_key}`, {
        method: 'POST',
        headers: {
          ...forged(i),
          'content-type': 'application/json',
          'x-shopify-hmac-sha256': signBody(body),
        },
        body,
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
