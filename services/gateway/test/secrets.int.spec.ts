// Telemetry first: spans go to memory, and http, express and mongodb are patched
// before the stack loads them.
import { spanExporter, stopTelemetry } from './in-memory-telemetry';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { get as httpGet } from 'node:http';
import { signBody } from '@ratesmith/shopify-double';
import { API_SECRET, startStack, until, type Stack } from './harness';

/**
 * S13: a shop's whole life (install page → authorize → OAuth callback → API
 * calls → checkout → token refresh → uninstall) leaves no secret in clear in
 * any log line (trace level), any span, or any document of the auth and
 * rules databases.
 */
const SHOP = 'secret-keeper.myshopify.com';
const EMBEDDED_SHOP = 'secret-embedded.myshopify.com';

const logLines: string[] = [];
let stack: Stack;

/** Every access and refresh token the double issues, in order (it keeps no refresh tokens for tests). */
const issued: { access: string[]; refresh: string[] } = { access: [], refresh: [] };
const sessionTokens: string[] = [];
const oauthValues: Record<'code' | 'hmac' | 'state', string[]> = { code: [], hmac: [], state: [] };
let rateKey = '';

beforeAll(async () => {
  stack = await startStack(
    {},
    {},
    {},
    { level: 'trace', destination: { write: (line: string) => void logLines.push(line) } },
  );
  const oauth = stack.shopify.oauth as unknown as {
    issue: (...args: unknown[]) => Record<string, unknown>;
  };
  const issue = oauth.issue.bind(oauth);
  oauth.issue = (...args) => {
    const reply = issue(...args);
    if (typeof reply.access_token === 'string') issued.access.push(reply.access_token);
    if (typeof reply.refresh_token === 'string') issued.refresh.push(reply.refresh_token);
    return reply;
  };
});
afterAll(async () => {
  await stack?.stop();
  // Later test files of this worker get plain modules.
  await stopTelemetry();
});

function sessionToken(shop: string): string {
  const token = stack.token(shop);
  sessionTokens.push(token);
  return token;
}

/** A GET over node:http, so the test's own request is an instrumented outgoing span. */
function rawGet(url: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    httpGet(url, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    }).on('error', reject);
  });
}

/** The checkout callback, signed as Shopify signs it. */
async function checkout(key: string): Promise<number> {
  const body = JSON.stringify({
    rate: {
      origin: { country: 'US', postal_code: '10001' },
      destination: { country: 'US', postal_code: '94103' },
      items: [{ quantity: 1, price: 1000, grams: 100, requires_shipping: true, product_id: 1 }],
      currency: 'USD',
    },
  });
  const res = await fetch(`${stack.carrierUrl}/carrier/rates/${key}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-hmac-sha256': signBody(body, API_SECRET),
    },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

async function lifeOfAShop(): Promise<void> {
  // Install page → the double's authorize page → the OAuth callback.
  const install = await stack.api('/api/install', {
    method: 'POST',
    token: null,
    json: { shop: SHOP, email: 'owner@example.com' },
  });
  expect(install.status).toBe(200);
  const authorize = await fetch(install.body.url, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const callback = new URL(authorize.headers.get('location')!);
  expect(callback.pathname).toBe('/auth/callback');
  for (const name of ['code', 'hmac', 'state'] as const) {
    const value = callback.searchParams.get(name);
    expect(value).toBeTruthy();
    oauthValues[name].push(value!);
  }
  const intoApp = await rawGet(callback.toString());
  expect(intoApp.status).toBe(302);
  expect(new URL(intoApp.location!).pathname).toMatch(/^\/store\/[a-z0-9-]+\/apps\/test-api-key$/);

  // The admin's calls with session tokens, the catalog through Shopify.
  const token = () => sessionToken(SHOP);
  expect((await stack.api('/api/global-rules', { token: token() })).status).toBe(200);
  const created = await stack.api('/api/global-rules', {
    method: 'POST',
    token: token(),
    json: { name: 'Everywhere' },
  });
  expect(created.status).toBe(200);
  const products = await stack.api('/api/product-rules/shopify-products?search=shirt', {
    token: token(),
  });
  expect(products.status).toBe(200);
  // A call with the token in the query too, as a careless client might send it.
  await stack.api(`/api/global-rules?id_token=${token()}&session=${token()}`, { token: token() });

  // An App Store install: the first call trades the session token for tokens.
  expect(
    (await stack.api('/api/global-rules', { token: sessionToken(EMBEDDED_SHOP) })).status,
  ).toBe(200);

  // Checkout asks the rate engine under the shop's rate key.
  const shopDoc = await stack.dbs.auth.db!.collection('shops').findOne({ shop: SHOP });
  rateKey = shopDoc!.rate_key as string;
  expect(rateKey).toMatch(/^[A-Za-z0-9_-]{16,}$/);
  await until(
    () => stack.kv.get(SHOP),
    (e) => !!e && (e.json() as { rateKey: string | null }).rateKey === rateKey,
    'the snapshot with the rate key',
  );
  expect(await checkout(rateKey)).toBe(200);
  expect(await checkout(`${rateKey.slice(0, -2)}xx`)).toBe(404);

  // The access token lapses: the next catalog call refreshes it.
  const refreshes = stack.shopify.oauth.stats.refreshes;
  stack.shopify.oauth.expireAccessTokens(SHOP);
  await stack.dbs
    .auth!.db!.collection('tokens')
    .updateOne({ shop: SHOP }, { $set: { expires_at: new Date(Date.now() - 1000) } });
  const again = await stack.api('/api/product-rules/shopify-products', { token: token() });
  expect(again.status).toBe(200);
  expect(stack.shopify.oauth.stats.refreshes).toBe(refreshes + 1);

  // Before uninstalling: every token the double holds for the shop is one we caught.
  for (const shop of [SHOP, EMBEDDED_SHOP])
    for (const t of stack.shopify.oauth.accessTokensOf(shop)) expect(issued.access).toContain(t);

  // The merchant uninstalls: Shopify revokes the tokens, then sends the webhook.
  stack.shopify.uninstall(SHOP);
  const hook = await stack.shopify.sendWebhook(
    `${stack.baseUrl}/webhooks/app/uninstalled`,
    'app/uninstalled',
    SHOP,
    { shop_domain: SHOP, myshopify_domain: SHOP, domain: SHOP },
  );
  expect(hook.status).toBe(200);
  await until(
    () => stack.dbs.auth.db!.collection('tokens').countDocuments({ shop: SHOP }),
    (n) => n === 0,
    'the tokens to go',
  );
  expect((await stack.api('/api/global-rules', { token: token() })).status).toBe(401);
  // Server spans end when the response is sent; give the last ones a moment.
  await new Promise((r) => setTimeout(r, 300));
}

/** Every span as the exporter sent it, as text: name, attributes, events, status. */
function spanText(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events,
    status: span.status,
    links: span.links.map((l) => l.attributes ?? {}),
  });
}

async function everyDocument(): Promise<string[]> {
  const docs: string[] = [];
  for (const db of ['auth', 'rules'] as const) {
    const handle = stack.dbs[db].db!;
    for (const c of await handle.listCollections().toArray())
      for (const doc of await handle.collection(c.name).find({}).toArray())
        docs.push(`${db}.${c.name} ${JSON.stringify(doc)}`);
  }
  return docs;
}

describe('secrets', () => {
  it('S13: no token or secret in clear in logs, spans or documents after install, refresh and uninstall', async () => {
    await lifeOfAShop();

    // The cycle really made what is checked.
    expect(issued.access.length).toBeGreaterThanOrEqual(3); // code grant, exchange, refresh
    expect(issued.refresh.length).toBeGreaterThanOrEqual(3);
    expect(logLines.length).toBeGreaterThan(10);
    const spans = spanExporter.getFinishedSpans();
    const httpSpans = spans.filter((s) => s.attributes['http.request.method'] !== undefined);
    expect(httpSpans.length).toBeGreaterThan(0);
    const texts = spans.map(spanText);
    const secrets: Array<[string, string]> = [
      ['the app secret', API_SECRET],
      ...issued.access.map((t): [string, string] => ['an access token', t]),
      ...issued.refresh.map((t): [string, string] => ['a refresh token', t]),
      ...sessionTokens.map((t): [string, string] => ['a session token', t]),
      ...oauthValues.code.map((v): [string, string] => ['the OAuth code', v]),
      ...oauthValues.hmac.map((v): [string, string] => ['the OAuth hmac', v]),
      ...oauthValues.state.map((v): [string, string] => ['the OAuth state', v]),
      ['the rate key', rateKey],
    ];
    const leaks = (where: string, items: string[], kinds: Array<[string, string]>) =>
      items.flatMap((text, i) =>
        kinds
          .filter(([, secret]) => text.includes(secret))
          .map(([what]) => `${what} in ${where} #${i}: ${text.slice(0, 300)}`),
      );
    expect(leaks('log line', logLines, secrets)).toEqual([]);
    expect(leaks('span', texts, secrets)).toEqual([]);

    const tokens: Array<[string, string]> = [
      ...issued.access.map((t): [string, string] => ['an access token', t]),
      ...issued.refresh.map((t): [string, string] => ['a refresh token', t]),
      // Any token of the double's shape, even one this test did not see issued.
      ['an access token (shpat_)', 'shpat_'],
      ['a refresh token (shprt_)', 'shprt_'],
    ];
    const docs = await everyDocument();
    expect(docs.some((d) => d.startsWith('auth.tokens '))).toBe(true); // the embedded shop's
    expect(leaks('document', docs, tokens)).toEqual([]);

    // The redaction ran on what was there: the callback's query, our own client span.
    expect(texts.some((t) => t.includes('code=[redacted]') && t.includes('hmac=[redacted]'))).toBe(
      true,
    );
    // (The carrier callback makes no span: its server emits unwrapped, for speed. The rate
    // key was still looked for everywhere above.)
    expect(
      httpSpans.some(
        (s) =>
          String(s.attributes['url.full'] ?? '').includes('/auth/callback?') &&
          String(s.attributes['url.full']).includes('state=[redacted]'),
      ),
    ).toBe(true);
  });
});
