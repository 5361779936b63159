import {
  DEFAULT_SETTINGS,
  type Snapshot,
  type SnapshotCondition,
  type SnapshotFilter,
  type SnapshotGroup,
} from '@ratesmith/contracts';

/**
 * The benchmark's fixture: a ruleset of 20 filters with 3 to 8
 * conditions each in groups up to 3 deep, every field used (weights in every
 * unit, regions and postal codes with every operator), every
 * action 1 to 6; 10 product rules;
 * a 25-line cart. Generated from a seed, so every run and every machine
 * measures the same rules. `variant` shifts the numbers, so 10,000 shops do
 * not share one compiled form.
 */

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const NUMERIC = ['equal', 'greater_than', 'greater_or_equal', 'less_than', 'less_or_equal'];
const PRICES = [0, 499, 1000, 1250, 1999, 2500, 4999];
const COUNTRIES = ['US', 'CA', 'DE', 'FR', 'GB'];
const REGIONS = ['US-CA', 'US-NY', 'US-TX', 'CA-ON', 'GB-LND'];
const UNITS = ['g', 'kg', 'lb', 'oz'] as const;
const POSTAL = ['equal', 'not_equal', 'starts_with', 'not_starts_with', 'between'];
const POSTAL_CODES = ['94103', '941', '9', '10001', 'K1A'];
const POSTAL_RANGES = [
  { from: '90000', to: '96199' },
  { from: '10000', to: '14999' },
  { from: 'K', to: 'M' },
];

/** The fixture; `TYPICAL` is a smaller shop for the memory figure's second row. */
export const FULL = { filters: 20, productRules: 10 };
export const TYPICAL = { filters: 5, productRules: 2 };

export function benchSnapshot(
  shop = 'bench.myshopify.com',
  variant = 0,
  rateKey: string | null = null,
  size = FULL,
): Snapshot {
  const next = random(7 + variant);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
  let ids = 0;
  const fields = [
    'shipping_country',
    'cart_price',
    'cart_retail_product_count',
    'cart_free_product_count',
    'cart_product_count_of_x_price',
    'cart_weight',
    'shipping_region',
    'shipping_postal_code',
  ];
  const condition = (field: string): SnapshotCondition => {
    const id = `c${++ids}`;
    switch (field) {
      case 'shipping_country':
        return {
          id,
          type: 'condition',
          field,
          operator: pick(['equal', 'not_equal']),
          value: pick(COUNTRIES),
        };
      case 'cart_price':
        return {
          id,
          type: 'condition',
          field,
          operator: pick(NUMERIC),
          value: Math.round(next() * 60000 + variant) / 100,
        };
      case 'cart_weight':
        return {
          id,
          type: 'condition',
          field,
          operator: pick(NUMERIC),
          value: { amount: Math.round(next() * 40_000 + variant) / 1000, unit: pick([...UNITS]) },
        };
      case 'shipping_region':
        return {
          id,
          type: 'condition',
          field,
          operator: pick(['equal', 'not_equal']),
          value: pick(REGIONS),
        };
      case 'shipping_postal_code': {
        const operator = pick(POSTAL);
        return {
          id,
          type: 'condition',
          field,
          operator,
          value: operator === 'between' ? pick(POSTAL_RANGES) : pick(POSTAL_CODES),
        };
      }
      case 'cart_product_count_of_x_price':
        return {
          id,
          type: 'condition',
          field,
          operator: pick(NUMERIC),
          value: { count: Math.floor(next() * 10), amount: pick(PRICES) / 100 },
        };
      default:
        return {
          id,
          type: 'condition',
          field,
          operator: pick(NUMERIC),
          value: Math.floor(next() * 40),
        };
    }
  };
  /** `count` conditions spread over a root group, a nested group and a group nested in that. */
  const query = (count: number, first: number): SnapshotGroup => {
    const conditions = Array.from({ length: count }, (_, i) =>
      condition(fields[(first + i) % fields.length]!),
    );
    const inner: SnapshotGroup = {
      id: `g${++ids}`,
      type: 'group',
      condition: pick(['AND', 'OR']),
      rules: conditions.slice(0, 2),
    };
    const middle: SnapshotGroup = {
      id: `g${++ids}`,
      type: 'group',
      condition: pick(['AND', 'OR']),
      rules: [conditions[2]!, inner],
    };
    return {
      id: `g${++ids}`,
      type: 'group',
      condition: pick(['AND', 'OR']),
      rules: [middle, ...conditions.slice(3)],
    };
  };
  const filter = (i: number, name: string): SnapshotFilter => {
    const action = 1 + (i % 6);
    return {
      id: `f${++ids}`,
      name,
      raw_query: query(3 + (i % 6), i),
      action_type: action,
      action_data: Math.round(next() * 500 + variant) / 100,
      rule_product_limit_amount: action === 4 ? pick(PRICES) / 100 : null,
      global_rule_action: i % 2 === 0 ? 0 : 1,
      is_shipping_overridden: i % 7 === 0 ? 'Yes' : 'No',
      shipping_name: i % 7 === 0 ? `Rate ${i}` : '',
      shipping_description: '',
      bump_shipping_name: '',
      bump_shipping_description: '',
      // Continue after every match, so a quote evaluates every filter.
      post_processing_action_type: 1,
      action_weight_step: action === 6 ? { amount: 0.5 + (i % 3), unit: pick([...UNITS]) } : null,
      // No delivery windows: row 1 measures a shop without dates.
      delivery_min_days: null,
      delivery_max_days: null,
    };
  };
  return {
    shop,
    version: 1,
    rateKey,
    settings: {
      // The delivery calendar's defaults and no window, no upgrade.
      ...DEFAULT_SETTINGS,
      carrier_name: 'Bench Post',
      carrier_description: 'Benchmark rates',
      bump_shipping_enabled: true,
      bump_shipping_name: 'Express',
      bump_shipping_description: '',
      bump_shipping_action: 1,
      bump_shipping_cost: 15,
      recent_checkouts_enabled: true,
      // The most a merchant may set: the bench's one shop is sampled as often as a shop can be.
      recent_checkouts_per_minute: 30,
      recent_checkouts_days: 14,
      fallback_enabled: false,
      fallback_name: '',
      fallback_description: '',
      fallback_cost: 0,
    },
    globalRuleset: {
      id: 'ruleset',
      name: 'Bench',
      filters: Array.from({ length: size.filters }, (_, i) => filter(i, `Global ${i + 1}`)),
    },
    productRules: Array.from({ length: size.productRules }, (_, j) => ({
      id: `pr${j + 1}`,
      productId: `gid://shopify/Product/${1000 + j * 2}`,
      variantIds: j % 3 === 0 ? [`${5000 + j * 2}`] : [],
      active: true,
      filters: [filter(j, `Product ${j + 1} a`), filter(j + 1, `Product ${j + 1} b`)],
    })),
    products: {},
  };
}

/** A 25-line cart as Shopify posts it. */
export function benchRequest() {
  const next = random(99);
  return {
    rate: {
      origin: {
        country: 'US',
        postal_code: '10001',
        province: 'NY',
        city: 'New York',
        name: null,
        address1: '1 Main St',
        address2: '',
        address3: null,
        phone: null,
        fax: null,
        email: null,
        address_type: null,
        company_name: 'Bench',
      },
      destination: {
        country: 'US',
        postal_code: '94103',
        province: 'CA',
        city: 'San Francisco',
        name: 'Jane Doe',
        address1: '2 Market St',
        address2: '',
        address3: null,
        phone: null,
        fax: null,
        email: null,
        address_type: null,
        company_name: null,
      },
      items: Array.from({ length: 25 }, (_, i) => ({
        name: `Product ${i}`,
        sku: `SKU-${i}`,
        quantity: 1 + Math.floor(next() * 3),
        grams: 500,
        price: PRICES[i % PRICES.length]!,
        vendor: 'Bench',
        requires_shipping: i % 12 !== 11,
        taxable: true,
        fulfillment_service: 'manual',
        properties: null,
        product_id: 1000 + i,
        variant_id: 5000 + i,
      })),
      currency: 'USD',
      locale: 'en',
    },
  };
}

/**
 * The bench snapshot with one tag condition first and a product index of
 * `products` products carrying that tag (ids of their own per shop `n`):
 * what a shop using item conditions caches (rows 4d and 4e).
 */
export function withTagIndex(snapshot: Snapshot, n: number, products: number): Snapshot {
  const first = snapshot.globalRuleset!.filters[0]!;
  return {
    ...snapshot,
    globalRuleset: {
      ...snapshot.globalRuleset!,
      filters: [
        {
          ...first,
          id: 'tagged',
          raw_query: {
            id: 'g',
            condition: 'AND',
            rules: [
              {
                id: 'c',
                type: 'condition',
                field: 'cart_item_product_tag',
                operator: 'any_equal',
                value: 'oversize',
              },
            ],
          },
        },
        ...snapshot.globalRuleset!.filters,
      ],
    },
    products: Object.fromEntries(
      Array.from({ length: products }, (_, p) => [
        String(8_100_000_000_000 + n * 10_000 + p),
        { product_type: '', tags: ['oversize'] },
      ]),
    ),
  };
}

/**
 * The bench shop's snapshot in shadow (docs/shopify.md, "Shadow mode"): its
 * own ruleset run in shadow against one native rate for every destination.
 */
export function inShadow(snapshot: Snapshot): Snapshot {
  return {
    ...snapshot,
    shadow: {
      ruleset: snapshot.globalRuleset!,
      native: {
        locationGroup: { id: 'gid://shopify/DeliveryLocationGroup/1' },
        locationGroupZones: [
          {
            zone: {
              id: 'gid://shopify/DeliveryZone/1',
              name: 'Everywhere',
              countries: [{ code: { countryCode: null, restOfWorld: true }, provinces: [] }],
            },
            methodDefinitions: [
              {
                id: 'gid://shopify/DeliveryMethodDefinition/1',
                name: 'Standard',
                active: true,
                description: null,
                rateProvider: {
                  __typename: 'DeliveryRateDefinition',
                  price: { amount: '7.00', currencyCode: 'USD' },
                },
                methodConditions: [],
              },
            ],
          },
        ],
      },
      startedAt: new Date().toISOString(),
    },
  };
}
