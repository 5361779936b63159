import type {
  Snapshot,
  SnapshotCondition,
  SnapshotFilter,
  SnapshotGroup,
  SnapshotSettings,
} from '@ratesmith/contracts';
import { toCents } from './money';

/**
 * Compiles a snapshot once per version into the form quotes run on:
 *
 * - Every cart figure a condition or action can read gets a fixed slot in one
 *   Float64Array, filled once per request (see evaluate.ts).
 * - All the filters of a snapshot (the active ruleset's, then each product
 *   rule's) become ONE function `(i, f) => boolean` generated with
 *   `new Function`: a switch over the filter number whose cases are
 *   straight-line comparisons of figure slots with numeric constants,
 *   `f[0]>=1000&&(f[6]===2||f[1]>3)`. One function per snapshot, not per
 *   list: each generated function costs V8 about a kilobyte of its own, which
 *   adds up over 10,000 cached shops.
 *   Nothing from the snapshot is ever pasted into the code except integers the
 *   compiler produced itself (cents, counts, country codes as numbers, slot
 *   indexes) and operators picked from a fixed table, so no merchant string
 *   can become code. Conditions allocate nothing and never re-read raw_query.
 *
 * The compiler refuses what the spec says is never evaluated (unknown fields
 * or operators, incomplete conditions, the limits of section 2) with every
 * problem listed, so the engine never guesses.
 */

export const ENGINE_LIMITS = {
  filtersPerRuleset: 100,
  filtersPerProductRule: 50,
  conditionsPerFilter: 50,
  groupDepth: 5,
  maxAmount: 1_000_000,
  maxCount: 100_000,
} as const;

/** Slots of one scope's figures; scope s starts at s * width. */
export const PRICE = 0;
export const RETAIL = 1;
export const FREE = 2;
export const UNITS = 3;
/** The destination country code (used in the cart scope only). */
export const COUNTRY = 4;
/** Units costing the k-th price X of the snapshot live at FIRST_X + k. */
export const FIRST_X = 5;
/** Scope 0: every shipping unit. Scope 1: units of products without an active product rule. */
export const CART_SCOPE = 0;
export const UNRULED_SCOPE = 1;
/** Product rule j's units are scope FIRST_RULE_SCOPE + j. */
export const FIRST_RULE_SCOPE = 2;

export class SnapshotCompileError extends Error {
  constructor(readonly problems: string[]) {
    super(`The rules cannot be evaluated: ${problems.slice(0, 10).join('; ')}`);
    this.name = 'SnapshotCompileError';
  }
}

export interface CompiledFilter {
  id: string;
  name: string;
  actionType: number;
  /** cents(action_data); 0 when the action needs none. */
  amount: number;
  /** Slot of "units costing X" for action 4, else -1. */
  xSlot: number;
  /** global_rule_action 1: only units without a product rule. */
  unruledOnly: boolean;
  overrides: boolean;
  shippingName: string;
  shippingDescription: string;
  bumpName: string;
  bumpDescription: string;
  stops: boolean;
}

/** Whether filter `i` of a list matches the cart figures `f`. */
export type FilterTest = (i: number, f: Float64Array) => boolean;

export interface CompiledFilterList {
  filters: CompiledFilter[];
  /** The snapshot's one test function; filter i of this list is case offset + i. */
  test: FilterTest;
  offset: number;
}

export interface CompiledProductRule {
  id: string;
  productId: string;
  /** Null: every variant. */
  variantIds: Set<number> | null;
  scope: number;
  list: CompiledFilterList;
}

export interface CompiledBump {
  /** 1: percent on top, 2: static fee on top. */
  action: 1 | 2;
  /** Action 1: the percentage in hundredths (12.5 % is 1250). Action 2: cents. */
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
  global: CompiledFilterList | null;
  /** Active product rules, in the order they were added. */
  productRules: CompiledProductRule[];
  /** Unit price in cents -> its k (figures slot FIRST_X + k). */
  xIndex: Map<number, number>;
  /** Product id -> indexes into productRules. */
  byProduct: Map<number, number[]>;
  /** Slots per scope. */
  width: number;
  /** Scratch space for one quote: quotes are synchronous, so one per snapshot is enough. */
  figures: Float64Array;
  freeMarks: Uint8Array;
}

const OPERATORS: Record<string, string> = {
  equal: '===',
  not_equal: '!==',
  greater_than: '>',
  greater_or_equal: '>=',
  less_than: '<',
  less_or_equal: '<=',
};
const NUMERIC = ['equal', 'greater_than', 'greater_or_equal', 'less_than', 'less_or_equal'];
const FIELD_OPERATORS: Record<string, string[]> = {
  shipping_country: ['equal', 'not_equal'],
  cart_price: NUMERIC,
  cart_retail_product_count: NUMERIC,
  cart_free_product_count: NUMERIC,
  cart_product_count_of_x_price: NUMERIC,
};

/** A two-letter country as a number (AA = 0 ... ZZ = 675); anything else is -1. */
export function countryCode(country: string): number {
  if (country.length !== 2) return -1;
  const a = country.charCodeAt(0) - 65;
  const b = country.charCodeAt(1) - 65;
  if (a < 0 || a > 25 || b < 0 || b > 25) return -1;
  return a * 26 + b;
}

/** "gid://shopify/Product/123" and "123" both mean 123. */
export function numericId(id: string): number | undefined {
  const digits = /^(?:gid:\/\/shopify\/[A-Za-z]+\/)?(\d{1,16})$/.exec(id.trim())?.[1];
  return digits === undefined ? undefined : Number(digits);
}

function isAmount(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= 0 &&
    value <= ENGINE_LIMITS.maxAmount
  );
}

function isCount(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= 0 &&
    value <= ENGINE_LIMITS.maxCount
  );
}

function isCondition(rule: SnapshotCondition | SnapshotGroup): rule is SnapshotCondition {
  return (rule as SnapshotCondition).type === 'condition';
}

/** Collects every price X (cents) the rules compare or charge by, before slots are assigned. */
class XPrices {
  readonly index = new Map<number, number>();
  slotOf(cents: number): number {
    let k = this.index.get(cents);
    if (k === undefined) {
      k = this.index.size;
      this.index.set(cents, k);
    }
    return FIRST_X + k;
  }
}

interface ListContext {
  label: string;
  problems: string[];
  x: XPrices;
}

/** Code of one condition, or undefined (and a problem noted) when it cannot be evaluated. */
function conditionCode(condition: SnapshotCondition, ctx: ListContext): string | undefined {
  const { label, problems } = ctx;
  const operators = FIELD_OPERATORS[condition.field];
  if (!operators) {
    problems.push(`${label} has a condition on an unknown field`);
    return undefined;
  }
  if (!operators.includes(condition.operator)) {
    problems.push(`${label} uses an operator that does not apply to ${condition.field}`);
    return undefined;
  }
  const op = OPERATORS[condition.operator]!;
  const value = condition.value;
  switch (condition.field) {
    case 'shipping_country': {
      const code = typeof value === 'string' ? countryCode(value.trim().toUpperCase()) : -1;
      if (code < 0) {
        problems.push(`${label}: Shipping Country needs a two-letter country code`);
        return undefined;
      }
      return `f[${COUNTRY}]${op}${code}`;
    }
    case 'cart_price':
      if (!isAmount(value)) {
        problems.push(`${label}: Cart Price must be an amount from 0 to 1,000,000`);
        return undefined;
      }
      return `f[${PRICE}]${op}${toCents(value)}`;
    case 'cart_retail_product_count':
    case 'cart_free_product_count':
      if (!isCount(value)) {
        problems.push(`${label}: ${condition.field} must be a whole number from 0 to 100,000`);
        return undefined;
      }
      return `f[${condition.field === 'cart_free_product_count' ? FREE : RETAIL}]${op}${value}`;
    default: {
      const pair = typeof value === 'object' && value !== null ? value : undefined;
      if (!pair || !isCount(pair.count) || !isAmount(pair.amount)) {
        problems.push(
          `${label}: Cart Product Count of $X Price needs a whole count from 0 to 100,000 and an amount from 0 to 1,000,000`,
        );
        return undefined;
      }
      return `f[${ctx.x.slotOf(toCents(pair.amount))}]${op}${pair.count}`;
    }
  }
}

function groupCode(
  group: SnapshotGroup,
  depth: number,
  ctx: ListContext,
  counter: { conditions: number },
): string {
  if (depth > ENGINE_LIMITS.groupDepth) {
    ctx.problems.push(`${ctx.label} nests groups more than ${ENGINE_LIMITS.groupDepth} deep`);
    return 'false';
  }
  if (group.rules.length === 0) {
    ctx.problems.push(`${ctx.label} has an empty group`);
    return 'false';
  }
  const parts: string[] = [];
  for (const rule of group.rules) {
    if (isCondition(rule)) {
      if (++counter.conditions > ENGINE_LIMITS.conditionsPerFilter) {
        ctx.problems.push(
          `${ctx.label} has more than ${ENGINE_LIMITS.conditionsPerFilter} conditions`,
        );
        return 'false';
      }
      parts.push(conditionCode(rule, ctx) ?? 'false');
    } else {
      parts.push(groupCode(rule, depth + 1, ctx, counter));
    }
  }
  const joined = parts.join(group.condition === 'OR' ? '||' : '&&');
  return parts.length > 1 ? `(${joined})` : joined;
}

function compileFilter(
  filter: SnapshotFilter,
  ctx: ListContext,
): { filter: CompiledFilter; code: string } {
  const { label, problems } = ctx;
  const code = groupCode(filter.raw_query, 1, ctx, { conditions: 0 });
  const type = filter.action_type;
  let amount = 0;
  if (type >= 1) {
    if (isAmount(filter.action_data)) amount = toCents(filter.action_data);
    else problems.push(`${label} needs an amount from 0 to 1,000,000`);
  }
  let xSlot = -1;
  if (type === 4) {
    const x = filter.rule_product_limit_amount;
    if (isAmount(x)) xSlot = ctx.x.slotOf(toCents(x));
    else problems.push(`${label} needs the product cost ($X) from 0 to 1,000,000`);
  }
  return {
    code,
    filter: {
      id: filter.id,
      name: filter.name,
      actionType: type,
      amount,
      xSlot,
      unruledOnly: filter.global_rule_action === 1,
      overrides: filter.is_shipping_overridden === 'Yes',
      shippingName: filter.shipping_name,
      shippingDescription: filter.shipping_description,
      bumpName: filter.bump_shipping_name,
      bumpDescription: filter.bump_shipping_description,
      stops: filter.post_processing_action_type === 0,
    },
  };
}

/** A list's filters and the code of each one's conditions, before the function is made. */
interface ListDraft {
  filters: CompiledFilter[];
  codes: string[];
}

function compileList(
  filters: SnapshotFilter[],
  owner: string,
  max: number,
  problems: string[],
  x: XPrices,
): ListDraft {
  if (filters.length > max) {
    problems.push(`${owner} has more than ${max} filters`);
    return { filters: [], codes: [] };
  }
  const compiled: CompiledFilter[] = [];
  const codes: string[] = [];
  filters.forEach((filter, i) => {
    const result = compileFilter(filter, { label: `${owner} rule #${i + 1}`, problems, x });
    compiled.push(result.filter);
    codes.push(result.code);
  });
  return { filters: compiled, codes };
}

const NEVER: FilterTest = () => false;

/** One function for every list of the snapshot; each list gets its offset into it. */
function linkLists(drafts: ListDraft[]): CompiledFilterList[] {
  const cases: string[] = [];
  const offsets = drafts.map((draft) => {
    const offset = cases.length;
    for (const code of draft.codes) cases.push(`case ${cases.length}:return ${code};`);
    return offset;
  });
  // Only integers and fixed operators are in the body (see the comment at the top).
  const test = cases.length
    ? (new Function('i', 'f', `switch(i){\n${cases.join('\n')}\n}return false;`) as FilterTest)
    : NEVER;
  return drafts.map((draft, j) => ({ filters: draft.filters, test, offset: offsets[j]! }));
}

function compileBump(settings: SnapshotSettings, problems: string[]): CompiledBump | null {
  const action = settings.bump_shipping_action;
  if (!settings.bump_shipping_enabled || (action !== 1 && action !== 2)) return null;
  const cost = settings.bump_shipping_cost;
  if (!isAmount(cost)) {
    problems.push('The bump shipping cost must be from 0 to 1,000,000');
    return null;
  }
  return {
    action,
    // Both are the cost x 100: hundredths of a percent, or cents.
    cost: toCents(cost),
    name: settings.bump_shipping_name,
    description: settings.bump_shipping_description,
  };
}

/** Compiles a validated snapshot (proto/src/snapshot.ts); throws SnapshotCompileError. */
export function compileSnapshot(snapshot: Snapshot): CompiledSnapshot {
  const problems: string[] = [];
  const x = new XPrices();
  const ruleset = snapshot.globalRuleset;
  const globalDraft = ruleset
    ? compileList(
        ruleset.filters,
        'The active ruleset',
        ENGINE_LIMITS.filtersPerRuleset,
        problems,
        x,
      )
    : null;
  const active = snapshot.productRules.filter((rule) => rule.active);
  const lists = active.map((rule) =>
    compileList(
      rule.filters,
      `Product rule ${rule.productId}`,
      ENGINE_LIMITS.filtersPerProductRule,
      problems,
      x,
    ),
  );
  const bump = compileBump(snapshot.settings, problems);

  const byProduct = new Map<number, number[]>();
  active.forEach((rule, j) => {
    const id = numericId(rule.productId);
    if (id === undefined) {
      problems.push(`Product rule ${rule.productId} has no numeric product id`);
      return;
    }
    const list = byProduct.get(id) ?? [];
    list.push(j);
    byProduct.set(id, list);
  });
  if (problems.length) throw new SnapshotCompileError(problems);

  const linked = linkLists(globalDraft ? [globalDraft, ...lists] : lists);
  const global = globalDraft ? linked.shift()! : null;
  const width = FIRST_X + x.index.size;
  const scopes = FIRST_RULE_SCOPE + active.length;
  return {
    shop: snapshot.shop,
    version: snapshot.version,
    rateKey: snapshot.rateKey,
    carrierName: snapshot.settings.carrier_name,
    carrierDescription: snapshot.settings.carrier_description,
    bump,
    global,
    productRules: active.map((rule, j) => ({
      id: rule.id,
      productId: rule.productId,
      variantIds: rule.variantIds.length
        ? new Set(rule.variantIds.map(numericId).filter((v): v is number => v !== undefined))
        : null,
      scope: FIRST_RULE_SCOPE + j,
      list: linked[j]!,
    })),
    xIndex: x.index,
    byProduct,
    width,
    figures: new Float64Array(width * scopes),
    freeMarks: new Uint8Array(active.length),
  };
}
