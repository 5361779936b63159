import {
  normaliseItemText,
  shipDay,
  windowDates,
  type CartLine,
  type DeliveryWindow,
  type PreviewTrace,
  type TraceStep,
} from '@ratesmith/contracts';
import type {
  CompiledSurcharge,
  CompiledFilterList,
  CompiledProductRule,
  CompiledSnapshot,
  ItemTest,
  Matcher,
  ListTest,
  PostalTest,
} from './compiled-snapshot';
import { countryCode, regionCode } from './compile';
import type { HotTier } from './hot-tier';
import { matches } from './interpreter';
import { ceilDiv, mulDivRound, mulDivRoundExact } from './money';
import {
  CART_SCOPE,
  COUNTRY,
  F_ACTION,
  F_AMOUNT,
  F_FLAGS,
  F_OVERRIDE,
  F_READS_POSTAL,
  F_READS_REGION,
  F_READS_WEIGHT,
  F_ROOT,
  F_STEP,
  F_STOPS,
  F_UNRULED,
  F_XSLOT,
  FILTER_WORDS,
  FIRST_RULE_SCOPE,
  FIRST_X,
  FREE,
  PRICE,
  REGION,
  RETAIL,
  UNITS,
  UNRULED_SCOPE,
  WEIGHT,
} from './program-layout';
import { RateRequestError, type RateRequest } from './request';

/**
 * One rate of Shopify's carrier-service response; total_price is integer cents
 * as a string. A rate with a delivery window carries both dates
 * (`YYYY-MM-DD 00:00:00 ±HHMM`), one without neither key.
 */
export interface Rate {
  service_name: string;
  service_code:
    'RATESMITH_STANDARD' | 'RATESMITH_BUMP' | `RATESMITH_UPGRADE_${number}` | 'RATESMITH_FALLBACK';
  total_price: string;
  description: string;
  currency: string;
  min_delivery_date?: string;
  max_delivery_date?: string;
}

/** The trace is the admin's preview shape (declared once, in contracts' edge). */
export type { TraceStep };
export type QuoteTrace = PreviewTrace;

export interface Quote {
  rates: Rate[];
  /** Set when a Block Shipping filter answered: no rates, on purpose. */
  blocked?: true;
  trace?: QuoteTrace;
}

/** How many filters a snapshot holds (every list's): the table's length in filters. */
export const filterCountOf = (c: CompiledSnapshot) => (c.code.length - c.table) / FILTER_WORDS;

/**
 * The filters one quote matched, for per-filter analytics (outcomes/recorder.ts):
 * entry i is filter k as `2k + 1` when it stopped its list, `2k` when not, and
 * the change its action made to the running fee. The carrier callback reuses
 * one from quote to quote, so counting allocates nothing on the checkout path.
 */
export class FilterHits {
  count = 0;
  filters = new Int32Array(64);
  fees = new Float64Array(64);

  /** Empties it with room for every filter of c (a quote matches each at most once). */
  reset(c: CompiledSnapshot): void {
    this.count = 0;
    const filters = filterCountOf(c);
    if (this.filters.length < filters) {
      this.filters = new Int32Array(filters);
      this.fees = new Float64Array(filters);
    }
  }
}

/** The running state of one quote. */
interface Run {
  fee: number;
  matchedAny: boolean;
  /** Index in texts of the override names of the last matched filter that has them, else -1. */
  override: number;
  anyFree: boolean;
  /** A matched Block Shipping filter (action 7) ended evaluation: no rates. */
  blocked: boolean;
  steps: TraceStep[] | null;
  /** The carrier callback's quote only (not the preview's, not a trace's). */
  hits: FilterHits | null;
  request: RateRequest;
}

/**
 * Fills the figures (f, at least width x scopes long) once per request:
 * cart-wide (conditions read these), units without a product rule, and each
 * active product rule's own units.
 */
function fillFigures(
  c: CompiledSnapshot,
  request: RateRequest,
  f: Float64Array,
  size: number,
): Float64Array {
  const w = c.width;
  f.fill(0, 0, size);
  const items = request.items;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (!item.ships) continue;
    const price = item.price;
    const quantity = item.quantity;
    const grams = item.grams * quantity;
    const x = c.xIndex.get(price);
    add(f, 0, price, quantity, grams, x);
    let owned = false;
    if (item.productId !== '') {
      const rules = c.byProduct.get(item.productId);
      if (rules !== undefined) {
        for (let r = 0; r < rules.length; r++) {
          const rule = c.productRules[rules[r]!]!;
          if (rule.variantIds === null || rule.variantIds.has(item.variantId)) {
            owned = true;
            add(f, rule.scope * w, price, quantity, grams, x);
          }
        }
      }
    }
    if (!owned) add(f, UNRULED_SCOPE * w, price, quantity, grams, x);
  }
  if (!Number.isSafeInteger(f[PRICE])) throw new RateRequestError('The cart total is too large');
  if (!Number.isSafeInteger(f[WEIGHT])) throw new RateRequestError('The cart weight is too large');
  f[COUNTRY] = countryCode(request.country);
  f[REGION] = regionCode(request.region);
  const tests = c.postalTests;
  for (let t = 0; t < tests.length; t++) {
    const test = tests[t]!;
    f[test.slot] = postalHolds(test, request.postalCode) ? 1 : 0;
  }
  const lists = c.listTests;
  for (let t = 0; t < lists.length; t++) {
    const test = lists[t]!;
    const place =
      test.place === 'country'
        ? request.country
        : test.place === 'region'
          ? request.region
          : request.postalCode;
    f[test.slot] = listHolds(test, place) ? 1 : 0;
  }
  if (c.itemTests.length > 0) fillItemTests(c, items, f);
  return f;
}

/**
 * The item tests' slots (docs/rates.md, "Item conditions"): each looks at the
 * shipping lines one by one. Vendors and SKUs are normalised once a request,
 * only when a test reads them.
 */
function fillItemTests(c: CompiledSnapshot, items: readonly CartLine[], f: Float64Array): void {
  const tests = c.itemTests;
  let vendors: string[] | null = null;
  let skus: string[] | null = null;
  for (let t = 0; t < tests.length; t++) {
    const test = tests[t]!;
    if (test.figure === 'item_vendor' && vendors === null) vendors = textsOf(items, 'vendor');
    if (test.figure === 'item_sku' && skus === null) skus = textsOf(items, 'sku');
    let lines = 0;
    // One match decides "any"; one miss decides "every".
    let decided = false;
    for (let i = 0; i < items.length && !decided; i++) {
      const item = items[i]!;
      if (!item.ships) continue;
      lines++;
      const text =
        test.figure === 'item_vendor' ? vendors![i]! : test.figure === 'item_sku' ? skus![i]! : '';
      decided = lineMatches(test, item, text) !== test.every;
    }
    const holds = test.every ? lines > 0 && !decided : decided;
    f[test.slot] = holds ? 1 : 0;
  }
}

function textsOf(items: readonly CartLine[], key: 'vendor' | 'sku'): string[] {
  const texts = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) texts[i] = normaliseItemText(items[i]![key]);
  return texts;
}

/** Whether ascending `ids` hold `id`, by halves. */
function hasId(ids: Float64Array, id: number): boolean {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = ids[mid]!;
    if (at === id) return true;
    if (at < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Whether one shipping line matches an item test; `text` is its normalised vendor or SKU. */
function lineMatches(test: ItemTest, item: CartLine, text: string): boolean {
  switch (test.figure) {
    case 'item_product_tag':
    case 'item_product_type':
      // A product missing from the index has no type and no tags: it matches none.
      return item.productId !== '' && hasId(test.products, Number(item.productId));
    default:
      return test.prefix ? text.startsWith(test.value) : text === test.value;
  }
}

/**
 * Whether a list test holds for the cart's place (docs/rates.md, "Lists"):
 * one of the values, or (prefix) beginning with one of them. An empty place
 * is in no list (no value is empty).
 */
export function listHolds(test: Pick<ListTest, 'values' | 'prefix'>, place: string): boolean {
  if (!test.prefix) return test.values.has(place);
  // A cart's code has at most a few characters: its prefixes are fewer than the values.
  for (let length = 1; length <= place.length; length++) {
    if (test.values.has(place.slice(0, length))) return true;
  }
  return false;
}

/**
 * Whether a postal test holds for the cart's code (docs/rates.md); an empty
 * code equals nothing, starts with nothing and is between nothing (the rule's
 * codes are never empty).
 */
export function postalHolds(test: PostalTest, code: string): boolean {
  switch (test.test) {
    case 'equal':
      return code === test.a;
    case 'starts_with':
      return code.startsWith(test.a);
    case 'between':
      // Normalised codes hold only 0-9 and A-Z, whose character codes are in that order.
      return (
        code.length >= test.a.length &&
        comparePrefix(code, test.a) >= 0 &&
        comparePrefix(code, test.b) <= 0
      );
  }
}

/** The first bound.length characters of code against bound (-1, 0, 1), without a substring. */
function comparePrefix(code: string, bound: string): number {
  for (let i = 0; i < bound.length; i++) {
    const d = code.charCodeAt(i) - bound.charCodeAt(i);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

function add(
  f: Float64Array,
  base: number,
  price: number,
  quantity: number,
  grams: number,
  x?: number,
): void {
  f[base + PRICE] = f[base + PRICE]! + price * quantity;
  f[base + WEIGHT] = f[base + WEIGHT]! + grams;
  const kind = base + (price > 0 ? RETAIL : FREE);
  f[kind] = f[kind]! + quantity;
  f[base + UNITS] = f[base + UNITS]! + quantity;
  if (x !== undefined) f[base + FIRST_X + x] = f[base + FIRST_X + x]! + quantity;
}

/** Runs one filter list top to bottom: match, act, stop or go on. */
function runList(
  c: CompiledSnapshot,
  f: Float64Array,
  list: CompiledFilterList,
  run: Run,
  rule: CompiledProductRule | null,
  ruleIndex: number,
  hot: Matcher | null,
  freeMarks: Uint8Array,
): void {
  const code = c.code;
  for (let i = 0; i < list.count; i++) {
    const k = list.offset + i;
    const at = c.table + k * FILTER_WORDS;
    const before = run.fee;
    if (!(hot !== null ? hot(code, f, k) : matches(code, code[at + F_ROOT]!, f))) {
      if (run.steps) run.steps.push(step(c, f, run.request, k, rule, false, before, before, 0));
      continue;
    }
    run.matchedAny = true;
    const flags = code[at + F_FLAGS]!;
    const base = (rule ? rule.scope : flags & F_UNRULED ? UNRULED_SCOPE : CART_SCOPE) * c.width;
    const amount = code[at + F_AMOUNT]!;
    switch (code[at + F_ACTION]) {
      case 0:
        if (rule) {
          freeMarks[ruleIndex] = 1;
          run.anyFree = true;
        } else run.fee = 0;
        break;
      case 1:
        run.fee += amount;
        break;
      case 2:
        run.fee += amount * f[base + RETAIL]!;
        break;
      case 3:
        run.fee += amount * f[base + FREE]!;
        break;
      case 4:
        run.fee += amount * f[base + code[at + F_XSLOT]!]!;
        break;
      case 5:
        run.fee = amount;
        break;
      case 6:
        // W = 0 gives 0 steps: nothing is added.
        run.fee += amount * ceilDiv(f[base + WEIGHT]!, code[at + F_STEP]!);
        break;
      case 7:
        run.blocked = true;
        break;
    }
    const override = code[at + F_OVERRIDE]!;
    if (override >= 0) run.override = override;
    if (run.steps) run.steps.push(step(c, f, run.request, k, rule, true, before, run.fee, base));
    const hits = run.hits;
    if (hits !== null) {
      hits.filters[hits.count] = 2 * k + (flags & F_STOPS ? 1 : 0);
      hits.fees[hits.count++] = run.fee - before;
    }
    // Block Shipping stops too (compile.ts), and the quote runs no list after it.
    if (flags & F_STOPS) return;
  }
}

function step(
  c: CompiledSnapshot,
  f: Float64Array,
  request: RateRequest,
  k: number,
  rule: { id: string; productId: string } | null,
  matched: boolean,
  feeBefore: number,
  feeAfter: number,
  base: number,
): TraceStep {
  const at = c.table + k * FILTER_WORDS;
  const flags = c.code[at + F_FLAGS]!;
  const weighed = matched && c.code[at + F_ACTION] === 6;
  return {
    scope: rule ? 'product' : 'global',
    ...(rule ? { productRuleId: rule.id, productId: rule.productId } : {}),
    filterId: c.texts[2 * k]!,
    filterName: c.texts[2 * k + 1]!,
    matched,
    ...(matched ? { actionType: c.code[at + F_ACTION]! } : {}),
    feeBefore,
    feeAfter,
    stopped: matched && (flags & F_STOPS) !== 0,
    // What its conditions compared, so a merchant sees why it matched or not.
    ...(flags & F_READS_WEIGHT ? { cartWeight: f[WEIGHT]! } : {}),
    ...(flags & F_READS_REGION ? { region: request.region } : {}),
    ...(flags & F_READS_POSTAL ? { postalCode: request.postalCode } : {}),
    ...(weighed
      ? {
          scopeWeight: f[base + WEIGHT]!,
          weightSteps: ceilDiv(f[base + WEIGHT]!, c.code[at + F_STEP]!),
        }
      : {}),
  };
}

/** Units of products whose product rule marked them free, each unit counted once. */
function freeUnits(c: CompiledSnapshot, request: RateRequest, freeMarks: Uint8Array): number {
  let units = 0;
  for (const item of request.items) {
    if (!item.ships || item.productId === '') continue;
    const rules = c.byProduct.get(item.productId);
    if (!rules) continue;
    const free = rules.some((r) => {
      const rule = c.productRules[r]!;
      return (
        freeMarks[r] === 1 && (rule.variantIds === null || rule.variantIds.has(item.variantId))
      );
    });
    if (free) units += item.quantity;
  }
  return units;
}

/**
 * Quotes carts against compiled snapshots, with its scratch space and,
 * when given one, a hot tier (hot-tier.ts). The service wiring creates one
 * and hands it to every caller that quotes cached snapshots.
 *
 * The scratch space (the figures and the free-item marks) is shared by every
 * snapshot the quoter quotes: quotes are synchronous (nothing else runs
 * between filling and reading them), so one set a quoter is enough, and
 * 10,000 cached shops do not each keep their own.
 */
export class Quoter {
  private figures = new Float64Array(1024);
  private freeMarks = new Uint8Array(64);

  /** `hot`: the hot tier whose generated code quotes shops being quoted; null: the program loop only. */
  constructor(readonly hot: HotTier | null = null) {}

  /**
   * Quotes a cart against a compiled snapshot (docs/rates.md: actions,
   * order and answer). Synchronous and pure but for the quoter's scratch space, which it
   * overwrites first. `trace` adds the step-by-step account the preview and
   * the quote command show; `hits`, when given, is emptied and gets the
   * filters the quote matched (the carrier callback's analytics).
   */
  quote(
    c: CompiledSnapshot,
    request: RateRequest,
    trace = false,
    hits: FilterHits | null = null,
  ): Quote {
    const size = c.width * (FIRST_RULE_SCOPE + c.productRules.length);
    if (this.figures.length < size) this.figures = new Float64Array(size);
    const f = fillFigures(c, request, this.figures, size);
    const run: Run = {
      fee: 0,
      matchedAny: false,
      override: -1,
      anyFree: false,
      blocked: false,
      steps: trace ? [] : null,
      hits,
      request,
    };
    hits?.reset(c);
    // The hot tier's generated code once this shop is being quoted, else the program walk.
    const hot = this.hot === null ? null : this.hot.matcher(c);
    let freeMarks = this.freeMarks;
    if (c.global) runList(c, f, c.global, run, null, -1, hot, freeMarks);
    if (c.productRules.length) {
      if (freeMarks.length < c.productRules.length)
        freeMarks = this.freeMarks = new Uint8Array(c.productRules.length);
      freeMarks.fill(0, 0, c.productRules.length);
      for (let j = 0; j < c.productRules.length && !run.blocked; j++) {
        const rule = c.productRules[j]!;
        if (f[rule.scope * c.width + UNITS] === 0) continue;
        runList(c, f, rule, run, rule, j, hot, freeMarks);
      }
    }
    let freeItems: QuoteTrace['freeItems'] = null;
    if (run.anyFree && !run.blocked) {
      const total = f[UNITS]!;
      const free = freeUnits(c, request, freeMarks);
      const before = run.fee;
      run.fee = mulDivRound(run.fee, total - free, total);
      freeItems = { totalUnits: total, freeUnits: free, feeBefore: before, feeAfter: run.fee };
    }
    if (!Number.isSafeInteger(run.fee))
      throw new RateRequestError('The cart is too large to quote');

    // Blocked: no rates at all, not even the fallback (the merchant asked for none).
    const rates = run.blocked
      ? []
      : run.matchedAny
        ? ratesFor(c, run, request)
        : unmatchedRates(c, request.currency);
    const answered = run.blocked ? { rates, blocked: true as const } : { rates };
    if (!trace) return answered;
    return {
      ...answered,
      trace: {
        steps: run.steps!,
        freeItems,
        matchedAny: run.matchedAny,
        blocked: run.blocked,
        fee: run.matchedAny && !run.blocked ? run.fee : 0,
      },
    };
  }
}

/**
 * One quote on the program loop, with scratch space of its own (the quote
 * command, the preview of drafts, tests); see `Quoter.quote`.
 */
export function quote(c: CompiledSnapshot, request: RateRequest, trace = false): Quote {
  return new Quoter().quote(c, request, trace);
}

/** No filter matched: the shop's fallback rate if it set one, else no rate (docs/rates.md). */
function unmatchedRates(c: CompiledSnapshot, currency: string): Rate[] {
  const fallback = c.fallback;
  if (fallback === null) return [];
  return [
    {
      service_name: fallback.name,
      service_code: 'RATESMITH_FALLBACK',
      total_price: String(fallback.cost),
      description: fallback.description,
      currency,
    },
  ];
}

function ratesFor(c: CompiledSnapshot, run: Run, request: RateRequest): Rate[] {
  const { fee, override } = run;
  const currency = request.currency;
  const texts = c.texts;
  // Override names: shipping name, description, bump name, description (see compile.ts).
  const o = (n: number) => (override >= 0 ? texts[override + n]! : '');
  const regular: Rate = {
    service_name: o(0) || c.carrierName || 'Shipping',
    service_code: 'RATESMITH_STANDARD',
    total_price: String(fee),
    description: o(1) || c.carrierDescription || '',
    currency,
  };
  const rates: Rate[] = [regular];
  const bump = c.bump;
  if (bump) {
    rates.push({
      service_name: o(2) || bump.name,
      service_code: 'RATESMITH_BUMP',
      total_price: surchargedTotal(fee, bump),
      description: o(3) || bump.description,
      currency,
    });
  }
  const upgrades = c.upgrades;
  for (let i = 0; i < upgrades.length; i++) {
    const upgrade = upgrades[i]!;
    rates.push({
      service_name: upgrade.name,
      service_code: upgrade.code,
      total_price: surchargedTotal(fee, upgrade),
      description: upgrade.description,
      currency,
    });
  }
  // A shop without any window never reads the clock here (c.calendar is null).
  if (c.calendar !== null) addDates(c, run, request, rates);
  return rates;
}

/**
 * The delivery dates (docs/rates.md, "Delivery dates"): one ship day a quote,
 * then each windowed rate's two dates. The regular rate takes the override's
 * window when it has one, else the settings'; the bump and the upgrades their own.
 */
function addDates(c: CompiledSnapshot, run: Run, request: RateRequest, rates: Rate[]): void {
  const override = run.override;
  const overrideWindow = override >= 0 ? c.overrideWindows[(override - c.overrideBase) / 4]! : null;
  const regular = overrideWindow ?? c.regularWindow;
  // The clock is read once a quote, and only by a shop with a window somewhere.
  const now = request.receivedAt ?? Date.now();
  if (regular !== null) setDates(rates[0]!, datesOf(c, now, regular));
  let i = 1;
  if (c.bump) {
    if (c.bump.window !== null) setDates(rates[i]!, datesOf(c, now, c.bump.window));
    i++;
  }
  for (const upgrade of c.upgrades) {
    if (upgrade.window !== null) setDates(rates[i]!, datesOf(c, now, upgrade.window));
    i++;
  }
}

function setDates(rate: Rate, dates: { min: string; max: string }): void {
  rate.min_delivery_date = dates.min;
  rate.max_delivery_date = dates.max;
}

/**
 * A window's dates for this request, from the snapshot's dates of the current
 * minute. Within one UTC minute the ship day cannot change: a cutoff is a whole
 * local minute, and local midnights and daylight-saving changes fall on whole
 * UTC minutes (every zone's offset is a whole number of minutes). So the
 * calendar's arithmetic (and its time-zone lookups, the costly part) runs once
 * a minute per shop and window, not once a quote.
 */
function datesOf(
  c: CompiledSnapshot,
  now: number,
  window: DeliveryWindow,
): { min: string; max: string } {
  const calendar = c.calendar!;
  const minute = Math.floor(now / 60_000);
  let memo = c.dates;
  if (memo === null || memo.minute !== minute) {
    memo = c.dates = { minute, ship: shipDay(new Date(now), calendar), byWindow: new Map() };
  }
  const key = window.min * 64 + window.max;
  let dates = memo.byWindow.get(key);
  if (dates === undefined) {
    dates = windowDates(memo.ship, calendar, window);
    memo.byWindow.set(key, dates);
  }
  return dates;
}

/**
 * A surcharged rate's price in cents (the bump's, an upgrade's), exactly: fee +
 * cost, or fee + round(fee x percent / 100) (`cost` holds hundredths of a
 * percent). Past 2^53 a float sum would round, so that rare case is added in BigInt.
 */
function surchargedTotal(fee: number, service: CompiledSurcharge): string {
  const extra = service.action === 1 ? mulDivRound(fee, service.cost, 10_000) : service.cost;
  const total = fee + extra;
  if (Number.isSafeInteger(total)) return String(total);
  const exact =
    service.action === 1 ? mulDivRoundExact(fee, service.cost, 10_000) : BigInt(service.cost);
  return String(BigInt(fee) + exact);
}
