import { gzipSync } from 'node:zlib';
import { create, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { catalogV1, rateEngineV1, rulesV1 } from './index';
import { filterFromJson } from './filter-json';
import { LIMITS, validateFilters } from './filters';
import { DEFAULT_SETTINGS, type Snapshot, type SnapshotFilter } from './snapshot';
import { worstFilters } from './testing';

/**
 * The inventory of bus messages that grow with a merchant's data
 * (docs/architecture.md, "Message sizes"): each built at the worst the limits
 * allow (every text at its length, conditions nested as deep as groups go)
 * and encoded with the real protobuf code (the snapshot: its JSON), then
 * gzipped as the kit sends bodies over 64 KB (services/kit/src/bus-payload.ts).
 * What travels must fit NATS's default max_payload, less the headers' room;
 * the two that do not are refused before sending with a clear message.
 * Prints the table the docs quote.
 */

/** NATS's default max_payload less the kit's room for headers (maxBody). */
const LIMIT = 1024 * 1024 - 4 * 1024;

function canonical(count: number, scope: 'ruleset' | 'product'): SnapshotFilter[] {
  const { errors, filters } = validateFilters(worstFilters(count), scope);
  expect(errors).toEqual([]);
  return filters;
}

const ruleset = canonical(LIMITS.filtersPerRuleset, 'ruleset');
const productFilters = canonical(LIMITS.filtersPerProductRule, 'product');
const proto = (filters: SnapshotFilter[]) => filters.map(filterFromJson);

/** A product at Shopify's most variants, with long titles. */
const variants = Array.from({ length: LIMITS.variantsPerProduct }, (_, v) => ({
  id: String(40_000_000_000_000 + v),
  title: `Size ${v} / Colour with a long name / Material ${v}`.padEnd(100, '.'),
  price: '999999.99',
}));

function productRule(n: number) {
  return {
    id: '6650f0c2a1b2c3d4e5f6' + String(n).padStart(4, '0'),
    productId: String(8_000_000_000_000 + n),
    name: 'P'.repeat(255),
    image: 'https://cdn.shopify.com/s/files/' + 'i'.repeat(200),
    variants,
    variantIds: variants.map((v) => v.id),
    active: true,
    filters: proto(productFilters),
    createdAt: '2026-11-25T04:52:43.000Z',
  };
}

function bytes<T extends DescMessage>(schema: T, init: MessageInitShape<T>): Uint8Array {
  return toBinary(schema, create(schema, init));
}

const rows: [string, number, number][] = [];
/** Records the message's size as encoded and as it travels; answers the latter. */
function measure(name: string, body: Uint8Array): number {
  const sent = gzipSync(body).length;
  rows.push([name, body.length, sent]);
  return sent;
}

afterAll(() => {
  const n = (x: number) => x.toLocaleString('en-US');
  const lines = rows.map(([name, size, sent]) => `| ${name} | ${n(size)} | ${n(sent)} |`);
  process.stdout.write(`\n| message | encoded | gzipped |\n|---|---|---|\n${lines.join('\n')}\n`);
});

describe('the worst sizes of bus messages that grow with merchant data', () => {
  it('a ruleset at its limits (Save All, its filters, a restore)', () => {
    const sent = measure(
      `SaveRulesetFiltersRequest, ${LIMITS.filtersPerRuleset} x ${LIMITS.conditionsPerFilter}`,
      bytes(rulesV1.SaveRulesetFiltersRequestSchema, {
        shop: 'a'.repeat(60) + '.myshopify.com',
        id: '6650f0c2a1b2c3d4e5f60718',
        filters: proto(ruleset),
        user: '123456789012',
      }),
    );
    expect(sent).toBeLessThan(LIMIT);
    // A version's read carries its filters and the previous version's: twice a ruleset.
    // Over the limit only for two versions of this nested worst (whose JSON, 2.8 MB, only
    // an import can bring; Save All takes 1.5 MB): refused with a clear message.
    const version = measure(
      'GetVersionResponse (a version and the one before it)',
      bytes(rulesV1.GetVersionResponseSchema, {
        filters: proto(ruleset),
        previousFilters: proto(ruleset),
      }),
    );
    expect(version).toBeGreaterThan(LIMIT);
  });

  it('a product rule at its limits', () => {
    const save = measure(
      `SaveProductRuleFiltersRequest, ${LIMITS.filtersPerProductRule} x ${LIMITS.conditionsPerFilter}`,
      bytes(rulesV1.SaveProductRuleFiltersRequestSchema, { filters: proto(productFilters) }),
    );
    expect(save).toBeLessThan(LIMIT);
    const read = measure(
      `GetProductRuleFiltersResponse (${LIMITS.variantsPerProduct} variants)`,
      bytes(rulesV1.GetProductRuleFiltersResponseSchema, {
        productRule: productRule(1),
        filters: proto(productFilters),
      }),
    );
    expect(read).toBeLessThan(LIMIT);
    // Refused before sending (a clear message): 50 products of Shopify's most variants at once.
    const add = measure(
      `AddProductRulesRequest (${LIMITS.productsPerAdd} products of ${LIMITS.variantsPerProduct} variants)`,
      bytes(rulesV1.AddProductRulesRequestSchema, {
        products: Array.from({ length: LIMITS.productsPerAdd }, (_, n) => ({
          ...productRule(n),
          filters: [],
        })),
      }),
    );
    expect(add).toBeGreaterThan(LIMIT);
  });

  it('the snapshot of a shop with the enabled ruleset and one product rule at their limits', () => {
    const snapshot: Snapshot = {
      shop: 'a'.repeat(60) + '.myshopify.com',
      version: 1,
      rateKey: 'k'.repeat(32),
      settings: DEFAULT_SETTINGS,
      globalRuleset: { id: '6650f0c2a1b2c3d4e5f60718', name: 'R'.repeat(200), filters: ruleset },
      productRules: [
        {
          id: '6650f0c2a1b2c3d4e5f60719',
          productId: '8000000000001',
          variantIds: variants.map((v) => v.id),
          active: true,
          filters: productFilters,
        },
      ],
      products: {},
    };
    const sent = measure(
      'snapshot JSON (the enabled ruleset + 1 product rule of 2,048 variants)',
      Buffer.from(JSON.stringify(snapshot)),
    );
    expect(sent).toBeLessThan(LIMIT);
  });

  it('the snapshot of a shop whose conditions sit in the filter (no nested groups)', () => {
    const flat = (count: number, scope: 'ruleset' | 'product') =>
      validateFilters(worstFilters(count, 50, false), scope).filters;
    const productRules = Array.from({ length: 10 }, (_, n) => ({
      id: `pr${n}`,
      productId: String(8_000_000_000_000 + n),
      variantIds: [],
      active: true,
      filters: flat(LIMITS.filtersPerProductRule, 'product'),
    }));
    const snapshot: Snapshot = {
      shop: 'a'.repeat(60) + '.myshopify.com',
      version: 1,
      rateKey: 'k'.repeat(32),
      settings: DEFAULT_SETTINGS,
      globalRuleset: {
        id: 'r',
        name: 'R'.repeat(200),
        filters: flat(LIMITS.filtersPerRuleset, 'ruleset'),
      },
      productRules,
      products: {},
    };
    const sent = measure(
      'snapshot JSON (the enabled ruleset + 10 product rules, 50 conditions each filter, not nested)',
      Buffer.from(JSON.stringify(snapshot)),
    );
    expect(sent).toBeLessThan(LIMIT);
  });

  it('a preview of 1,000 lines with a draft ruleset', () => {
    const sent = measure(
      'PreviewRatesRequest (1,000 lines, 100 x 50 draft)',
      bytes(rateEngineV1.PreviewRatesRequestSchema, {
        lines: Array.from({ length: 1000 }, (_, i) => ({
          price: 99_999_999,
          quantity: 100_000,
          productId: String(8_000_000_000_000 + i),
          variantId: String(40_000_000_000_000 + i),
          grams: 100_000_000,
          noShipping: false,
        })),
        draft: { filters: proto(ruleset) },
      }),
    );
    expect(sent).toBeLessThan(LIMIT);
  });

  it('a catalog look-up of an import', () => {
    // Refused before sending (a clear message): an import of 250 products of 2,048 variants each.
    const lookup = measure(
      `LookUpProductsResponse (${LIMITS.productRulesPerShop} products)`,
      bytes(catalogV1.LookUpProductsResponseSchema, {
        found: Array.from({ length: LIMITS.productRulesPerShop }, (_, n) => ({
          productId: String(n),
          title: 'P'.repeat(255),
          variants,
        })),
      }),
    );
    expect(lookup).toBeGreaterThan(LIMIT);
  });
});

describe('the product index in the snapshot', () => {
  /** A product id like Shopify's (13 digits, not in order), from a seeded generator. */
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647);
  const productId = () =>
    String(7_000_000_000_000 + ((next() * 1_000_003 + next()) % 2_000_000_000_000));
  const tagPool = Array.from({ length: 1000 }, (_, i) => `tag-${i}-${'x'.repeat(i % 12)}`);
  const named = new Set(tagPool.slice(0, 10));

  /** What the rules service carries: products with a named tag, only those tags. */
  function indexOf(products: { id: string; tags: string[] }[]): Snapshot['products'] {
    const index: Snapshot['products'] = {};
    for (const p of products) {
      const tags = p.tags.filter((t) => named.has(t));
      if (tags.length) index[p.id] = { product_type: '', tags };
    }
    return index;
  }

  const snapshotWith = (products: Snapshot['products']): Snapshot => ({
    shop: 'a'.repeat(60) + '.myshopify.com',
    version: 1,
    rateKey: 'k'.repeat(32),
    settings: DEFAULT_SETTINGS,
    globalRuleset: { id: 'r', name: 'Tags', filters: canonical(10, 'ruleset') },
    productRules: [],
    products,
  });

  it('100,000 products of 5 tags from 1,000, a ruleset naming 10: far under the limit', () => {
    const products = Array.from({ length: 100_000 }, () => ({
      id: productId(),
      tags: Array.from({ length: 5 }, () => tagPool[next() % tagPool.length]!),
    }));
    const index = indexOf(products);
    const count = Object.keys(index).length;
    // About 1 - (99/100)^5 of them carry a named tag.
    expect(count).toBeGreaterThan(4000);
    expect(count).toBeLessThan(6000);
    const sent = measure(
      `snapshot JSON with a product index (${count.toLocaleString('en-US')} of 100,000 products carry one of 10 named tags)`,
      Buffer.from(JSON.stringify(snapshotWith(index))),
    );
    expect(sent).toBeLessThan(LIMIT / 5);
  });

  it('every one of 100,000 products carrying a named tag still fits', () => {
    const products = Array.from({ length: 100_000 }, () => ({
      id: productId(),
      tags: [tagPool[next() % 10]!],
    }));
    const sent = measure(
      'snapshot JSON with a product index (all 100,000 products carry a named tag)',
      Buffer.from(JSON.stringify(snapshotWith(indexOf(products)))),
    );
    expect(sent).toBeLessThan(LIMIT);
  });
});
