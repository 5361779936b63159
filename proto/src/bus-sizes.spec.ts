import { create, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { catalogV1, rateEngineV1, rulesV1 } from './index';
import { filterFromJson } from './filter-json';
import { LIMITS, validateFilters } from './filters';
import { DEFAULT_SETTINGS, type Snapshot, type SnapshotFilter } from './snapshot';
import { worstFilters } from './testing';

/**
 * The inventory of bus messages that grow with a merchant's data
 * (docs/architecture.md, "Message sizes"): each built at the worst the limits
 * allow and encoded with the real protobuf code (the snapshot: its JSON).
 * Prints the table the docs quote.
 */

const MB = 1024 * 1024;

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

function bytes<T extends DescMessage>(schema: T, init: MessageInitShape<T>): number {
  return toBinary(schema, create(schema, init)).length;
}

const rows: [string, number][] = [];
function measure(name: string, size: number): number {
  rows.push([name, size]);
  return size;
}

afterAll(() => {
  const lines = rows.map(([name, size]) => `| ${name} | ${size.toLocaleString('en-US')} |`);
  process.stdout.write(`\n| message | bytes |\n|---|---|\n${lines.join('\n')}\n`);
});

describe('the worst sizes of bus messages that grow with merchant data', () => {
  it('a ruleset at its limits (Save All, its filters, a restore)', () => {
    const size = measure(
      `SaveRulesetFiltersRequest, ${LIMITS.filtersPerRuleset} x ${LIMITS.conditionsPerFilter}`,
      bytes(rulesV1.SaveRulesetFiltersRequestSchema, {
        shop: 'a'.repeat(60) + '.myshopify.com',
        id: '6650f0c2a1b2c3d4e5f60718',
        filters: proto(ruleset),
        user: '123456789012',
      }),
    );
    expect(size).toBeLessThan(MB);
    // A version's read carries its filters and the previous version's: twice a ruleset.
    measure(
      'GetVersionResponse (a version and the one before it)',
      bytes(rulesV1.GetVersionResponseSchema, {
        filters: proto(ruleset),
        previousFilters: proto(ruleset),
      }),
    );
  });

  it('a product rule at its limits', () => {
    measure(
      `SaveProductRuleFiltersRequest, ${LIMITS.filtersPerProductRule} x ${LIMITS.conditionsPerFilter}`,
      bytes(rulesV1.SaveProductRuleFiltersRequestSchema, { filters: proto(productFilters) }),
    );
    measure(
      `GetProductRuleFiltersResponse (${LIMITS.variantsPerProduct} variants)`,
      bytes(rulesV1.GetProductRuleFiltersResponseSchema, {
        productRule: productRule(1),
        filters: proto(productFilters),
      }),
    );
    measure(
      `AddProductRulesRequest (${LIMITS.productsPerAdd} products of ${LIMITS.variantsPerProduct} variants)`,
      bytes(rulesV1.AddProductRulesRequestSchema, {
        products: Array.from({ length: LIMITS.productsPerAdd }, (_, n) => ({
          ...productRule(n),
          filters: [],
        })),
      }),
    );
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
    };
    measure('snapshot JSON (ruleset + 1 product rule)', JSON.stringify(snapshot).length);
  });

  it('a preview of 1,000 lines with a draft ruleset', () => {
    measure(
      'PreviewRatesRequest (1,000 lines, 100 x 50 draft)',
      bytes(rateEngineV1.PreviewRatesRequestSchema, {
        items: Array.from({ length: 1000 }, (_, i) => ({
          price: BigInt(99_999_999),
          quantity: 100_000,
          productId: BigInt(8_000_000_000_000 + i),
          variantId: BigInt(40_000_000_000_000 + i),
          name: 'N'.repeat(255),
          grams: BigInt(100_000_000),
        })),
        draft: { filters: proto(ruleset) },
      }),
    );
  });

  it('a catalog look-up of an import', () => {
    measure(
      `LookUpProductsResponse (${LIMITS.productRulesPerShop} products)`,
      bytes(catalogV1.LookUpProductsResponseSchema, {
        found: Array.from({ length: LIMITS.productRulesPerShop }, (_, n) => ({
          productId: String(n),
          title: 'P'.repeat(255),
          variants,
        })),
      }),
    );
  });
});
