/**
 * The shape of a compiled snapshot: what compile.ts produces and the
 * interpreter, the hot tier and evaluate.ts read. Types only.
 */
import type { CalendarDay, DeliveryWindow, ItemFigure, ShopCalendar } from '@ratesmith/contracts';

/** A snapshot's generated matcher: filter n's conditions on figures f, constants read from p. */
export type Matcher = (p: Int32Array, f: Float64Array, n: number) => boolean;

/** A generated function held by a hot tier (hot-tier.ts), shared by the snapshots of one shape. */
export interface HotEntry {
  /** Null once evicted from the LRU. */
  fn: Matcher | null;
  /** The generated source: the cache key. */
  source: string;
  /** Last use, for the LRU. */
  stamp: number;
}

/**
 * One test of the cart's normalised postal code C (docs/rates.md): `equal`
 * C = a, `starts_with` C begins with a, `between` a <= C's first a.length
 * characters <= b. Its slot holds 1 when it holds, else 0.
 */
export interface PostalTest {
  slot: number;
  test: 'equal' | 'starts_with' | 'between';
  a: string;
  b: string;
}

/**
 * One list condition's test of the destination (docs/rates.md, "Lists"):
 * whether the cart's country, region or normalised postal code is one of
 * `values` (`in`), or begins with one of them (`prefix`, `starts_with_any`).
 * Its slot holds 1 when it holds, else 0; an empty place is in no list.
 */
export interface ListTest {
  slot: number;
  place: 'country' | 'region' | 'postal_code';
  values: ReadonlySet<string>;
  prefix: boolean;
}

/**
 * One item condition's test of the cart's shipping lines (docs/rates.md,
 * "Item conditions"): a line matches when its text of `figure` equals
 * `value` (or begins with it, `prefix`; for tags, when one tag equals it).
 * The slot holds 1 when at least one line matches, or with `every` when the
 * cart has a shipping line and every one matches; `none_` is the NE of the
 * `any_` slot.
 */
export interface ItemTest {
  slot: number;
  figure: ItemFigure;
  /** Normalised (normaliseItemText): never empty. */
  value: string;
  prefix: boolean;
  every: boolean;
  /**
   * A type or tag test's matching products, from the snapshot's index: their
   * ids ascending (8 bytes each, searched by halves), so a shop of 1,000 tagged
   * products keeps kilobytes, not a map of strings. Empty for vendors and SKUs.
   */
  products: Float64Array;
}

export interface CompiledFilterList {
  /** The list's filters are the snapshot's filters offset to offset + count - 1. */
  offset: number;
  count: number;
}

/** The enabled ruleset's filter list; its id names its filters in per-filter analytics. */
export interface CompiledRuleset extends CompiledFilterList {
  id: string;
}

/** A product rule is its own filter list. */
export interface CompiledProductRule extends CompiledFilterList {
  id: string;
  productId: string;
  /** Null: every variant. */
  variantIds: Set<string> | null;
  scope: number;
}

/** How a surcharged service (the bump, an upgrade) is priced from the regular fee. */
export interface CompiledSurcharge {
  /** 1: percent on top, 2: static fee on top. */
  action: 1 | 2;
  /** Action 1: the percentage in hundredths (12.5 % is 1250). Action 2: cents. */
  cost: number;
}

export interface CompiledBump extends CompiledSurcharge {
  name: string;
  description: string;
  /** Null: the bump rate carries no dates. */
  window: DeliveryWindow | null;
}

/** One upgrade (docs/rates.md, "Upgrades"): no filter overrides its texts. */
export interface CompiledUpgrade extends CompiledBump {
  code: `RATESMITH_UPGRADE_${number}`;
}

/** The rate answered when no filter matched (docs/rates.md). */
export interface CompiledFallback {
  /** Cents. */
  cost: number;
  name: string;
  description: string;
}

export interface CompiledSnapshot {
  shop: string;
  version: number;
  rateKey: string | null;
  carrierName: string;
  carrierDescription: string;
  bump: CompiledBump | null;
  /** The upgrades, in list order (empty for most shops). */
  upgrades: CompiledUpgrade[];
  /** The settings' window of the regular rate; null: none. */
  regularWindow: DeliveryWindow | null;
  /**
   * The shop's calendar, or null when no rate of any quote can carry dates
   * (no window anywhere): a quote reads the clock only when it is set.
   */
  calendar: ShopCalendar | null;
  /**
   * The override windows: entry i belongs to the override names at texts[overrideBase + 4i]
   * (null: that filter has none, so the settings' window applies).
   */
  overrideWindows: (DeliveryWindow | null)[];
  /** Index in texts of the first override's names. */
  overrideBase: number;
  /**
   * The dates of the minute last quoted (evaluate.ts, `datesOf`): its ship day
   * and each window's dates (key min x 64 + max). Null until a windowed quote.
   */
  dates: {
    minute: number;
    ship: CalendarDay;
    byWindow: Map<number, { min: string; max: string }>;
  } | null;
  /** Null: no filter matched answers no rate. */
  fallback: CompiledFallback | null;
  /** Callbacks sampled a minute for Recent checkouts (the shop's setting); 0 when it is off. */
  recentPerMinute: number;
  global: CompiledRuleset | null;
  /** Active product rules, in the order they were added. */
  productRules: CompiledProductRule[];
  /** Unit price in cents -> its k (figures slot FIRST_X + k). */
  xIndex: Map<number, number>;
  /** The postal-code tests the rules make, each filling its own slot once per request. */
  postalTests: PostalTest[];
  /** The list conditions' tests, each filling its own slot once per request. */
  listTests: ListTest[];
  /** The item conditions' tests, each filling its own slot once per request. */
  itemTests: ItemTest[];
  /** Product id -> indexes into productRules. */
  byProduct: Map<string, number[]>;
  /** Every filter's conditions (see `matches`), then the filter table at `table` (program-layout.ts). */
  code: Int32Array;
  table: number;
  /**
   * Filter k's id and name are texts[2k] and texts[2k + 1]; the override
   * names follow (shipping name, description, bump name, description).
   */
  texts: string[];
  /** Slots per scope; a quote's figures are width x (FIRST_RULE_SCOPE + productRules.length). */
  width: number;
  /** Quotes run on this version since countedSince (the hot tier's busy test, see hot-tier.ts). */
  quotes: number;
  /** Start of the window (ms) in which `quotes` are counted. */
  countedSince: number;
  /** Its entry in the hot tier (generated code), once it has one; see hot-tier.ts. */
  hot: HotEntry | null;
}
