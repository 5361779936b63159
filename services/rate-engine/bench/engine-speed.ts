import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Engine, type TopLevelCondition, type NestedCondition } from 'json-rules-engine';
import {
  normalisePostalCode,
  weightToGrams,
  type Snapshot,
  type SnapshotCondition,
  type SnapshotGroup,
  type Weight,
} from '@ratesmith/contracts';
import {
  compileSnapshot,
  HOT_AFTER,
  HotTier,
  parseRateRequest,
  Quoter,
  toCents,
  type CompiledSnapshot,
  type RateRequest,
} from '@ratesmith/rate-engine/engine';
import { benchRequest, benchSnapshot, withTagIndex } from './fixture';

/**
 * Benchmark 1: whole quotes per second of the compiled engine on its hot path
 * (the shop's conditions as generated code, see src/engine/hot-tier.ts) against the
 * same conditions run through json-rules-engine, in one process, one after
 * the other, each for the same wall time; plus the cold tier (the compact
 * program walked by `matches`, src/engine/interpreter.ts) for comparison.
 */

const OPERATORS: Record<string, string> = {
  equal: 'equal',
  not_equal: 'notEqual',
  greater_than: 'greaterThan',
  greater_or_equal: 'greaterThanInclusive',
  less_than: 'lessThan',
  less_or_equal: 'lessThanInclusive',
  starts_with: 'startsWith',
  not_starts_with: 'notStartsWith',
  between: 'prefixBetween',
};

function jreCondition(rule: SnapshotCondition | SnapshotGroup): NestedCondition {
  if (rule.type !== 'condition') {
    const group = rule as SnapshotGroup;
    const children = group.rules.map(jreCondition);
    return group.condition === 'AND' ? { all: children } : { any: children };
  }
  const c = rule as SnapshotCondition;
  const operator = OPERATORS[c.operator]!;
  switch (c.field) {
    case 'shipping_country':
      return { fact: 'country', operator, value: c.value as string };
    case 'cart_price':
      return { fact: 'cart_price', operator, value: toCents(c.value as number) };
    case 'cart_weight':
      return { fact: 'cart_weight', operator, value: weightToGrams(c.value as Weight) };
    case 'shipping_region':
      return { fact: 'region', operator, value: c.value as string };
    case 'shipping_postal_code':
      return { fact: 'postal_code', operator, value: c.value as string };
    case 'cart_product_count_of_x_price': {
      const v = c.value as { count: number; amount: number };
      return { fact: `x_${toCents(v.amount)}`, operator, value: v.count };
    }
    default:
      return { fact: c.field, operator, value: c.value as number };
  }
}

function jreEngine(snapshot: Snapshot): Engine {
  const engine = new Engine([], { allowUndefinedFacts: true });
  // The postal-code tests of docs/rates.md, as json-rules-engine operators.
  engine.addOperator('startsWith', (code: string, prefix: string) => code.startsWith(prefix));
  engine.addOperator('notStartsWith', (code: string, prefix: string) => !code.startsWith(prefix));
  engine.addOperator('prefixBetween', (code: string, range: { from: string; to: string }) => {
    const head = code.slice(0, range.from.length);
    return head.length === range.from.length && range.from <= head && head <= range.to;
  });
  const lists = [snapshot.globalRuleset!.filters, ...snapshot.productRules.map((r) => r.filters)];
  let n = 0;
  for (const filters of lists) {
    for (const filter of filters) {
      engine.addRule({
        conditions: jreCondition(filter.raw_query) as TopLevelCondition,
        event: { type: `filter-${n++}` },
      });
    }
  }
  return engine;
}

/** The facts json-rules-engine needs, computed from the cart once per run. */
function facts(request: RateRequest): Record<string, number | string> {
  const result: Record<string, number | string> = {
    country: request.country,
    region: request.region,
    postal_code: normalisePostalCode(request.postalCode),
    cart_weight: 0,
    cart_price: 0,
    cart_retail_product_count: 0,
    cart_free_product_count: 0,
  };
  for (const item of request.items) {
    if (!item.ships) continue;
    (result.cart_price as number) += item.price * item.quantity;
    (result.cart_weight as number) += item.grams * item.quantity;
    const kind = item.price > 0 ? 'cart_retail_product_count' : 'cart_free_product_count';
    (result[kind] as number) += item.quantity;
    result[`x_${item.price}`] =
      ((result[`x_${item.price}`] as number | undefined) ?? 0) + item.quantity;
  }
  return result;
}

export interface EngineSpeed {
  /** Hot tier: generated code. */
  compiledPerSecond: number;
  /** Cold tier: the program loop. */
  loopPerSecond: number;
  jrePerSecond: number;
  ratio: number;
  matchedFilters: number;
}

export async function measureEngineSpeed(durationMs = 3000): Promise<EngineSpeed> {
  const snapshot = benchSnapshot();
  const request = parseRateRequest(benchRequest());
  const timeQuotes = (quoter: Quoter, compiled: CompiledSnapshot) => {
    for (let i = 0; i < 20_000; i++) quoter.quote(compiled, request);
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < durationMs) {
      for (let i = 0; i < 1000; i++) quoter.quote(compiled, request);
      n += 1000;
    }
    return (n / (performance.now() - t0)) * 1000;
  };

  // Cold tier: a quoter whose hot tier is off, so every quote walks the program.
  const loop = new Quoter(new HotTier({ size: 0 }));
  const cold = compileSnapshot(snapshot);
  const loopPerSecond = timeQuotes(loop, cold);

  // Hot path: generated code once the shop is busy (checked, not assumed).
  const hot = new Quoter(new HotTier({ size: 1000 }));
  const compiled = compileSnapshot(snapshot);
  const sample = hot.quote(compiled, request, true);
  const matchedFilters = sample.trace!.steps.filter((s) => s.matched).length;
  for (let i = 1; i < HOT_AFTER; i++) hot.quote(compiled, request);
  if (!compiled.hot?.fn) throw new Error('the benchmark shop did not reach the hot tier');
  const compiledPerSecond = timeQuotes(hot, compiled);
  if (JSON.stringify(hot.quote(compiled, request)) !== JSON.stringify(loop.quote(cold, request)))
    throw new Error('the hot and cold tiers disagree');

  const engine = jreEngine(snapshot);
  for (let i = 0; i < 200; i++) await engine.run(facts(request));

  let count = 0;
  const started = performance.now();
  while (performance.now() - started < durationMs) {
    await engine.run(facts(request));
    count++;
  }
  const jrePerSecond = (count / (performance.now() - started)) * 1000;
  return {
    compiledPerSecond,
    loopPerSecond,
    jrePerSecond,
    ratio: compiledPerSecond / jrePerSecond,
    matchedFilters,
  };
}

export interface ItemConditionSpeed {
  /** Microseconds a quote with item conditions on a 100-line cart. */
  itemUs: number;
  /** The same ruleset with its item conditions left out, on the same cart. */
  plainUs: number;
}

/**
 * Item conditions on a 100-line cart (docs/rates.md, "Item conditions"): the
 * bench ruleset plus 10 filters testing vendors, types, tags and SKUs, an index
 * of 1,000 tagged products, on the hot tier; against the bench ruleset alone.
 */
export function measureItemConditions(durationMs = 2000): ItemConditionSpeed {
  const base = benchSnapshot();
  const item = (field: string, operator: string, value: string): SnapshotCondition => ({
    id: `${field}-${operator}-${value}`,
    type: 'condition',
    field,
    operator,
    value,
  });
  const tests: SnapshotCondition[] = [
    item('cart_item_vendor', 'any_equal', 'Acme'),
    item('cart_item_vendor', 'all_equal', 'bench'),
    item('cart_item_product_tag', 'any_equal', 'oversize'),
    item('cart_item_product_tag', 'none_equal', 'hazmat'),
    item('cart_item_product_tag', 'all_equal', 'tag-3'),
    item('cart_item_product_type', 'any_equal', 'Boots'),
    item('cart_item_product_type', 'none_equal', 'Gift card'),
    item('cart_item_sku', 'any_starts_with', 'SKU-9'),
    item('cart_item_sku', 'none_starts_with', 'GIFT-'),
    item('cart_item_sku', 'all_equal', 'SKU-1'),
  ];
  const first = base.globalRuleset!.filters[0]!;
  const withItems: Snapshot = {
    ...base,
    globalRuleset: {
      ...base.globalRuleset!,
      filters: [
        ...tests.map((condition, i) => ({
          ...first,
          id: `item-${i}`,
          name: `Item ${i}`,
          raw_query: { id: `g-${i}`, condition: 'AND' as const, rules: [condition] },
          post_processing_action_type: 1 as const,
        })),
        ...base.globalRuleset!.filters,
      ],
    },
    products: Object.fromEntries(
      Array.from({ length: 1000 }, (_, i) => [
        String(1000 + i),
        { product_type: i % 3 ? 'Boots' : 'Hats', tags: ['oversize', `tag-${i % 10}`] },
      ]),
    ),
  };
  const body = benchRequest();
  const lines = (body.rate.items as Record<string, unknown>[]).slice(0, 1);
  const request = parseRateRequest({
    rate: {
      ...body.rate,
      items: Array.from({ length: 100 }, (_, i) => ({
        ...lines[0],
        sku: `SKU-${i}`,
        vendor: i % 2 ? 'Bench' : ' bench ',
        product_id: 1000 + i * 7,
        variant_id: 5000 + i,
        requires_shipping: true,
      })),
    },
  });
  const usPerQuote = (snapshot: Snapshot) => {
    const quoter = new Quoter(new HotTier({ size: 10 }));
    const compiled = compileSnapshot(snapshot);
    for (let i = 0; i < Math.max(HOT_AFTER, 5000); i++) quoter.quote(compiled, request);
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < durationMs) {
      for (let i = 0; i < 200; i++) quoter.quote(compiled, request);
      n += 200;
    }
    return ((performance.now() - t0) * 1000) / n;
  };
  return { itemUs: usPerQuote(withItems), plainUs: usPerQuote(base) };
}

export interface IndexMemory {
  shops: number;
  products: number;
  /** Heap a shop's compiled snapshot takes with its product index, and without. */
  withIndexKb: number;
  withoutIndexKb: number;
}

/**
 * Heap in use after a full collection, with the typed arrays' contents (kept
 * outside the heap, as `external`); the bench exposes gc itself.
 */
function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const use = process.memoryUsage();
  return use.heapUsed + use.external;
}

/**
 * Row 4d: the product index's share of a cached shop (docs/rates.md, "The
 * product index"): `shops` compiled snapshots of the bench ruleset plus one tag
 * condition, each with `products` tagged products in its index, against the
 * same without the index, kept alive together and weighed on the heap.
 */
export function measureIndexMemory(shops = 1000, products = 1000): IndexMemory {
  if (!(globalThis as { gc?: () => void }).gc) {
    // The bench runs without --expose-gc: turn it on, and take gc from a fresh context.
    setFlagsFromString('--expose-gc');
    (globalThis as { gc?: () => void }).gc = runInNewContext('gc') as () => void;
  }
  const tagged = (i: number, withIndex: boolean): Snapshot =>
    withTagIndex(benchSnapshot(`shop-${i}.myshopify.com`, i), i, withIndex ? products : 0);
  const weigh = (withIndex: boolean) => {
    const before = heapAfterGc();
    const kept = Array.from({ length: shops }, (_, i) => compileSnapshot(tagged(i, withIndex)));
    const after = heapAfterGc();
    if (kept.length !== shops) throw new Error('lost a snapshot');
    return (after - before) / shops / 1024;
  };
  return { shops, products, withoutIndexKb: weigh(false), withIndexKb: weigh(true) };
}
