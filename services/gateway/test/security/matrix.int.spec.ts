import { DEMO_CATALOG } from '@ratesmith/shopify-double';
import { SHOP_A, SHOP_B, startStack, type Stack } from '../harness';
import {
  cart,
  filterJson,
  gid,
  missingId,
  recentCheckoutOf,
  seedShop,
  shopDocuments,
  type Seeded,
} from './helpers';

/**
 * S1 (no cross-shop read or write), S2 (the shop comes only from the verified
 * token) and S3 (mass assignment) over every /api route of the README's table.
 * Shop A's session attacks shop B: B's ids, B's shop in the query, the body and
 * headers. B's stored documents must stay byte-identical and no answer may
 * carry B's data.
 */

let stack: Stack;
let a: Seeded;
let b: Seeded;
let bBefore: string;
let bRevision: number;
/** B's Shopify profiles in the double: A's go-live and undo must never touch them. */
let bProfiles: string;
/** A checkout each shop's carrier callback left in Recent checkouts. */
let aRecent: string;
let bRecent: string;
/** Every answer A got in this file: none may carry B's texts or B's product. */
const answers: { call: string; text: string }[] = [];

const B_PRODUCT = { id: 990_777, title: 'B-secret lamp' };

beforeAll(async () => {
  stack = await startStack();
  stack.shopify.products.setProducts(SHOP_B, [
    {
      ...B_PRODUCT,
      handle: 'b-secret-lamp',
      vendor: 'B',
      image: null,
      variants: [{ id: 990_778, title: 'Default Title', price: '30.00' }],
    },
  ]);
  a = await seedShop(stack, SHOP_A, 'Alpha-owned', DEMO_CATALOG[0]!.id);
  b = await seedShop(stack, SHOP_B, 'Bravo-secret', B_PRODUCT.id);
  b.markers.push(B_PRODUCT.title);
  aRecent = await recentCheckoutOf(stack, SHOP_A);
  bRecent = await recentCheckoutOf(stack, SHOP_B);
  bBefore = await shopDocuments(stack, SHOP_B);
  bRevision = (await stack.kv.get(SHOP_B))!.revision;
  bProfiles = JSON.stringify(stack.shopify.deliveryProfiles.get(SHOP_B));
}, 60_000);
afterAll(() => stack?.stop());

interface Call {
  method: string;
  path: string;
  json?: Record<string, unknown>;
}

/** A's call: recorded, so every answer is checked for B's data. */
async function asA(call: Call, init: { headers?: Record<string, string> } = {}) {
  const res = await stack.api(call.path, {
    method: call.method,
    json: call.json,
    headers: init.headers,
  });
  answers.push({
    call: `${call.method} ${call.path} ${JSON.stringify(call.json ?? '')}`,
    text: JSON.stringify(res.body),
  });
  return res;
}

const withQuery = (path: string, query: string) =>
  `${path}${path.includes('?') ? '&' : '?'}${query}`;

/**
 * The README's /api table, one row per route. `own` is A's legitimate call
 * (async: deletes need a fresh target each time); `target` is the same call
 * aimed at an id, used with B's ids and with random missing ids.
 */
interface Route {
  name: string;
  /** Reads answer the same body however often they are called. */
  read: boolean;
  /** The status of A's own call (200 unless said). */
  ok?: number;
  own: () => Promise<Call>;
  target?: (id: string) => Call;
  /** Which of B's ids `target` is aimed at. */
  foreign?: () => string;
}

const rs = (id: string) => `/api/global-rules/${id}`;
const pr = (id: string) => `/api/product-rules/${id}`;

async function tempRuleset(): Promise<string> {
  const res = await stack.api('/api/global-rules', { method: 'POST', json: { name: 'temp' } });
  return res.body.rule.id as string;
}
let nextProduct = 1;
async function tempProductRule(): Promise<string> {
  const product = DEMO_CATALOG[nextProduct++]!;
  await stack.api('/api/product-rules/add-shopify-product', {
    method: 'POST',
    json: { products: [gid(product.id)] },
  });
  const list = await stack.api('/api/product-rules');
  return (list.body.products.data as { id: string; product_id: string }[]).find(
    (r) => r.product_id === String(product.id),
  )!.id;
}

/**
 * A's go-live undone if one is recorded, then A's ruleset started in shadow.
 * Shopify's rates stay on here: each read of them costs most of the double's
 * throttle bucket, and turning another shop's rates off is refused in
 * services/gateway/test/shadow.int.spec.ts.
 */
async function readyToGoLive(): Promise<void> {
  if ((await stack.api('/api/shadow')).body.go_live)
    await stack.api('/api/shadow/undo-go-live', { method: 'POST' });
  await stack.api('/api/shadow', { method: 'POST', json: { ruleset_id: a.rulesetIds[0]! } });
}

const ROUTES: Route[] = [
  {
    name: 'GET /api/global-rules',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/global-rules' }),
  },
  {
    name: 'POST /api/global-rules',
    read: false,
    own: async () => ({ method: 'POST', path: '/api/global-rules', json: { name: 'Made by A' } }),
  },
  {
    name: 'GET /api/global-rules/{id}/toggle',
    read: false,
    own: async () => ({ method: 'GET', path: `${rs(a.rulesetIds[1]!)}/toggle` }),
    target: (id) => ({ method: 'GET', path: `${rs(id)}/toggle` }),
    foreign: () => b.rulesetIds[0]!,
  },
  {
    name: 'DELETE /api/global-rules/{id}',
    read: false,
    own: async () => ({ method: 'DELETE', path: rs(await tempRuleset()) }),
    target: (id) => ({ method: 'DELETE', path: rs(id) }),
    foreign: () => b.rulesetIds[1]!,
  },
  {
    name: 'POST /api/global-rules/{id}/duplicate',
    read: false,
    own: async () => ({ method: 'POST', path: `${rs(a.rulesetIds[0]!)}/duplicate` }),
    target: (id) => ({ method: 'POST', path: `${rs(id)}/duplicate` }),
    foreign: () => b.rulesetIds[0]!,
  },
  {
    name: 'POST /api/global-rules/{id}/rename',
    read: false,
    own: async () => ({
      method: 'POST',
      path: `${rs(a.rulesetIds[0]!)}/rename`,
      json: { name: 'Renamed by A' },
    }),
    target: (id) => ({ method: 'POST', path: `${rs(id)}/rename`, json: { name: 'Renamed by A' } }),
    foreign: () => b.rulesetIds[0]!,
  },
  {
    name: 'GET /api/global-rules/rules?globalRuleId=',
    read: true,
    own: async () => ({
      method: 'GET',
      path: `/api/global-rules/rules?globalRuleId=${a.rulesetIds[0]}`,
    }),
    target: (id) => ({ method: 'GET', path: `/api/global-rules/rules?globalRuleId=${id}` }),
    foreign: () => b.rulesetIds[0]!,
  },
  {
    name: 'POST /api/global-rules/update/{id}',
    read: false,
    own: async () => ({
      method: 'POST',
      path: `/api/global-rules/update/${a.rulesetIds[1]}`,
      json: { rules: [filterJson('Alpha-owned two')] },
    }),
    target: (id) => ({
      method: 'POST',
      path: `/api/global-rules/update/${id}`,
      json: { rules: [filterJson('Overwritten by A')] },
    }),
    foreign: () => b.rulesetIds[0]!,
  },
  {
    name: 'GET /api/global-rules/{id}/versions',
    read: true,
    own: async () => ({ method: 'GET', path: `${rs(a.rulesetIds[0]!)}/versions` }),
    target: (id) => ({ method: 'GET', path: `${rs(id)}/versions` }),
    foreign: () => b.rulesetIds[0]!,
  },
  {
    name: 'GET /api/global-rules/{id}/versions/{n}',
    read: true,
    own: async () => ({ method: 'GET', path: `${rs(a.rulesetIds[0]!)}/versions/1` }),
    target: (id) => ({ method: 'GET', path: `${rs(id)}/versions/1` }),
    foreign: () => b.rulesetIds[0]!,
  },
  {
    // Version 1 is what seedShop saved: restoring it again and again is allowed, and A's own.
    name: 'POST /api/global-rules/{id}/versions/{n}/restore',
    read: false,
    own: async () => ({ method: 'POST', path: `${rs(a.rulesetIds[0]!)}/versions/1/restore` }),
    target: (id) => ({ method: 'POST', path: `${rs(id)}/versions/1/restore` }),
    foreign: () => b.rulesetIds[0]!,
  },
  {
    name: 'GET /api/activity',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/activity' }),
  },
  {
    name: 'GET /api/product-rules',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/product-rules' }),
  },
  {
    name: 'GET /api/product-rules/shopify-products',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/product-rules/shopify-products?search=' }),
  },
  {
    name: 'GET /api/product-rules/shopify-products/{id}/variants',
    read: true,
    own: async () => ({
      method: 'GET',
      path: `/api/product-rules/shopify-products/${DEMO_CATALOG[0]!.id}/variants`,
    }),
    // B's product is in B's store only: for A it is as unknown as a made-up number.
    target: (id) => ({ method: 'GET', path: `/api/product-rules/shopify-products/${id}/variants` }),
    foreign: () => String(B_PRODUCT.id),
  },
  {
    name: 'POST /api/product-rules/add-shopify-product',
    read: false,
    own: async () => ({
      method: 'POST',
      path: '/api/product-rules/add-shopify-product',
      json: { products: [gid(DEMO_CATALOG[nextProduct++]!.id)] },
    }),
    // B's product is in B's store only: for A it is as unknown as a made-up id.
    target: (id) => ({
      method: 'POST',
      path: '/api/product-rules/add-shopify-product',
      json: { products: [gid(id)] },
    }),
    foreign: () => String(B_PRODUCT.id),
  },
  {
    name: 'GET /api/product-rules/{id}/rules',
    read: true,
    own: async () => ({ method: 'GET', path: `${pr(a.productRuleIds[0]!)}/rules` }),
    target: (id) => ({ method: 'GET', path: `${pr(id)}/rules` }),
    foreign: () => b.productRuleIds[0]!,
  },
  {
    name: 'POST /api/product-rules/update/{id}',
    read: false,
    own: async () => ({
      method: 'POST',
      path: `/api/product-rules/update/${a.productRuleIds[0]}`,
      json: { rules: [filterJson('Alpha-owned product')] },
    }),
    target: (id) => ({
      method: 'POST',
      path: `/api/product-rules/update/${id}`,
      json: { rules: [filterJson('Overwritten by A')] },
    }),
    foreign: () => b.productRuleIds[0]!,
  },
  {
    name: 'GET /api/product-rules/{id}/toggle',
    read: false,
    own: async () => ({ method: 'GET', path: `${pr(a.productRuleIds[0]!)}/toggle` }),
    target: (id) => ({ method: 'GET', path: `${pr(id)}/toggle` }),
    foreign: () => b.productRuleIds[0]!,
  },
  {
    name: 'DELETE /api/product-rules/{id}',
    read: false,
    own: async () => ({ method: 'DELETE', path: pr(await tempProductRule()) }),
    target: (id) => ({ method: 'DELETE', path: pr(id) }),
    foreign: () => b.productRuleIds[0]!,
  },
  {
    name: 'GET /api/product-rules/{id}/versions',
    read: true,
    own: async () => ({ method: 'GET', path: `${pr(a.productRuleIds[0]!)}/versions` }),
    target: (id) => ({ method: 'GET', path: `${pr(id)}/versions` }),
    foreign: () => b.productRuleIds[0]!,
  },
  {
    name: 'GET /api/product-rules/{id}/versions/{n}',
    read: true,
    own: async () => ({ method: 'GET', path: `${pr(a.productRuleIds[0]!)}/versions/1` }),
    target: (id) => ({ method: 'GET', path: `${pr(id)}/versions/1` }),
    foreign: () => b.productRuleIds[0]!,
  },
  {
    // Version 1 is what seedShop saved.
    name: 'POST /api/product-rules/{id}/versions/{n}/restore',
    read: false,
    own: async () => ({ method: 'POST', path: `${pr(a.productRuleIds[0]!)}/versions/1/restore` }),
    target: (id) => ({ method: 'POST', path: `${pr(id)}/versions/1/restore` }),
    foreign: () => b.productRuleIds[0]!,
  },
  {
    name: 'GET /api/settings',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/settings' }),
  },
  {
    name: 'POST /api/settings',
    read: false,
    own: async () => ({
      method: 'POST',
      path: '/api/settings',
      json: { carrier_name: 'Alpha-owned carrier', bump_shipping_enabled: false },
    }),
  },
  // Not `read`: a check may move checked_at between two answers.
  {
    name: 'GET /api/carrier-service',
    read: false,
    own: async () => ({ method: 'GET', path: '/api/carrier-service' }),
  },
  {
    name: 'POST /api/carrier-service/check',
    read: false,
    own: async () => ({ method: 'POST', path: '/api/carrier-service/check', json: {} }),
  },
  {
    name: 'GET /api/shipping-zones',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/shipping-zones' }),
  },
  // An empty list only records the merchant's choice: A's zones stay as they are.
  {
    name: 'POST /api/shipping-zones',
    read: false,
    own: async () => ({
      method: 'POST',
      path: '/api/shipping-zones',
      json: { zone_ids: [], ratesmith: true },
    }),
  },
  {
    name: 'GET /api/shipping-import',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/shipping-import' }),
  },
  // A plan A never saw: refused as changed (409) after reading A's rates, writing nothing.
  {
    name: 'POST /api/shipping-import',
    read: false,
    ok: 409,
    own: async () => ({
      method: 'POST',
      path: '/api/shipping-import',
      json: { plan: '0'.repeat(64) },
    }),
  },
  {
    name: 'GET /api/shadow',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/shadow' }),
  },
  // A's ruleset in shadow against A's native rates; B's ruleset is not found for A.
  {
    name: 'POST /api/shadow',
    read: false,
    own: async () => ({
      method: 'POST',
      path: '/api/shadow',
      json: { ruleset_id: a.rulesetIds[0]! },
    }),
    target: (id) => ({ method: 'POST', path: '/api/shadow', json: { ruleset_id: id } }),
    foreign: () => b.rulesetIds[0]!,
  },
  // A's own Shopify rates that going live would turn off, read from A's profiles.
  {
    name: 'GET /api/shadow/go-live',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/shadow/go-live' }),
  },
  // A's own shadow goes live (started first); B's shadow and B's Shopify rates are not A's to touch.
  {
    name: 'POST /api/shadow/go-live',
    read: false,
    own: async () => {
      await readyToGoLive();
      return { method: 'POST', path: '/api/shadow/go-live', json: { turn_off_native: [] } };
    },
  },
  // A's own go-live is undone (made first): A's shadow back.
  {
    name: 'POST /api/shadow/undo-go-live',
    read: false,
    own: async () => {
      await readyToGoLive();
      const live = await stack.api('/api/shadow/go-live', { method: 'POST', json: {} });
      expect(live.status).toBe(200);
      return { method: 'POST', path: '/api/shadow/undo-go-live' };
    },
  },
  {
    name: 'DELETE /api/shadow',
    read: false,
    own: async () => ({ method: 'DELETE', path: '/api/shadow' }),
  },
  {
    name: 'POST /api/rate-preview (saved rules)',
    read: true,
    own: async () => ({ method: 'POST', path: '/api/rate-preview', json: { rate: cart() } }),
  },
  {
    name: 'POST /api/rate-preview (draft)',
    read: true,
    own: async () => ({
      method: 'POST',
      path: '/api/rate-preview',
      json: { rate: cart(), draft: { globalRuleId: a.rulesetIds[0], rules: [filterJson('d')] } },
    }),
    target: (id) => ({
      method: 'POST',
      path: '/api/rate-preview',
      json: { rate: cart(), draft: { globalRuleId: id, rules: [filterJson('d')] } },
    }),
    foreign: () => b.rulesetIds[0]!,
  },
  {
    // A product rule's unsaved filters: the id names a rule of the token's shop, or nothing.
    name: "POST /api/rate-preview (a product rule's unsaved filters)",
    read: true,
    own: async () => ({
      method: 'POST',
      path: '/api/rate-preview',
      json: { rate: cart(), draft: { productRuleId: a.productRuleIds[0], rules: [] } },
    }),
    target: (id) => ({
      method: 'POST',
      path: '/api/rate-preview',
      json: { rate: cart(), draft: { productRuleId: id, rules: [] } },
    }),
    foreign: () => b.productRuleIds[0]!,
  },
  {
    name: 'GET /api/shop',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/shop' }),
  },
  {
    name: 'GET /api/checkout-outcomes',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/checkout-outcomes' }),
  },
  {
    name: 'GET /api/analytics',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/analytics?days=30' }),
  },
  {
    name: 'GET /api/analytics/filters (ruleset)',
    read: true,
    own: async () => ({
      method: 'GET',
      path: `/api/analytics/filters?owner=ruleset&id=${a.rulesetIds[0]}`,
    }),
    target: (id) => ({ method: 'GET', path: `/api/analytics/filters?owner=ruleset&id=${id}` }),
    foreign: () => b.rulesetIds[0]!,
  },
  {
    name: 'GET /api/analytics/filters (product rule)',
    read: true,
    own: async () => ({
      method: 'GET',
      path: `/api/analytics/filters?owner=product_rule&id=${a.productRuleIds[0]}`,
    }),
    target: (id) => ({
      method: 'GET',
      path: `/api/analytics/filters?owner=product_rule&id=${id}`,
    }),
    foreign: () => b.productRuleIds[0]!,
  },
  // Not `read`: each export carries the time it was made.
  {
    name: 'GET /api/config/export',
    read: false,
    own: async () => ({ method: 'GET', path: '/api/config/export' }),
  },
  {
    // B's product named in A's file: looked up in A's store only, so reported missing.
    name: 'POST /api/config/import?dry_run=1',
    read: true,
    own: async () => ({
      method: 'POST',
      path: '/api/config/import?dry_run=1',
      json: configFile(B_PRODUCT.id),
    }),
  },
  {
    name: 'POST /api/config/import',
    read: false,
    own: async () => ({ method: 'POST', path: '/api/config/import', json: configFile() }),
  },
  // Recorded into the gateway's histograms only: nothing of a shop is kept.
  {
    name: 'POST /api/vitals',
    read: true,
    ok: 204,
    own: async () => ({
      method: 'POST',
      path: '/api/vitals',
      json: { page: '/', navigation: 'navigate', metrics: [{ name: 'LCP', value: 1200 }] },
    }),
  },
  {
    name: 'GET /api/recent-checkouts',
    read: true,
    own: async () => ({ method: 'GET', path: '/api/recent-checkouts' }),
  },
  {
    name: 'GET /api/recent-checkouts/{id}',
    read: true,
    own: async () => ({ method: 'GET', path: `/api/recent-checkouts/${aRecent}` }),
    target: (id) => ({ method: 'GET', path: `/api/recent-checkouts/${id}` }),
    foreign: () => bRecent,
  },
];

/** A configuration of A's own, under a name no other call uses (an import replaces by name). */
function configFile(productId = DEMO_CATALOG[0]!.id) {
  return {
    format: 'ratesmith-config',
    version: 1,
    exported_at: '2026-01-01T00:00:00.000Z',
    rulesets: [{ name: 'Imported by A', enabled: false, filters: [filterJson('Imported')] }],
    product_rules: [{ product_id: String(productId), enabled: true, filters: [] }],
    settings: { carrier_name: 'Alpha-owned carrier', bump_shipping_enabled: false },
  };
}

/** Ways of naming B that must be ignored (the shop comes from the token only). */
const IGNORED_HEADERS = {
  shop: SHOP_B,
  'x-shop-domain': SHOP_B,
  'x-shopify-shop-domain': SHOP_B,
  'x-forwarded-host': SHOP_B,
  'x-shop-id': SHOP_B,
  shopid: SHOP_B,
};
const IGNORED_QUERY = `shopId=${SHOP_B}&shop_domain=${SHOP_B}&myshopify_domain=${SHOP_B}`;
const IGNORED_BODY = { shopId: SHOP_B, shop_id: SHOP_B, shopDomain: SHOP_B, domain: SHOP_B };

describe('S1: foreign ids are answered like missing ones, and change nothing', () => {
  const targeted = ROUTES.filter((r) => r.target);
  it.each(targeted.map((r) => [r.name, r] as const))(
    'S1: %s with B ids → same answer as a random missing id',
    async (_name, route) => {
      const foreignId = route.foreign!();
      // Store products are Shopify numbers; the app's own ids are database ids.
      const fakeId = route.name.includes('shopify-product') ? '990999' : missingId();
      const foreign = await asA(route.target!(foreignId));
      const missing = await asA(route.target!(fakeId));
      // The preview's draft id is only a label in the trace: 200, nothing of B's.
      const expected = route.name.includes('draft') ? 200 : route.name.includes('add-') ? 400 : 404;
      expect(foreign.status).toBe(expected);
      expect(missing.status).toBe(expected);
      const scrub = (body: unknown, id: string) => JSON.stringify(body).split(id).join('<id>');
      expect(scrub(foreign.body, foreignId)).toBe(scrub(missing.body, fakeId));
    },
  );
});

describe('S2: the shop comes from the session token only', () => {
  it.each(ROUTES.map((r) => [r.name, r] as const))(
    'S2: %s naming B in the query or body is a 403; in headers or other keys it is ignored',
    async (_name, route) => {
      const ok = route.ok ?? 200;
      const clean = await asA(await route.own());
      expect(clean.status).toBe(ok);

      const inQuery = await route.own();
      expect(
        (await asA({ ...inQuery, path: withQuery(inQuery.path, `shop=${SHOP_B}`) })).status,
      ).toBe(403);
      if (inQuery.json) {
        expect((await asA({ ...inQuery, json: { ...inQuery.json, shop: SHOP_B } })).status).toBe(
          403,
        );
        const body = await route.own();
        const ignoredBody = await asA({ ...body, json: { ...body.json, ...IGNORED_BODY } });
        expect(ignoredBody.status).toBe(ok);
        if (route.read) expect(ignoredBody.body).toEqual(clean.body);
      }
      const headers = await asA(await route.own(), { headers: IGNORED_HEADERS });
      expect(headers.status).toBe(ok);
      if (route.read) expect(headers.body).toEqual(clean.body);
      const query = await route.own();
      const ignoredQuery = await asA({ ...query, path: withQuery(query.path, IGNORED_QUERY) });
      expect(ignoredQuery.status).toBe(ok);
      if (route.read) expect(ignoredQuery.body).toEqual(clean.body);
    },
  );
});

/** Keys no client may set, before the real ones (so those win) at every level of the body. */
const extras = (foreignId: string) => ({
  _id: foreignId,
  id: foreignId,
  __v: 99,
  shop_id: SHOP_B,
  shopId: SHOP_B,
  createdAt: '2001-01-01T00:00:00.000Z',
  updatedAt: '2001-01-01T00:00:00.000Z',
  created_at: '2001-01-01T00:00:00.000Z',
  $set: { shop: SHOP_B, name: 'set by $set' },
  $inc: { __v: 1000 },
  constructor: { prototype: { polluted: 'yes' } },
});

/** Raw JSON with the extra keys spliced in, and `__proto__` as an own key (JSON.stringify would drop it). */
function withExtras(value: unknown, foreignId: string): string {
  if (Array.isArray(value)) return `[${value.map((v) => withExtras(v, foreignId)).join(',')}]`;
  if (value && typeof value === 'object') {
    const members = [JSON.stringify(extras(foreignId)).slice(1, -1)];
    for (const [k, v] of Object.entries(value))
      members.push(`${JSON.stringify(k)}:${withExtras(v, foreignId)}`);
    members.push(`"__proto__":{"polluted":"yes","shop":"${SHOP_B}"}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Keys and value types of a stored document, recursively (values themselves differ). */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shape(value[0])] : [];
  if (value instanceof Date) return 'date';
  if (value && typeof value === 'object' && value.constructor?.name === 'ObjectId') return 'oid';
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .sort(([x], [y]) => x.localeCompare(y))
        .map(([k, v]) => [k, shape(v)]),
    );
  return value === null ? 'null' : typeof value;
}

const rulesDb = () => stack.dbs.rules.db!;
/** A stored document with the fields every save changes left out. */
const stable = (doc: Record<string, unknown> | null) => {
  const { updatedAt: _u, ...rest } = doc ?? {};
  return JSON.stringify(rest);
};

describe('S3: extra keys on every write route never change stored fields', () => {
  const dirty = (path: string, json: Record<string, unknown>) =>
    stack.api(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: withExtras(json, b.rulesetIds[0]!),
    });

  it('S3: POST /api/global-rules stores a ruleset shaped like a clean one, for A', async () => {
    const started = Date.now();
    const clean = await stack.api('/api/global-rules', { method: 'POST', json: { name: 'Clean' } });
    const res = await dirty('/api/global-rules', { name: 'Dirty' });
    expect(res.status).toBe(200);
    const cleanDoc = await rulesDb().collection('rulesets').findOne({ name: 'Clean' });
    const doc = await rulesDb().collection('rulesets').findOne({ name: 'Dirty' });
    expect(shape(doc)).toEqual(shape(cleanDoc));
    expect(doc!.shop).toBe(SHOP_A);
    expect(String(doc!._id)).toBe(res.body.rule.id);
    expect(String(doc!._id)).not.toBe(b.rulesetIds[0]);
    expect((doc!.createdAt as Date).getTime()).toBeGreaterThanOrEqual(started - 1000);
    expect(clean.status).toBe(200);
  });

  it.each([
    ['POST /api/global-rules/update/{id}', 'rulesets', () => a.rulesetIds[1]!, 'global-rules'],
    [
      'POST /api/product-rules/update/{id}',
      'product_rules',
      () => a.productRuleIds[0]!,
      'product-rules',
    ],
  ])(
    'S3: %s with extra keys at every level stores what the clean save stored',
    async (_n, collection, id, base) => {
      const path = `/api/${base}/update/${id()}`;
      const first = await stack.api(path, { method: 'POST', json: { rules: [filterJson('S3')] } });
      expect(first.status).toBe(200);
      // Saved again with the ids the first save gave, so a clean save is a no-op.
      const again = await stack.api(path, { method: 'POST', json: { rules: first.body.rules } });
      expect(again.status).toBe(200);
      const { ObjectId } = await import('mongodb');
      const find = () =>
        rulesDb()
          .collection(collection)
          .findOne({ _id: new ObjectId(id()) });
      const before = await find();
      const res = await dirty(path, { rules: first.body.rules });
      expect(res.status).toBe(200);
      const after = await find();
      expect(stable(after)).toBe(stable(before));
    },
  );

  it('S3: POST /api/settings with extra keys stores what the clean save stored', async () => {
    const json = { carrier_name: 'S3 carrier', bump_shipping_enabled: false };
    expect((await stack.api('/api/settings', { method: 'POST', json })).status).toBe(200);
    const find = () => rulesDb().collection('shop_settings').findOne({ shop: SHOP_A });
    const before = await find();
    const res = await dirty('/api/settings', json);
    expect(res.status).toBe(200);
    expect(stable(await find())).toBe(stable(before));
  });

  it('S3: POST /api/product-rules/add-shopify-product stores a product rule shaped like the others, for A', async () => {
    const product = DEMO_CATALOG[30]!;
    const res = await dirty('/api/product-rules/add-shopify-product', {
      products: [gid(product.id)],
    });
    expect(res.status).toBe(200);
    const doc = await rulesDb()
      .collection('product_rules')
      .findOne({ shop: SHOP_A, product_id: String(product.id) });
    const other = await rulesDb()
      .collection('product_rules')
      .findOne({ shop: SHOP_A, product_id: String(DEMO_CATALOG[0]!.id) });
    expect(doc).not.toBeNull();
    expect(Object.keys(doc!).sort()).toEqual(Object.keys(other!).sort());
    expect(doc!.shop).toBe(SHOP_A);
  });

  it('S3: no prototype was polluted in the process that runs the gateway and the services', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  });
});

describe('S1: after every attack above', () => {
  it("S1: B's documents are byte-identical, B's snapshot unchanged, no answer to A carries B's data", async () => {
    expect(await shopDocuments(stack, SHOP_B)).toBe(bBefore);
    expect((await stack.kv.get(SHOP_B))!.revision).toBe(bRevision);
    expect(JSON.stringify(stack.shopify.deliveryProfiles.get(SHOP_B))).toBe(bProfiles);
    // An id is a leak only in an answer to a call that did not name it.
    const secrets = [...b.markers, SHOP_B, ...b.rulesetIds, ...b.productRuleIds, bRecent];
    const leaks = answers.filter(({ call, text }) =>
      secrets.some((m) => text.includes(m) && !call.includes(m)),
    );
    expect(leaks).toEqual([]);
    expect(answers.length).toBeGreaterThan(ROUTES.length * 4);
    // B still sees all of its own data.
    const list = await stack.api('/api/global-rules', { token: stack.token(SHOP_B) });
    expect(list.body.globalRules.map((r: { id: string }) => r.id).sort()).toEqual(
      [...b.rulesetIds].sort(),
    );
    process.stdout.write(
      `security matrix: ${ROUTES.length} routes, ${answers.length} calls as A against B, ${leaks.length} leaks\n`,
    );
  });
});
