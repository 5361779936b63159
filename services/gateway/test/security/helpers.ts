import { createHmac, randomBytes } from 'node:crypto';
import { sentCondition, sentFilter } from '@ratesmith/contracts/testing';
import { API_SECRET, ratesmithInEveryZone, until, type Stack } from '../harness';

export { until };

/** Shared by the security suite (docs/security.md): seeding, snapshots of stored data, raw requests. */

export const condition = sentCondition;

/**
 * What seeding and the stored-data checks need of a stack: the harness's, or
 * the same four things of the app run as processes (noisy-stack.ts).
 */
export type ShopStack = Pick<Stack, 'api' | 'token' | 'dbs' | 'carrierUrl'>;

/** A filter the rules service accepts, its texts carrying `label` so a leak is easy to spot. */
export const filterJson = (label: string) =>
  sentFilter({
    name: `${label} filter`,
    shipping_name: `${label} rate`,
    shipping_description: `${label} description`,
  });

export const cart = (price = 1250, country = 'US') => ({
  destination: { country },
  currency: 'USD',
  items: [{ price, quantity: 2, product_id: 123, variant_id: 456, name: 'Hat' }],
});

export const gid = (id: number | string) => `gid://shopify/Product/${id}`;
/** An id of the same form as the stored ones (ObjectId hex) that names nothing. */
export const missingId = () => randomBytes(12).toString('hex');

export interface Seeded {
  shop: string;
  /** [active, inactive] */
  rulesetIds: string[];
  productRuleIds: string[];
  productIds: string[];
  /** Texts only this shop stored: none may appear in another shop's answers. */
  markers: string[];
}

async function ok(
  stack: ShopStack,
  token: string,
  path: string,
  init: { method?: string; json?: unknown } = {},
) {
  const res = await stack.api(path, { token, ...init });
  if (res.status !== 200) throw new Error(`${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Two rulesets with filters (one active), a product rule with filters and
 * settings, every text carrying `label`. `productId` must be in the shop's
 * catalog at the Shopify double.
 */
export async function seedShop(
  stack: ShopStack,
  shop: string,
  label: string,
  productId: number,
): Promise<Seeded> {
  const token = stack.token(shop);
  const rulesetIds: string[] = [];
  for (const n of ['one', 'two']) {
    const created = await ok(stack, token, '/api/global-rules', {
      method: 'POST',
      json: { name: `${label} ruleset ${n}` },
    });
    const id = created.rule.id as string;
    await ok(stack, token, `/api/global-rules/update/${id}`, {
      method: 'POST',
      json: { rules: [filterJson(`${label} ${n}`)] },
    });
    rulesetIds.push(id);
  }
  await ok(stack, token, `/api/global-rules/${rulesetIds[0]}/toggle`);
  await ok(stack, token, '/api/product-rules/add-shopify-product', {
    method: 'POST',
    json: { products: [gid(productId)] },
  });
  const list = await ok(stack, token, '/api/product-rules');
  const productRuleIds = (list.products.data as { id: string }[]).map((r) => r.id);
  await ok(stack, token, `/api/product-rules/update/${productRuleIds[0]}`, {
    method: 'POST',
    json: { rules: [filterJson(`${label} product`)] },
  });
  await ok(stack, token, '/api/settings', {
    method: 'POST',
    json: {
      carrier_name: `${label} carrier`,
      carrier_description: `${label} carrier text`,
      bump_shipping_enabled: true,
      bump_shipping_name: `${label} bump`,
      bump_shipping_action: 1,
      bump_shipping_cost: 3,
    },
  });
  // Each save's version is written after its answer; a read of the history waits for them.
  await ok(stack, token, '/api/activity');
  // The snapshot's publish mark is written after the answer too, and nothing waits for it:
  // the shop's documents are complete once they stop changing, before a test takes them as
  // its baseline (a baseline read before the last mark failed three tests once).
  await settledDocuments(stack, shop);
  return {
    shop,
    rulesetIds,
    productRuleIds,
    productIds: [String(productId)],
    markers: [`${label} ruleset`, `${label} one`, `${label} two`, `${label} product`, label],
  };
}

/**
 * Written by the rate engine's outcome batches seconds after a carrier
 * callback (docs/architecture.md, checkout outcomes and recent checkouts): a
 * shop's own checkouts land there at any time, whatever an attacker does.
 */
export const WRITTEN_IN_BACKGROUND = new Set([
  'checkout_outcome_days',
  'checkout_sample_carts',
  'recent_checkouts',
]);

/**
 * Every stored document that names the shop, in every collection of both
 * databases but those its own checkouts write in the background, as one
 * canonical string (collections and documents sorted), so "byte-identical
 * before and after" is one comparison.
 */
export async function shopDocuments(stack: ShopStack, shop: string): Promise<string> {
  const parts: string[] = [];
  for (const name of ['rules', 'auth'] as const) {
    const db = stack.dbs[name].db!;
    const collections = (await db.listCollections().toArray()).map((c) => c.name).sort();
    for (const collection of collections) {
      if (WRITTEN_IN_BACKGROUND.has(collection)) continue;
      const docs = await db.collection(collection).find({}).toArray();
      const mine = docs.map((d) => JSON.stringify(d)).filter((json) => json.includes(shop));
      parts.push(`${name}.${collection}: ${mine.sort().join('\n')}`);
    }
  }
  return parts.join('\n');
}

/** The shop's documents once two reads 300 ms apart agree (at most 10 s). */
export async function settledDocuments(stack: ShopStack, shop: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  let last = await shopDocuments(stack, shop);
  for (;;) {
    await new Promise((r) => setTimeout(r, 300));
    const now = await shopDocuments(stack, shop);
    if (now === last) return now;
    if (Date.now() > deadline) throw new Error(`the documents of ${shop} kept changing for 10 s`);
    last = now;
  }
}

/** The shop's documents in the collections keyed by `shop` (cheaper: one indexed query each). */
export async function shopDocumentsByKey(stack: ShopStack, shop: string): Promise<string> {
  const parts: string[] = [];
  for (const [name, collection] of [
    ['rules', 'rulesets'],
    ['rules', 'product_rules'],
    ['rules', 'shop_settings'],
    ['auth', 'shops'],
    ['auth', 'tokens'],
    ['auth', 'oauth_states'],
  ] as const) {
    const docs = await stack.dbs[name].db!.collection(collection).find({ shop }).toArray();
    parts.push(`${collection}: ${docs.map((d) => JSON.stringify(d)).join('\n')}`);
  }
  return parts.join('\n');
}

/** A raw request: the body is sent byte for byte (so `__proto__` stays an own JSON key). */
export async function raw(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; text: string; ms: number; headers: Headers }> {
  const started = performance.now();
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: init.headers,
    body: init.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - started, headers: res.headers };
}

/** Shopify's webhook and carrier-callback signature: base64 HMAC-SHA256 of the exact bytes. */
export const signBody = (body: string | Buffer, secret = API_SECRET) =>
  createHmac('sha256', secret).update(body).digest('base64');

/** The shop's rate key, once the auth service gave it one and the engine answers for it. */
export async function rateKeyOf(
  stack: ShopStack,
  shop: string,
  secret = API_SECRET,
): Promise<string> {
  const doc = await until(
    () => stack.dbs.auth.db!.collection('shops').findOne({ shop }),
    (d) => typeof d?.rate_key === 'string' && d.rate_key.length > 0,
    `the rate key of ${shop}`,
  );
  const key = doc!.rate_key as string;
  const body = JSON.stringify({ rate: cart() });
  await until(
    () =>
      raw(`${stack.carrierUrl}/carrier/rates/${key}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-hmac-sha256': signBody(body, secret),
        },
        body,
      }),
    (r) => r.status === 200,
    `the carrier callback to answer for ${shop}`,
  );
  return key;
}

/**
 * A checkout of the seeded shop through the Shopify double, then the id of the
 * recent checkout the engine sampled from it (it arrives with the next batch).
 */
export async function recentCheckoutOf(stack: Stack, shop: string): Promise<string> {
  ratesmithInEveryZone(stack, shop);
  await until(
    async () => (await stack.shopify.checkout(shop))[0]!.body as { rates?: unknown[] },
    (body) => (body.rates?.length ?? 0) > 0,
    'a rate at checkout',
  );
  const listed = await until(
    async () =>
      (await stack.api('/api/recent-checkouts', { token: stack.token(shop) })).body as {
        checkouts?: { id: string }[];
      },
    (body) => (body.checkouts?.length ?? 0) > 0,
    'a recent checkout',
    20_000,
  );
  return listed.checkouts![0]!.id;
}
