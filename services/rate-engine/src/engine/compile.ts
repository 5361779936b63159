import {
  actionHasAmount,
  BLOCK_SHIPPING,
  deliverySettingsProblems,
  type DeliveryWindow,
  type ShopCalendar,
  upgradeCode,
  fieldByKey,
  isListOperator,
  ruleProductId,
  isAmountInRange,
  LIMITS,
  normaliseItemText,
  type ItemFigure,
  validateFilters,
  type FilterScope,
  type ScalarFigure,
  type Snapshot,
  type SnapshotCondition,
  type SnapshotFilter,
  type SnapshotGroup,
  type SnapshotSettings,
  type Weight,
  weightToGrams,
} from '@ratesmith/contracts';
import type {
  CompiledBump,
  CompiledFallback,
  CompiledUpgrade,
  CompiledFilterList,
  CompiledSnapshot,
  ItemTest,
  ListTest,
  PostalTest,
} from './compiled-snapshot';
import { toCents } from './money';
import {
  AND,
  COUNTRY,
  EQ,
  F_OVERRIDE,
  F_READS_POSTAL,
  F_READS_REGION,
  F_READS_WEIGHT,
  F_STOPS,
  F_UNRULED,
  FILTER_WORDS,
  FIRST_RULE_SCOPE,
  FIRST_X,
  FREE,
  GE,
  GT,
  LE,
  LT,
  NE,
  OR,
  PRICE,
  REGION,
  RETAIL,
  WEIGHT,
} from './program-layout';

/**
 * The program builder: compiles a snapshot once per version into the form
 * quotes run on (the layout is program-layout.ts, the result's type
 * compiled-snapshot.ts):
 *
 * - Every cart figure a condition or action can read gets a fixed slot in one
 *   Float64Array, filled once per request (see evaluate.ts).
 * - Every filter's conditions become a short program in ONE Int32Array per
 *   snapshot, two words a node: a group is [AND|OR, end, ...children], a
 *   condition [operator | slot << 3, constant]. `matches` (interpreter.ts)
 *   walks it with short-circuiting, with no allocation; constants are integers the compiler produced (cents,
 *   counts, grams, country and region codes as numbers; a postal-code test is
 *   its own slot, 1 when it holds, see XPrices). No code is generated here: a
 *   generated function costs V8 tens of kilobytes once it has run (source,
 *   bytecode, feedback, baseline code), which 10,000 cached shops cannot
 *   afford, while the program is 8 bytes a condition; only the shops being
 *   quoted get generated code (hot-tier.ts).
 *   Conditions allocate nothing and never re-read raw_query.
 *
 * The compiler refuses what docs/rates.md says is never evaluated (unknown
 * fields or operators, incomplete conditions, the limits of section 2) with
 * every problem listed, so the engine never guesses: each filter list goes
 * through the filter language's one validation (`validateFilters` in
 * contracts, the rules service's and the editor's check too), in its
 * snapshot form.
 */

export class SnapshotCompileError extends Error {
  constructor(readonly problems: string[]) {
    super(`The rules cannot be evaluated: ${problems.slice(0, 10).join('; ')}`);
    this.name = 'SnapshotCompileError';
  }
}

const OPERATORS: Record<string, number> = {
  equal: EQ,
  not_equal: NE,
  greater_than: GT,
  greater_or_equal: GE,
  less_than: LT,
  less_or_equal: LE,
};
const MAX_AMOUNT = LIMITS.maxAmount.toLocaleString('en-US');

/** A two-letter country as a number (AA = 0 ... ZZ = 675); anything else is -1. */
export function countryCode(country: string): number {
  if (country.length !== 2) return -1;
  const a = country.charCodeAt(0) - 65;
  const b = country.charCodeAt(1) - 65;
  if (a < 0 || a > 25 || b < 0 || b > 25) return -1;
  return a * 26 + b;
}

/** A region character as a base-37 digit: 0-9 are 1-10, A-Z 11-36 (0 is "no character"). */
function regionDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 47;
  if (code >= 65 && code <= 90) return code - 54;
  return -1;
}

/**
 * A region `AA-XXX` (upper case) as a number: the country (countryCode) then
 * up to three base-37 digits, so two regions are equal exactly when their
 * numbers are. Empty is -1, anything else not of that form -2: neither equals
 * a rule's region (always >= 0), as docs/rates.md wants of a missing province.
 */
export function regionCode(region: string): number {
  if (region === '') return -1;
  const country = countryCode(region.slice(0, 2));
  const rest = region.length - 3;
  if (country < 0 || region.charCodeAt(2) !== 45 || rest < 1 || rest > 3) return -2;
  let code = country;
  for (let i = 0; i < 3; i++) {
    const digit = i < rest ? regionDigit(region.charCodeAt(3 + i)) : 0;
    if (digit < 0) return -2;
    code = code * 37 + digit;
  }
  return code;
}

/**
 * Where each cart figure of the catalogue sits in a scope's figures (units at a
 * price X get a slot per X, see XPrices). A figure added to the catalogue
 * fails the type check here until the engine measures it.
 */
const FIGURE_SLOTS: Record<ScalarFigure, number> = {
  shipping_country: COUNTRY,
  price: PRICE,
  retail_units: RETAIL,
  free_units: FREE,
  weight: WEIGHT,
  region: REGION,
};

/** Which flag of a filter says its conditions read a figure the trace shows. */
const READS: Partial<Record<string, number>> = {
  weight: F_READS_WEIGHT,
  region: F_READS_REGION,
  postal_code: F_READS_POSTAL,
};

function isCondition(rule: SnapshotCondition | SnapshotGroup): rule is SnapshotCondition {
  return (rule as SnapshotCondition).type === 'condition';
}

/**
 * Numbers the extra slots from FIRST_X on: one per price X (cents) the rules
 * compare or charge by, one per distinct postal-code test.
 */
class XPrices {
  readonly index = new Map<number, number>();
  readonly postal: PostalTest[] = [];
  readonly lists: ListTest[] = [];
  readonly items: ItemTest[] = [];
  private readonly listKeys = new Map<string, number>();
  private readonly itemKeys = new Map<string, number>();
  private readonly postalKeys = new Map<string, number>();
  private size = 0;
  get width(): number {
    return FIRST_X + this.size;
  }
  slotOf(cents: number): number {
    let k = this.index.get(cents);
    if (k === undefined) {
      k = this.size++;
      this.index.set(cents, k);
    }
    return FIRST_X + k;
  }
  /** The slot of a list test; the same list of the same place shares one. */
  listSlot(place: ListTest['place'], values: readonly string[], prefix: boolean): number {
    const key = `${place}:${prefix}:${[...values].sort().join(',')}`;
    let slot = this.listKeys.get(key);
    if (slot === undefined) {
      slot = FIRST_X + this.size++;
      this.listKeys.set(key, slot);
      this.lists.push({ slot, place, values: new Set(values), prefix });
    }
    return slot;
  }
  /** The slot of an item test; the same test of the same text shares one. */
  itemSlot(figure: ItemFigure, value: string, prefix: boolean, every: boolean): number {
    const key = `${figure}:${prefix}:${every}:${value}`;
    let slot = this.itemKeys.get(key);
    if (slot === undefined) {
      slot = FIRST_X + this.size++;
      this.itemKeys.set(key, slot);
      this.items.push({ slot, figure, value, prefix, every, products: NO_PRODUCTS });
    }
    return slot;
  }
  postalSlot(test: PostalTest['test'], a: string, b = ''): number {
    const key = `${test}:${a}:${b}`;
    let slot = this.postalKeys.get(key);
    if (slot === undefined) {
      slot = FIRST_X + this.size++;
      this.postalKeys.set(key, slot);
      this.postal.push({ slot, test, a, b });
    }
    return slot;
  }
}

/**
 * A postal-code condition as [operator, slot, 1]: the slot holds whether the
 * positive test holds (filled per request), so `not_equal` and
 * `not_starts_with` are its NE.
 */
function postalOperands(condition: SnapshotCondition, x: XPrices): [number, number, number] {
  const value = condition.value;
  switch (condition.operator) {
    case 'between': {
      const range = value as { from: string; to: string };
      return [EQ, x.postalSlot('between', range.from, range.to), 1];
    }
    case 'starts_with':
    case 'not_starts_with':
      return [
        condition.operator === 'starts_with' ? EQ : NE,
        x.postalSlot('starts_with', value as string),
        1,
      ];
    default:
      return [condition.operator === 'equal' ? EQ : NE, x.postalSlot('equal', value as string), 1];
  }
}

/**
 * A list condition (in, not_in, starts_with_any, not_starts_with_any) as
 * [operator, slot]: the slot holds whether the positive test holds, so the
 * negations are its NE.
 */
function listOperands(condition: SnapshotCondition, x: XPrices): [number, number] {
  const field = fieldByKey(condition.field)!;
  const place =
    field.kind === 'postal_code' ? 'postal_code' : field.kind === 'region' ? 'region' : 'country';
  const { operator } = condition;
  const prefix = operator === 'starts_with_any' || operator === 'not_starts_with_any';
  const positive = operator === 'in' || operator === 'starts_with_any';
  return [positive ? EQ : NE, x.listSlot(place, condition.value as string[], prefix)];
}

/**
 * An item condition (docs/rates.md, "Item conditions") as [operator, slot]:
 * `any_` and `all_` are EQ of their slot, `none_` the NE of the `any_` slot.
 */
function itemOperands(
  figure: ItemFigure,
  condition: SnapshotCondition,
  x: XPrices,
): [number, number] {
  const [quantifier, ...test] = condition.operator.split('_');
  const prefix = test.join('_') === 'starts_with';
  const value = normaliseItemText(condition.value as string);
  const slot = x.itemSlot(figure, value, prefix, quantifier === 'all');
  return [quantifier === 'none' ? NE : EQ, slot];
}

/** [slot, constant] of a condition the filter language has admitted (validateFilters). */
function conditionOperands(condition: SnapshotCondition, x: XPrices): [number, number] {
  const field = fieldByKey(condition.field)!;
  const value = condition.value;
  // By the value's kind only: which figure it reads comes from the catalogue.
  switch (field.kind) {
    case 'country':
      return [FIGURE_SLOTS[field.figure], countryCode(value as string)];
    case 'region':
      return [FIGURE_SLOTS[field.figure], regionCode(value as string)];
    case 'weight':
      return [FIGURE_SLOTS[field.figure], weightToGrams(value as Weight)];
    case 'postal_code':
      throw new Error('postal codes compile in postalOperands');
    case 'item_text':
      throw new Error('item conditions compile in itemOperands');
    case 'amount':
      return [FIGURE_SLOTS[field.figure], toCents(value as number)];
    case 'count':
      return [FIGURE_SLOTS[field.figure], value as number];
    case 'count_amount': {
      const pair = value as { count: number; amount: number };
      return [x.slotOf(toCents(pair.amount)), pair.count];
    }
  }
}

/**
 * Appends a group to the program: [AND|OR, end, ...children]; answers the
 * F_READS_* flags of the figures its conditions read.
 */
function emitGroup(group: SnapshotGroup, x: XPrices, out: number[]): number {
  const at = out.length;
  let reads = 0;
  // Only a root can be empty (the language refuses an empty nested group): it matches
  // every cart, whichever combinator it names.
  out.push(group.condition === 'OR' && group.rules.length > 0 ? OR : AND, 0);
  for (const rule of group.rules) {
    if (isCondition(rule)) {
      const field = fieldByKey(rule.field)!;
      reads |= READS[field.figure] ?? 0;
      if (isListOperator(rule.operator)) {
        const [op, slot] = listOperands(rule, x);
        out.push(op | (slot << 3), 1);
      } else if (field.kind === 'item_text') {
        const [op, slot] = itemOperands(field.figure, rule, x);
        out.push(op | (slot << 3), 1);
      } else if (field.kind === 'postal_code') {
        const [op, slot, constant] = postalOperands(rule, x);
        out.push(op | (slot << 3), constant);
      } else {
        const [slot, constant] = conditionOperands(rule, x);
        out.push(OPERATORS[rule.operator]! | (slot << 3), constant);
      }
    } else {
      reads |= emitGroup(rule, x, out);
    }
  }
  out[at + 1] = out.length;
  return reads;
}

interface SnapshotDraft {
  problems: string[];
  x: XPrices;
  /** Conditions (see `matches`). */
  out: number[];
  /** FILTER_WORDS numbers a filter. */
  table: number[];
  /** Ids and names, two a filter. */
  names: string[];
  /** Override names, four a filter that overrides. */
  overrides: string[];
  /** The delivery window of each filter that overrides, or null. */
  overrideWindows: (DeliveryWindow | null)[];
}

/** A window of the snapshot (bounds checked by `windowProblems`), or null when it has none. */
function windowOf(min: number | null, max: number | null): DeliveryWindow | null {
  return min === null || max === null ? null : { min, max };
}

/**
 * Appends one admitted filter. Its canonical form gives the query and the amounts; ids,
 * names and override texts are kept as the snapshot wrote them (the trace and the
 * rates show them).
 */
function compileFilter(filter: SnapshotFilter, written: SnapshotFilter, d: SnapshotDraft): void {
  const root = d.out.length;
  const reads = emitGroup(filter.raw_query, d.x, d.out);
  const type = filter.action_type;
  const amount = actionHasAmount(type) ? toCents(filter.action_data!) : 0;
  const xSlot = type === 4 ? d.x.slotOf(toCents(filter.rule_product_limit_amount!)) : -1;
  let override = -1;
  if (filter.is_shipping_overridden === 'Yes') {
    override = d.overrides.length;
    d.overrides.push(
      written.shipping_name,
      written.shipping_description,
      written.bump_shipping_name,
      written.bump_shipping_description,
    );
    d.overrideWindows.push(windowOf(filter.delivery_min_days, filter.delivery_max_days));
  }
  const flags =
    reads |
    (filter.global_rule_action === 1 ? F_UNRULED : 0) |
    // Block Shipping ends evaluation whatever its "after a match" says.
    (filter.post_processing_action_type === 0 || type === BLOCK_SHIPPING ? F_STOPS : 0);
  const step = type === 6 ? weightToGrams(filter.action_weight_step!) : 0;
  d.table.push(root, type, amount, xSlot, flags, override, step);
  d.names.push(written.id, written.name);
}

/**
 * Admits a filter list with the filter language's one validation (the limits of
 * docs/rates.md, section 2, in its snapshot form), then appends it; every problem is
 * noted in d.
 */
function compileList(
  filters: SnapshotFilter[],
  scope: FilterScope,
  owner: string,
  d: SnapshotDraft,
): CompiledFilterList {
  const offset = d.table.length / FILTER_WORDS;
  const admitted = validateFilters(filters, scope, {
    source: 'snapshot',
    owner,
    ruleLabel: (index) => `${owner} rule #${index + 1}`,
  });
  if (admitted.errors.length) {
    d.problems.push(...admitted.errors);
    return { offset, count: 0 };
  }
  admitted.filters.forEach((filter, i) => compileFilter(filter, filters[i]!, d));
  return { offset, count: filters.length };
}

/**
 * The upgrades (docs/rates.md, "Upgrades"), once `upgradeProblems` has admitted
 * them; costs in the bump's units.
 */
function compileUpgrades(settings: SnapshotSettings): CompiledUpgrade[] {
  return settings.upgrades.map((upgrade, i) => ({
    code: upgradeCode(i),
    action: upgrade.action,
    cost: toCents(upgrade.cost),
    name: upgrade.name,
    description: upgrade.description,
    window: windowOf(upgrade.delivery_min_days, upgrade.delivery_max_days),
  }));
}

/** The shop's calendar, only when some rate can carry dates. */
function calendarOf(settings: SnapshotSettings, windowed: boolean): ShopCalendar | null {
  if (!windowed) return null;
  const { timezone, business_days, holidays, cutoff_time, processing_days } = settings;
  return { timezone, business_days, holidays, cutoff_time, processing_days };
}

function compileBump(settings: SnapshotSettings, problems: string[]): CompiledBump | null {
  const action = settings.bump_shipping_action;
  if (!settings.bump_shipping_enabled || (action !== 1 && action !== 2)) return null;
  const cost = settings.bump_shipping_cost;
  if (!isAmountInRange(cost)) {
    problems.push(`The bump shipping cost must be from 0 to ${MAX_AMOUNT}`);
    return null;
  }
  return {
    action,
    // Both are the cost x 100: hundredths of a percent, or cents.
    cost: toCents(cost),
    name: settings.bump_shipping_name,
    description: settings.bump_shipping_description,
    window: windowOf(settings.bump_delivery_min_days, settings.bump_delivery_max_days),
  };
}

function compileFallback(settings: SnapshotSettings, problems: string[]): CompiledFallback | null {
  if (!settings.fallback_enabled) return null;
  if (!isAmountInRange(settings.fallback_cost)) {
    problems.push(`The fallback rate's amount must be from 0 to ${MAX_AMOUNT}`);
    return null;
  }
  return {
    cost: toCents(settings.fallback_cost),
    name: settings.fallback_name,
    description: settings.fallback_description,
  };
}

const NO_PRODUCTS = new Float64Array(0);

/**
 * Gives each type and tag test the ids of the products it matches, from the
 * snapshot's index (normalised as the test is); a product missing from the
 * index matches none. Ids are decimal up to 16 digits: those past 2^53 cannot
 * be held exactly, so they are left out (no Shopify id is that long).
 */
function matchProducts(tests: ItemTest[], products: Snapshot['products']): void {
  const reads = tests.filter(
    (t) => t.figure === 'item_product_type' || t.figure === 'item_product_tag',
  );
  if (reads.length === 0) return;
  const found = reads.map(() => [] as number[]);
  for (const [id, facts] of Object.entries(products)) {
    const n = Number(id);
    if (!Number.isSafeInteger(n)) continue;
    const type = normaliseItemText(facts.product_type);
    const tags = facts.tags.map(normaliseItemText);
    reads.forEach((test, k) => {
      const hit =
        test.figure === 'item_product_type' ? type === test.value : tags.includes(test.value);
      if (hit) found[k]!.push(n);
    });
  }
  reads.forEach((test, k) => {
    test.products = Float64Array.from(found[k]!).sort();
  });
}

export interface CompileOptions {
  /**
   * How problems name the global filter list: "The enabled ruleset" for a
   * published snapshot; the preview of unsaved filters says "The draft".
   */
  globalOwner?: string;
  /** The product rule whose filters are a draft: its problems say "The draft" too. */
  draftProductRuleId?: string;
}

/** Compiles a validated snapshot (proto/src/snapshot.ts); throws SnapshotCompileError. */
export function compileSnapshot(
  snapshot: Snapshot,
  options: CompileOptions = {},
): CompiledSnapshot {
  const problems: string[] = [];
  const x = new XPrices();
  const d: SnapshotDraft = {
    problems,
    x,
    out: [],
    table: [],
    names: [],
    overrides: [],
    overrideWindows: [],
  };
  const ruleset = snapshot.globalRuleset;
  const globalOwner = options.globalOwner ?? 'The enabled ruleset';
  const global = ruleset
    ? { id: ruleset.id, ...compileList(ruleset.filters, 'ruleset', globalOwner, d) }
    : null;
  const active = snapshot.productRules.filter((rule) => rule.active);
  const lists = active.map((rule) =>
    compileList(
      rule.filters,
      'product',
      rule.id === options.draftProductRuleId ? 'The draft' : `Product rule ${rule.productId}`,
      d,
    ),
  );
  const bump = compileBump(snapshot.settings, problems);
  const fallback = compileFallback(snapshot.settings, problems);
  // The calendar, the windows and the upgrades: the one check Settings' save runs too.
  const settingsProblems = deliverySettingsProblems(snapshot.settings);
  problems.push(...settingsProblems);
  const upgrades = settingsProblems.length ? [] : compileUpgrades(snapshot.settings);
  const regularWindow = windowOf(
    snapshot.settings.delivery_min_days,
    snapshot.settings.delivery_max_days,
  );

  const byProduct = new Map<string, number[]>();
  active.forEach((rule, j) => {
    const id = ruleProductId(rule.productId);
    if (id === undefined) {
      problems.push(`Product rule ${rule.productId} has no numeric product id`);
      return;
    }
    const list = byProduct.get(id) ?? [];
    list.push(j);
    byProduct.set(id, list);
  });
  if (problems.length) throw new SnapshotCompileError(problems);
  // Exact-size arrays: push leaves slack, and 10,000 cached shops keep it.
  for (const [id, list] of byProduct) byProduct.set(id, list.slice());

  const width = x.width;
  matchProducts(x.items, snapshot.products);
  // Override names follow the ids and names in texts.
  for (let k = F_OVERRIDE; k < d.table.length; k += FILTER_WORDS) {
    if (d.table[k]! >= 0) d.table[k]! += d.names.length;
  }
  return {
    shop: snapshot.shop,
    version: snapshot.version,
    rateKey: snapshot.rateKey,
    carrierName: snapshot.settings.carrier_name,
    carrierDescription: snapshot.settings.carrier_description,
    bump,
    upgrades,
    regularWindow,
    calendar: calendarOf(
      snapshot.settings,
      regularWindow !== null ||
        (bump !== null && bump.window !== null) ||
        upgrades.some((u) => u.window !== null) ||
        d.overrideWindows.some((w) => w !== null),
    ),
    overrideWindows: d.overrideWindows,
    overrideBase: d.names.length,
    dates: null,
    fallback,
    recentPerMinute: snapshot.settings.recent_checkouts_enabled
      ? snapshot.settings.recent_checkouts_per_minute
      : 0,
    global,
    productRules: active.map((rule, j) => ({
      id: rule.id,
      productId: rule.productId,
      variantIds: rule.variantIds.length
        ? new Set(rule.variantIds.map(ruleProductId).filter((v) => v !== undefined))
        : null,
      scope: FIRST_RULE_SCOPE + j,
      offset: lists[j]!.offset,
      count: lists[j]!.count,
    })),
    xIndex: x.index,
    postalTests: x.postal,
    listTests: x.lists,
    itemTests: x.items,
    byProduct,
    code: Int32Array.from(d.out.concat(d.table)),
    table: d.out.length,
    texts: d.names.concat(d.overrides),
    width,
    quotes: 0,
    countedSince: 0,
    hot: null,
  };
}
