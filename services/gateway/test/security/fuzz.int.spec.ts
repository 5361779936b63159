import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { DEMO_CATALOG, hostParam } from '@ratesmith/shopify-double';
import { startStack, type Stack } from '../harness';
import {
  cart,
  filterJson,
  gid,
  raw,
  rateKeyOf,
  recentCheckoutOf,
  seedShop,
  signBody,
  type Seeded,
  WRITTEN_IN_BACKGROUND,
} from './helpers';

/**
 * R17 (fuzzing never gives a 5xx or a crash), S4 (no NoSQL operator
 * injection), S9 (input limits): fast-check on every route, with
 * schema-aware inputs (valid bodies with mutated fields) and raw bytes
 * (random bodies, content types, paths with bad percent-encoding).
 * Properties per input: no 5xx (a 503 with Retry-After is load shedding: it
 * is counted, not failed), an answer within 1 s unless the whole machine is
 * slow (see `judgeSlow`), and nothing stored changed when the input was
 * refused (4xx). SECURITY_FUZZ_RUNS inputs per route: 100 in the default run (the
 * short form: docs/testing.md names the bug it was seen to catch), 10,000 in
 * `npm run test:security`. One stack for the whole file.
 */

const RUNS = Number(process.env.SECURITY_FUZZ_RUNS ?? 100);
const MAX_MS = 1000;
/** A reply over MAX_MS fails only if it is also this many times a normal GET measured around it. */
const SLOW_FACTOR = 10;
const SHOP = 'fuzz-shop.myshopify.com';
/** The fuzz shop's rules data, put back after every accepted write so each input meets the seeded state. */
const RULES_COLLECTIONS = ['rulesets', 'product_rules', 'shop_settings'] as const;

let stack: Stack;
let seeded: Seeded;
let rateKey: string;
let recentId: string;
let savedRules: Record<string, unknown>[][];
const totals = { inputs: 0, fivexx: 0, shed: 0, excused: 0, slowest: 0 };

beforeAll(async () => {
  // Public and carrier rate limits off, so the fuzzer reaches the handlers.
  stack = await startStack(
    { PUBLIC_RATE_LIMIT: '0', API_RATE_LIMIT: '0' },
    // A run can take longer than the 5-minute re-check of the carrier service on admin
    // loads, which would rewrite the shop's record between the before and after states.
    { CARRIER_LOAD_CHECK_INTERVAL_MS: String(24 * 3600_000) },
    {},
    {},
    { CARRIER_RATE_LIMIT: 0 },
  );
  seeded = await seedShop(stack, SHOP, 'Fuzz', DEMO_CATALOG[0]!.id);
  // The shop's currency is read from Shopify on the first GET /api/shop and kept
  // with the shop: read it here, so fuzzing that read route finds nothing stored.
  expect((await stack.api('/api/shop', { token: stack.token(SHOP) })).status).toBe(200);
  rateKey = await rateKeyOf(stack, SHOP);
  recentId = await recentCheckoutOf(stack, SHOP);
  // Seeding put Ratesmith in the shop's zones (the double's checkout asks it only there), and
  // GET /api/shipping-zones stores the coverage it reads: read it here, as the currency above.
  expect((await stack.api('/api/shipping-zones', { token: stack.token(SHOP) })).status).toBe(200);
  savedRules = await Promise.all(
    RULES_COLLECTIONS.map((c) =>
      stack.dbs.rules.db!.collection(c).find({ shop: SHOP }).sort({ _id: 1 }).toArray(),
    ),
  );
}, 60_000);
afterAll(async () => {
  process.stdout.write(
    `fuzz total: ${totals.inputs} inputs, ${totals.fivexx} 5xx (${totals.shed} of them 503 + Retry-After), ` +
      `${totals.excused} over 1 s on a slow machine, slowest ${Math.round(totals.slowest)} ms\n`,
  );
  await stack?.stop();
});

/** Puts the fuzz shop's rulesets, product rules and settings back as seeded (same ids, same bytes). */
async function restoreRules(only: readonly string[] = RULES_COLLECTIONS) {
  for (const [i, name] of RULES_COLLECTIONS.entries()) {
    if (!only.includes(name)) continue;
    const collection = stack.dbs.rules.db!.collection(name);
    await collection.deleteMany({ shop: SHOP });
    await collection.insertMany(savedRules[i]!.map((d) => ({ ...d })));
  }
}

// ---------------------------------------------------------------- arbitraries

/** Nested `depth` levels deep, as arrays or objects. */
const nested = (depth: number, asObject: boolean) =>
  asObject
    ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
    : `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Deep nesting, kept as a leaf while mutating and expanded only when serialised. */
class Deep {
  constructor(
    readonly depth: number,
    readonly asObject: boolean,
  ) {}
}

/** JSON text of a mutated value, with every Deep expanded in place. */
function serialise(value: unknown): string {
  const deep: Deep[] = [];
  const text =
    JSON.stringify(value, (_k, v: unknown) =>
      v instanceof Deep ? `\u0000deep${deep.push(v) - 1}\u0000` : v,
    ) ?? 'null';
  return text.replace(/"\\u0000deep(\d+)\\u0000"/g, (_m, i: string) => {
    const d = deep[Number(i)]!;
    return nested(d.depth, d.asObject);
  });
}

/**
 * Operator objects a MongoDB query would obey if they reached one unchecked,
 * as JSON text: every use parses a fresh copy, so no two inputs (and no two
 * places in one input) share an object, and a mutation can never make a cycle.
 */
const OPERATORS = [
  '{"$ne":null}',
  '{"$gt":""}',
  '{"$regex":".*"}',
  '{"$where":"sleep(5000) || true"}',
  '{"$exists":true}',
  '{"$in":["a","b"]}',
  '{"$expr":{"$eq":[1,1]}}',
  '{"$function":{"body":"return 1","args":[],"lang":"js"}}',
  // JSON.parse makes these own keys; assignment would have changed the prototype.
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
];
const NASTY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '$where',
  '$ne',
  '$regex',
  '$set',
  '$gt',
  'shop',
  '_id',
  '__v',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '',
  'a.b',
  '$',
];

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    -0,
    1e308,
    -1e308,
    2 ** 53 + 1,
    1e21,
    0.1 + 0.2,
    '',
    ' ',
    '0',
    '-0',
    '1e9999',
    'NaN',
    'Infinity',
    '\u0000',
    '\ud800',
    '𝕏'.repeat(50),
    'ﷺ'.repeat(100),
    '<script>alert(1)</script>',
    "'; db.dropDatabase(); //",
    '../../etc/passwd',
    'gid://shopify/Product/1',
  ),
  fc.constantFrom('[]', '{}', '[null]', ...OPERATORS).map((text) => JSON.parse(text) as unknown),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => Number(n)),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 1_000, max: 120_000 }).map((n) => 'x'.repeat(n)),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.dictionary(fc.constantFrom(...NASTY_KEYS), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  fc.integer({ min: 20, max: 3000 }).map((d) => new Deep(d, d % 2 === 0)),
);

type Path = (string | number)[];

function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));
  else if (value && typeof value === 'object' && !(value instanceof Deep))
    for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

/** Sets an own property, even `__proto__` (plain assignment would change the prototype). */
function define(target: Record<string | number, unknown>, key: string | number, value: unknown) {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (value && typeof value === 'object' && !(value instanceof Deep)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) define(out, k, clone(v));
    return out;
  }
  return value;
}

type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'add'; at: number; key: string; value: unknown }
  | { kind: 'remove'; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: nastyValue }),
  fc.record({
    kind: fc.constant('add' as const),
    at: fc.nat(),
    key: fc.oneof(fc.constantFrom(...NASTY_KEYS), fc.string({ maxLength: 10 })),
    value: nastyValue,
  }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
);

/**
 * The valid value with the mutations applied, as a new tree: neither `valid`
 * nor a mutation's value is changed, and every inserted value is a fresh copy
 * (fast-check hands out the same instance again, e.g. a constant or a value
 * replayed while shrinking; inserting it twice and then adding a key to it
 * made circular inputs and endless recursion).
 */
function applyMutations(valid: unknown, mutations: Mutation[]): unknown {
  let value = clone(valid);
  for (const original of mutations) {
    const m = 'value' in original ? { ...original, value: clone(original.value) } : original;
    const paths = pathsOf(value);
    const path = paths[m.at % paths.length]!;
    if (path.length === 0) {
      if (m.kind === 'replace') value = m.value;
      else if (m.kind === 'add' && value && typeof value === 'object')
        define(value as Record<string, unknown>, m.key, m.value);
      continue;
    }
    let parent = value as Record<string | number, unknown>;
    for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
    const last = path[path.length - 1]!;
    if (m.kind === 'replace') define(parent, last, m.value);
    else if (m.kind === 'remove') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else {
      const target = parent[last];
      if (
        target &&
        typeof target === 'object' &&
        !Array.isArray(target) &&
        !(target instanceof Deep)
      )
        define(target as Record<string, unknown>, m.key, m.value);
      else define(parent, last, m.value);
    }
  }
  return value;
}

/** A valid body with one to three mutations, serialised (bigint-free, `__proto__` kept). */
const mutatedJson = (valid: () => unknown) =>
  fc
    .array(mutation, { minLength: 1, maxLength: 3 })
    .map((ms) => serialise(applyMutations(valid(), ms)));

const BAD_ENCODINGS = [
  '%E0%A4%A',
  '%',
  '%%',
  '%zz',
  '%00',
  '%C0%AF',
  '..%2f',
  '%2e%2e',
  '%u0041',
  '%FF%FE',
  '%ED%A0%80',
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '',
  '*/*',
  'application/json, text/plain',
];

/** Raw input: a random body under a random content type. */
const rawBody = fc.record({
  body: fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
    fc.constantFrom(
      '',
      '{',
      '{"a":',
      '[1,]',
      '{"__proto__":{"polluted":1}}',
      'null',
      '1e99999',
      '"\\ud800"',
    ),
  ),
  contentType: fc.oneof(fc.constantFrom(...CONTENT_TYPES), fc.string({ maxLength: 30 })),
});

// ---------------------------------------------------------------- routes

interface Request {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** For the carrier callback: its own server. */
  carrier?: boolean;
}

interface FuzzRoute {
  name: string;
  /**
   * What the route can change (the fuzz shop's documents, or counts), as one
   * JSON string: read after every refused input and compared with the state
   * before it. Read-only routes have none: the whole stored state is compared
   * once, before and after the run.
   */
  state?: () => Promise<string>;
  /** Runs this many times RUNS (default 1). */
  share?: number;
  /** Before each input (e.g. a full Shopify cost bucket). */
  beforeEach?: () => void;
  input: () => fc.Arbitrary<Request>;
}

const pathArb = (base: string, segments: () => string[]) =>
  fc
    .oneof(
      { weight: 3, arbitrary: fc.constantFrom(...segments()) },
      { weight: 2, arbitrary: fc.constantFrom(...BAD_ENCODINGS) },
      { weight: 2, arbitrary: fc.string({ maxLength: 30 }).map(encodeURIComponent) },
      {
        weight: 1,
        arbitrary: fc.string({ unit: 'binary', maxLength: 10 }).map((s) => s.replace(/[/?#]/g, '')),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'x'.repeat(65),
          'x'.repeat(5000),
          '%24ne',
          '$ne',
          '[$ne]=1',
          '.',
          '..',
        ),
      },
    )
    .map((seg) => base.replace('{id}', seg));

const api =
  (
    method: string,
    path: string,
    valid?: () => unknown,
    /** The valid `{id}`s (default: the seeded rulesets' and product rules'). */
    ids: () => string[] = () => [...seeded.rulesetIds, ...seeded.productRuleIds],
  ): (() => fc.Arbitrary<Request>) =>
  () => {
    const paths = path.includes('{id}') ? pathArb(path, ids) : fc.constant(path);
    const body = valid
      ? fc.oneof(
          {
            weight: 3,
            arbitrary: mutatedJson(valid).map((b) => ({
              body: b,
              contentType: 'application/json',
            })),
          },
          { weight: 1, arbitrary: rawBody },
        )
      : fc.oneof(fc.constant({ body: undefined, contentType: undefined }), rawBody);
    const query = fc.oneof(
      { weight: 4, arbitrary: fc.constant('') },
      {
        weight: 1,
        arbitrary: fc
          .dictionary(
            fc.constantFrom(
              'shop',
              'globalRuleId',
              'search',
              'after',
              'before',
              'id',
              '__proto__',
              'a[$ne]',
            ),
            fc.string({ maxLength: 50 }),
            { maxKeys: 3 },
          )
          .map((q) => new URLSearchParams(q).toString()),
      },
      { weight: 1, arbitrary: fc.constantFrom(...BAD_ENCODINGS).map((e) => `search=${e}`) },
    );
    return fc.record({ p: paths, b: body, q: query }).map(({ p, b, q }) => ({
      method,
      path: q ? `${p}${p.includes('?') ? '&' : '?'}${q}` : p,
      body: b.body,
      contentType: b.contentType,
      headers: { authorization: `Bearer ${stack.token(SHOP)}` },
    }));
  };

const filtersBody = () => ({ rules: [filterJson('Fuzzed')] });
const settingsBody = () => ({
  carrier_name: 'Fuzz carrier',
  carrier_description: 'text',
  bump_shipping_enabled: true,
  bump_shipping_name: 'Bump',
  bump_shipping_action: 1,
  bump_shipping_cost: 3,
});

const docs = (db: 'rules' | 'auth', collection: string) => async () =>
  JSON.stringify(
    await stack.dbs[db].db!.collection(collection).find({ shop: SHOP }).sort({ _id: 1 }).toArray(),
  );
const counts = (db: 'rules' | 'auth', collections: string[]) => async () =>
  (
    await Promise.all(collections.map((c) => stack.dbs[db].db!.collection(c).countDocuments({})))
  ).join(',');
const RULESETS = docs('rules', 'rulesets');
const PRODUCT_RULES = docs('rules', 'product_rules');
const SETTINGS = docs('rules', 'shop_settings');
const OAUTH = counts('auth', ['oauth_states', 'shops', 'tokens']);
const WEBHOOK = async () =>
  `${await docs('auth', 'shops')()} ${await counts('rules', ['rulesets', 'product_rules'])()}`;
const ANY = async () => `${await RULESETS()} ${await PRODUCT_RULES()}`;
const CONFIG = async () => `${await ANY()} ${await SETTINGS()}`;
/** States made of the fuzz shop's rules data only, and the collections restoreRules puts back after an accepted write. */
const RESTORABLE = new Map<() => Promise<string>, (typeof RULES_COLLECTIONS)[number][]>([
  [RULESETS, ['rulesets']],
  [PRODUCT_RULES, ['product_rules']],
  [SETTINGS, ['shop_settings']],
  [ANY, ['rulesets', 'product_rules']],
  [CONFIG, ['rulesets', 'product_rules', 'shop_settings']],
]);

const ROUTES: FuzzRoute[] = [
  { name: 'GET /api/global-rules', input: api('GET', '/api/global-rules') },
  {
    name: 'POST /api/global-rules',
    state: RULESETS,
    input: api('POST', '/api/global-rules', () => ({ name: 'Fuzzed' })),
  },
  {
    name: 'GET /api/global-rules/{id}/toggle',
    state: RULESETS,
    input: api('GET', '/api/global-rules/{id}/toggle'),
  },
  {
    name: 'DELETE /api/global-rules/{id}',
    state: RULESETS,
    input: api('DELETE', '/api/global-rules/{id}'),
  },
  {
    name: 'POST /api/global-rules/{id}/duplicate',
    state: RULESETS,
    input: api('POST', '/api/global-rules/{id}/duplicate'),
  },
  {
    name: 'POST /api/global-rules/{id}/rename',
    state: RULESETS,
    input: api('POST', '/api/global-rules/{id}/rename', () => ({ name: 'Fuzzed' })),
  },
  {
    name: 'GET /api/global-rules/rules',
    input: () =>
      fc
        .oneof(
          fc.constantFrom(...seeded.rulesetIds),
          fc.string({ maxLength: 80 }).map(encodeURIComponent),
          fc.constantFrom(...BAD_ENCODINGS, '[$ne]=', 'x&globalRuleId=y'),
        )
        .map((id) => ({
          method: 'GET',
          path: `/api/global-rules/rules?globalRuleId=${id}`,
          headers: { authorization: `Bearer ${stack.token(SHOP)}` },
        })),
  },
  {
    name: 'POST /api/global-rules/update/{id}',
    state: RULESETS,
    input: api('POST', '/api/global-rules/update/{id}', filtersBody),
  },
  {
    name: 'GET /api/global-rules/{id}/versions',
    input: api('GET', '/api/global-rules/{id}/versions'),
  },
  {
    name: 'GET /api/global-rules/{id}/versions/{n}',
    input: api('GET', '/api/global-rules/{id}/versions/1'),
  },
  {
    name: 'POST /api/global-rules/{id}/versions/{n}/restore',
    state: RULESETS,
    input: api('POST', '/api/global-rules/{id}/versions/1/restore'),
  },
  { name: 'GET /api/activity', input: api('GET', '/api/activity') },
  { name: 'GET /api/product-rules', input: api('GET', '/api/product-rules') },
  { name: 'GET /api/shop', input: api('GET', '/api/shop') },
  { name: 'GET /api/checkout-outcomes', input: api('GET', '/api/checkout-outcomes') },
  {
    name: 'GET /api/analytics',
    input: () =>
      fc
        .oneof(
          fc.integer({ min: -5, max: 40 }).map(String),
          fc.string({ maxLength: 40 }).map(encodeURIComponent),
          fc.constantFrom(...BAD_ENCODINGS, '[$ne]=', '1&days=2', '1e1', '0x1f'),
        )
        .map((days) => ({
          method: 'GET',
          path: `/api/analytics?days=${days}`,
          headers: { authorization: `Bearer ${stack.token(SHOP)}` },
        })),
  },
  {
    name: 'GET /api/analytics/filters',
    input: () =>
      fc
        .record({
          owner: fc.oneof(
            fc.constantFrom('ruleset', 'product_rule', '', '__proto__', '[$ne]='),
            fc.string({ maxLength: 20 }).map(encodeURIComponent),
          ),
          id: fc.oneof(
            fc.constantFrom(...seeded.rulesetIds, ...seeded.productRuleIds),
            fc.string({ maxLength: 80 }).map(encodeURIComponent),
            fc.constantFrom(...BAD_ENCODINGS, '[$ne]=', 'x&id=y'),
          ),
        })
        .map(({ owner, id }) => ({
          method: 'GET',
          path: `/api/analytics/filters?owner=${owner}&id=${id}`,
          headers: { authorization: `Bearer ${stack.token(SHOP)}` },
        })),
  },
  { name: 'GET /api/recent-checkouts', input: api('GET', '/api/recent-checkouts') },
  {
    name: 'GET /api/recent-checkouts/{id}',
    input: api('GET', '/api/recent-checkouts/{id}', undefined, () => [recentId]),
  },
  {
    name: 'GET /api/product-rules/shopify-products',
    // R17 is about the answer to hostile input. Each page costs 842 of the shop's 2,000
    // Shopify points (100 back a second), so a fuzz drains the bucket and the catalog then
    // waits out Shopify's throttle, as it should (the catalog tests cover that wait): each
    // input starts with a full bucket.
    beforeEach: () =>
      stack.shopify.graphql.bucket.setAvailable(
        SHOP,
        stack.shopify.graphql.bucket.maximumAvailable,
      ),
    input: api('GET', '/api/product-rules/shopify-products'),
  },
  {
    name: 'GET /api/product-rules/shopify-products/{id}/variants',
    // Each read asks for 203 of the shop's 2,000 Shopify points: a full bucket per input, as above.
    beforeEach: () =>
      stack.shopify.graphql.bucket.setAvailable(
        SHOP,
        stack.shopify.graphql.bucket.maximumAvailable,
      ),
    input: api('GET', '/api/product-rules/shopify-products/{id}/variants', undefined, () =>
      DEMO_CATALOG.slice(0, 5).map((p) => String(p.id)),
    ),
  },
  {
    name: 'POST /api/product-rules/add-shopify-product',
    state: PRODUCT_RULES,
    input: api('POST', '/api/product-rules/add-shopify-product', () => ({
      products: [gid(DEMO_CATALOG[5]!.id)],
    })),
  },
  {
    name: 'GET /api/product-rules/{id}/rules',
    input: api('GET', '/api/product-rules/{id}/rules'),
  },
  {
    name: 'POST /api/product-rules/update/{id}',
    state: PRODUCT_RULES,
    input: api('POST', '/api/product-rules/update/{id}', filtersBody),
  },
  {
    name: 'GET /api/product-rules/{id}/toggle',
    state: PRODUCT_RULES,
    input: api('GET', '/api/product-rules/{id}/toggle'),
  },
  {
    name: 'DELETE /api/product-rules/{id}',
    state: PRODUCT_RULES,
    input: api('DELETE', '/api/product-rules/{id}'),
  },
  {
    name: 'GET /api/product-rules/{id}/versions',
    input: api('GET', '/api/product-rules/{id}/versions'),
  },
  {
    name: 'GET /api/product-rules/{id}/versions/{n}',
    input: api('GET', '/api/product-rules/{id}/versions/1'),
  },
  {
    name: 'POST /api/product-rules/{id}/versions/{n}/restore',
    state: PRODUCT_RULES,
    input: api('POST', '/api/product-rules/{id}/versions/1/restore'),
  },
  { name: 'GET /api/settings', input: api('GET', '/api/settings') },
  {
    name: 'POST /api/settings',
    state: SETTINGS,
    input: api('POST', '/api/settings', settingsBody),
  },
  { name: 'GET /api/config/export', input: api('GET', '/api/config/export') },
  {
    name: 'GET /api/shipping-zones',
    // Each read asks for 77 + 744 of the shop's 2,000 Shopify points (about 100 used, 100
    // back a second): a fuzz drains the bucket and auth then waits out the throttle, as it
    // should. A full bucket per input, as for the product picker above.
    beforeEach: () =>
      stack.shopify.graphql.bucket.setAvailable(
        SHOP,
        stack.shopify.graphql.bucket.maximumAvailable,
      ),
    input: api('GET', '/api/shipping-zones'),
  },
  {
    name: 'POST /api/shipping-zones',
    // An accepted input records the choice on the shop's record (and may change its zones).
    state: docs('auth', 'shops'),
    beforeEach: () =>
      stack.shopify.graphql.bucket.setAvailable(
        SHOP,
        stack.shopify.graphql.bucket.maximumAvailable,
      ),
    input: api('POST', '/api/shipping-zones', () => ({ zone_ids: [], ratesmith: false })),
  },
  {
    name: 'POST /api/shipping-import',
    // A well-formed plan reads the shop's rates (77 + 928 points): a full bucket per input.
    beforeEach: () =>
      stack.shopify.graphql.bucket.setAvailable(
        SHOP,
        stack.shopify.graphql.bucket.maximumAvailable,
      ),
    input: api('POST', '/api/shipping-import', () => ({ plan: 'a'.repeat(64) })),
  },
  {
    name: 'POST /api/shadow',
    // A well-formed id that is a ruleset reads the shop's rates: a full bucket per input.
    beforeEach: () =>
      stack.shopify.graphql.bucket.setAvailable(
        SHOP,
        stack.shopify.graphql.bucket.maximumAvailable,
      ),
    input: api('POST', '/api/shadow', () => ({ ruleset_id: 'a'.repeat(24) })),
  },
  {
    name: 'POST /api/shadow/go-live',
    // No shadow runs in the fuzzed shop: every input is refused before Shopify is asked.
    input: api('POST', '/api/shadow/go-live', () => ({
      turn_off_native: ['gid://shopify/DeliveryMethodDefinition/1'],
    })),
  },
  {
    name: 'POST /api/shadow/undo-go-live',
    input: api('POST', '/api/shadow/undo-go-live', () => ({})),
  },
  {
    name: 'POST /api/config/import',
    state: CONFIG,
    input: api('POST', '/api/config/import', () => ({
      format: 'ratesmith-config',
      version: 1,
      exported_at: '2026-01-01T00:00:00.000Z',
      rulesets: [{ name: 'Fuzz import', enabled: false, filters: [filterJson('Imported')] }],
      product_rules: [{ product_id: String(DEMO_CATALOG[0]!.id), enabled: true, filters: [] }],
      settings: settingsBody(),
    })),
  },
  {
    name: 'POST /api/rate-preview',
    input: api('POST', '/api/rate-preview', () => ({
      rate: cart(),
      draft: { globalRuleId: seeded.rulesetIds[0], rules: [filterJson('Draft')] },
    })),
  },
  {
    name: 'POST /api/vitals',
    input: api('POST', '/api/vitals', () => ({
      page: '/edit-global-rule/:id',
      navigation: 'navigate',
      metrics: [
        { name: 'LCP', value: 1800 },
        { name: 'CLS', value: 0.05 },
      ],
    })),
  },
  {
    name: 'POST /api/install',
    state: OAUTH,
    input: () =>
      fc
        .oneof(
          mutatedJson(() => ({
            shop: `fuzz-${randomUUID().slice(0, 8)}.myshopify.com`,
            email: 'owner@example.com',
          })),
          rawBody.map((r) => r.body),
        )
        .map((body) => ({
          method: 'POST',
          path: '/api/install',
          body,
          contentType: 'application/json',
        })),
  },
  {
    name: 'GET /api/verify',
    state: OAUTH,
    input: () =>
      fc
        .oneof(
          fc.string({ maxLength: 100 }).map(encodeURIComponent),
          fc.constantFrom(...BAD_ENCODINGS, SHOP, `${SHOP}%00`, 'a'.repeat(5000), '[$ne]=1'),
        )
        .map((shop) => ({ method: 'GET', path: `/api/verify?shop=${shop}` })),
  },
  {
    name: 'POST /api/reinstall',
    state: OAUTH,
    input: () =>
      fc
        .oneof(
          mutatedJson(() =>
            stack.shopify.signedQuery({
              shop: SHOP,
              host: hostParam(SHOP),
              timestamp: String(Math.floor(Date.now() / 1000)),
            }),
          ),
          rawBody.map((r) => r.body),
        )
        .map((body) => ({
          method: 'POST',
          path: '/api/reinstall',
          body,
          contentType: 'application/json',
        })),
  },
  {
    name: 'GET /auth/callback',
    state: OAUTH,
    input: () =>
      fc
        .tuple(
          fc.array(mutation, { minLength: 1, maxLength: 3 }),
          fc.boolean(),
          fc.constantFrom('', ...BAD_ENCODINGS),
        )
        .map(([ms, resign, tail]) => {
          const base = {
            code: 'c0de',
            host: hostParam(SHOP),
            shop: SHOP,
            state: 's'.repeat(32),
            timestamp: String(Math.floor(Date.now() / 1000)),
          };
          const mutated = applyMutations(base, ms);
          const flat: Record<string, string> = {};
          if (mutated && typeof mutated === 'object')
            for (const [k, v] of Object.entries(mutated))
              flat[k] = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
          // Signed after mutating half the time, so the checks behind the HMAC are reached too.
          const query = new URLSearchParams(
            resign ? stack.shopify.signedQuery(flat) : { ...flat, hmac: 'a'.repeat(64) },
          ).toString();
          return { method: 'GET', path: `/auth/callback?${query}${tail ? `&x=${tail}` : ''}` };
        }),
  },
  {
    name: 'POST /webhooks/<topic>',
    state: WEBHOOK,
    input: () =>
      fc
        .tuple(
          fc.constantFrom(
            'app/uninstalled',
            'shop/redact',
            'customers/redact',
            'customers/data_request',
            'app/scopes_update',
            'products/update',
            '',
            '..%2f',
            '%E0%A4%A',
          ),
          fc.oneof(
            mutatedJson(() => ({
              shop_id: 1,
              shop_domain: SHOP,
              myshopify_domain: SHOP,
              domain: SHOP,
            })),
            rawBody.map((r) => r.body),
          ),
          fc.boolean(),
          fc.constantFrom(SHOP, 'other-fuzz.myshopify.com', '', 'evil.com', SHOP.toUpperCase()),
          fc.dictionary(
            fc.constantFrom(
              'x-shopify-topic',
              'x-shopify-api-version',
              'x-shopify-webhook-id',
              'x-shopify-triggered-at',
              'content-type',
            ),
            fc.string({ maxLength: 40 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
            { maxKeys: 2 },
          ),
        )
        .map(([topic, body, signed, shop, overrides]) => ({
          method: 'POST',
          path: `/webhooks/${topic}`,
          body,
          headers: {
            'content-type': 'application/json',
            'x-shopify-topic': topic,
            'x-shopify-shop-domain': shop,
            'x-shopify-api-version': '2026-10',
            'x-shopify-webhook-id': randomUUID(),
            'x-shopify-hmac-sha256': signed ? signBody(body) : signBody(body, 'wrong'),
            ...overrides,
          },
        })),
  },
  {
    name: 'POST /carrier/rates/<key>',
    input: () =>
      fc
        .tuple(
          fc.oneof(
            { weight: 3, arbitrary: fc.constant(rateKey) },
            { weight: 1, arbitrary: pathArb('{id}', () => [rateKey]) },
          ),
          fc.oneof(
            mutatedJson(() => ({ rate: { ...cart(), origin: { country: 'US' } } })),
            rawBody.map((r) => r.body),
          ),
          fc.boolean(),
        )
        .map(([key, body, signed]) => ({
          method: 'POST',
          path: `/carrier/rates/${key}`,
          body,
          carrier: true,
          headers: {
            'content-type': 'application/json',
            'x-shopify-hmac-sha256': signed ? signBody(body) : 'AAAA',
          },
        })),
  },
  {
    name: 'any path, bad percent-encoding',
    state: ANY,
    input: () =>
      fc
        .tuple(
          fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'),
          fc.constantFrom(
            '/api/global-rules/',
            '/api/product-rules/',
            '/api/',
            '/auth/',
            '/webhooks/',
            '/',
            '/demo/',
            '/api/global-rules/update/',
          ),
          fc.array(
            fc.oneof(
              fc.constantFrom(...BAD_ENCODINGS),
              fc.string({ maxLength: 8 }).map(encodeURIComponent),
            ),
            { minLength: 1, maxLength: 4 },
          ),
          fc.boolean(),
        )
        .map(([method, base, segments, authed]) => ({
          method,
          path: `${base}${segments.join('/')}`,
          headers: authed ? { authorization: `Bearer ${stack.token(SHOP)}` } : {},
        })),
  },
];

// ---------------------------------------------------------------- the run

/** What an input may have changed: the fuzzed shop's documents and the counts of everything else. */
// WRITTEN_IN_BACKGROUND (helpers.ts): an earlier route's callbacks (and stillAnswering's)
// can land during a later route's run: not that route's doing.

/**
 * Versions are written (and the oldest pruned) after a save's answer; a read
 * of the history waits for the shop's pending ones (docs/architecture.md,
 * "Versions"), so an earlier route's saves cannot land in a later route's run.
 */
async function versionsSettled(): Promise<void> {
  const read = () =>
    raw(`${stack.baseUrl}/api/activity`, {
      headers: { authorization: `Bearer ${stack.token(SHOP)}` },
    }).catch(() => undefined);
  // A route's hundreds of accepted saves queue as many version writes: the read
  // may outlast the gateway's time limit (503 + Retry-After) and is sent again.
  // The client's pooled connection may also be one the gateway closed after an
  // earlier test's oversized body (ECONNRESET): this GET is safe to repeat.
  const deadline = Date.now() + 120_000;
  let res = await read();
  while (res?.status !== 200 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    res = await read();
  }
  expect(res?.status).toBe(200);
}

async function storedState(): Promise<string> {
  const parts: string[] = [];
  for (const name of ['rules', 'auth'] as const) {
    const db = stack.dbs[name].db!;
    for (const { name: collection } of await db.listCollections().toArray()) {
      if (WRITTEN_IN_BACKGROUND.has(collection)) continue;
      const c = db.collection(collection);
      parts.push(`${name}.${collection}: ${await c.countDocuments({})}`);
      if (['rulesets', 'product_rules', 'shop_settings', 'shops', 'tokens'].includes(collection))
        parts.push(JSON.stringify(await c.find({ shop: SHOP }).sort({ _id: 1 }).toArray()));
    }
  }
  return parts.join('\n');
}

async function send(req: Request) {
  const headers: Record<string, string> = { ...req.headers };
  if (req.contentType !== undefined) headers['content-type'] = req.contentType;
  const base = req.carrier ? stack.carrierUrl : stack.baseUrl;
  return raw(`${base}${req.path}`, {
    method: req.method,
    headers,
    body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body,
  });
}

/** How long a normal authenticated GET takes right now: the machine's yardstick for R17. */
async function normalGet(): Promise<number> {
  const res = await raw(`${stack.baseUrl}/api/global-rules`, {
    headers: { authorization: `Bearer ${stack.token(SHOP)}` },
  });
  expect(res.status).toBe(200);
  return res.ms;
}

async function normalGets(n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await normalGet());
  return out;
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** The app still answers: a session call and the carrier callback. */
async function stillAnswering() {
  const res = await stack.api('/api/global-rules', { token: stack.token(SHOP) });
  expect(res.status).toBe(200);
  const body = JSON.stringify({ rate: cart() });
  const callback = await raw(`${stack.carrierUrl}/carrier/rates/${rateKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': signBody(body) },
    body,
  });
  expect(callback.status).toBe(200);
}

/** Whether some object inside `value` has `key` as an own key (iterative: inputs nest to 3000). */
function hasOwnKeyDeep(value: unknown, key: string): boolean {
  const todo = [value];
  while (todo.length) {
    const v = todo.pop();
    if (!v || typeof v !== 'object') continue;
    if (!Array.isArray(v) && Object.hasOwn(v, key)) return true;
    todo.push(...Object.values(v));
  }
  return false;
}

const short = (req: Request) => `${req.method} ${req.path.slice(0, 80)}`;

describe('R17/S4/S9: fuzzing every route', () => {
  it('the generators give serialisable inputs that keep hostile keys as own JSON keys', () => {
    // The old generators inserted fast-check's constant objects themselves
    // and later added keys to them: they grew from input to input until one
    // held itself (circular JSON, endless recursion in pathsOf).
    const texts = fc.sample(mutatedJson(filtersBody), { numRuns: 3000, seed: 17 });
    const parsed = texts.map((t) => JSON.parse(t) as unknown);
    for (const key of ['__proto__', 'constructor', '$where', '$ne'])
      expect(parsed.filter((v) => hasOwnKeyDeep(v, key)).length).toBeGreaterThan(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // 1000 inputs of every route in a row, as a run makes them: the old
    // generators broke here ("circular structure", "maximum call stack").
    for (const route of ROUTES)
      for (const req of fc.sample(route.input(), { numRuns: 1000, seed: 17 })) {
        expect(typeof req.path).toBe('string');
        expect(['string', 'undefined']).toContain(typeof req.body);
      }
  });

  it.each(ROUTES.map((r) => [r.name, r] as const))(
    'R17: %s — no 5xx, an answer within 1 s, nothing stored after a refused input',
    async (name, route) => {
      const statuses: Record<number, number> = {};
      let slowest = { ms: 0, what: '' };
      let inputs = 0;
      let shed = 0;
      const excused: string[] = [];
      const restores = route.state && RESTORABLE.get(route.state);
      const restorable = restores !== undefined;
      await versionsSettled();
      if (restorable) await restoreRules();
      const before = route.state ? '' : await storedState();
      const seededState = route.state ? await route.state() : '';
      /** The stored state before the next input; undefined once an accepted input may have changed it. */
      let known: string | undefined = seededState;
      /** Normal GETs measured during the route, the latest last (one per 50 inputs). */
      const yardstick = await normalGets(5);

      /**
       * R17, measured honestly on a shared machine: a reply over 1 s fails
       * only if it is also over 10x a normal GET measured just before and just
       * after it, and the same input sent again is again that slow. A one-off
       * stall with normal GETs around it (another process, I/O) is counted and
       * printed, not failed.
       */
      const judgeSlow = async (ms: number, req: Request) => {
        const after = await normalGets(5);
        const normal = Math.max(median(yardstick.slice(-5)), median(after));
        const tooSlow = (t: number) => t > MAX_MS && t > SLOW_FACTOR * normal;
        if (!tooSlow(ms)) {
          excused.push(`${Math.round(ms)} ms, normal GET ${Math.round(normal)} ms: ${short(req)}`);
          return;
        }
        const again = await send(req);
        if (route.state) {
          if (restorable) await restoreRules(restores);
          known = restorable ? seededState : undefined;
        }
        if (tooSlow(again.ms))
          throw new Error(
            `answered in ${Math.round(ms)} ms and again in ${Math.round(again.ms)} ms: over ${MAX_MS} ms and over ${SLOW_FACTOR}x a normal GET (median ${Math.round(normal)} ms)`,
          );
        excused.push(
          `${Math.round(ms)} ms once (again: ${Math.round(again.ms)} ms), normal GET ${Math.round(normal)} ms: ${short(req)}`,
        );
      };

      const property = fc.asyncProperty(route.input(), async (req) => {
        if (route.state && known === undefined) known = await route.state();
        route.beforeEach?.();
        const res = await send(req);
        inputs++;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.ms > slowest.ms) slowest = { ms: res.ms, what: short(req) };
        if (inputs % 50 === 0) yardstick.push(await normalGet());
        if (res.status >= 500) {
          if (res.status !== 503 || !res.headers.has('retry-after'))
            throw new Error(`${res.status} ${res.text.slice(0, 200)}`);
          shed++;
        }
        if (route.state) {
          if (res.status >= 400 && res.status < 500) {
            const now = await route.state();
            if (now !== known)
              throw new Error(`a refused input (${res.status}) changed stored data`);
          } else if (restorable) {
            // Accepted (or shed, maybe done later): put the seeded data back.
            await restoreRules(restores);
            known = seededState;
          } else known = undefined;
        }
        if (res.ms > MAX_MS) await judgeSlow(res.ms, req);
      });
      const numRuns = Math.max(1, Math.round(RUNS * (route.share ?? 1)));
      try {
        await fc.assert(property, { numRuns });
      } catch (err) {
        // fast-check's message carries the seed, the path and the counterexample.
        process.stdout.write(
          `fuzz FAILED on ${name}:\n${(err as Error).message.replace(/Bearer [\w.-]+/g, 'Bearer <session token>').slice(0, 6000)}\n`,
        );
        throw err;
      } finally {
        totals.inputs += inputs;
        totals.fivexx += Object.entries(statuses)
          .filter(([s]) => Number(s) >= 500)
          .reduce((n, [, c]) => n + c, 0);
        totals.shed += shed;
        totals.excused += excused.length;
        totals.slowest = Math.max(totals.slowest, slowest.ms);
        process.stdout.write(
          `fuzz ${name}: ${inputs} inputs, statuses ${JSON.stringify(statuses)}, ` +
            `${shed} shed (503 + Retry-After), slowest ${Math.round(slowest.ms)} ms (${slowest.what}), ` +
            `normal GET median ${Math.round(median(yardstick))} ms` +
            (excused.length ? `, over 1 s on a slow machine: ${excused.join('; ')}` : '') +
            '\n',
        );
      }
      expect(inputs).toBeGreaterThanOrEqual(numRuns);
      await versionsSettled();
      if (restorable) await restoreRules();
      if (!route.state) expect(await storedState()).toBe(before);
      await stillAnswering();
    },
    600_000,
  );
});
