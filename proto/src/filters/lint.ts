import type { DraftCondition, DraftGroup } from './draft';
import {
  actionHasAmount,
  BLOCK_SHIPPING,
  fieldByKey,
  OPERATOR_LABELS,
  type FilterScope,
} from './catalogue';
import { LIMITS, weightToGrams, type Weight } from './limits';
import { unknownKind } from './value-kinds';
import { actionAmount, conditionValue, type FilterInput, type FilterSource } from './validate';
import type { SnapshotCondition, SnapshotGroup } from '../snapshot';

/**
 * Checks before save that never block (docs/filters.md): rules that can
 * never match or never be reached, ranges where the order decides, a
 * boundary value no rule takes, fees that look like cents, countries no
 * rule covers. Every warning is certain: a condition the check cannot read
 * (a postal-code prefix, an incomplete value) counts as "may be true, may
 * be false", so it can only silence a warning, never cause one.
 *
 * A filter's condition tree becomes two lists of boxes (OR of ANDs): one
 * holding at least every cart it matches (`over`), one holding only carts it
 * certainly matches (`under`). A box limits some figures of the cart: a
 * whole-number range for money (cents), counts and weight (grams), a set of
 * values (or all but a set) for the country, region and postal code.
 */

export type LintCode =
  | 'never_matches'
  | 'unreachable'
  | 'order_decides'
  | 'boundary_gap'
  | 'fee_looks_like_cents'
  | 'countries_uncovered';

export interface LintWarning {
  /** The filter (from 0) the warning is shown next to. */
  filterIndex: number;
  code: LintCode;
  /** One sentence, in the merchant's words. */
  message: string;
}

export interface LintOptions {
  scope?: FilterScope;
  source?: FilterSource;
  /** How the k-th filter (from 0) is named; `Rule #k+1` by default, as the editor titles it. */
  ruleLabel?(index: number): string;
}

interface Range {
  kind: 'range';
  lo: number;
  hi: number;
  /** The conditions that set each bound, for messages. */
  loWhy: string;
  hiWhy: string;
}

/** `only` set: the figure is one of these; else it is none of `not`. Values map to the condition that named them. */
interface Choice {
  kind: 'choice';
  only: Map<string, string> | null;
  not: Map<string, string>;
}

type Limit = Range | Choice;
/** Figure key -> its limit; a figure not named is free. */
type Box = ReadonlyMap<string, Limit>;

interface Figure {
  key: string;
  label: string;
  /** How a value of this figure reads (cents as money, grams with g). */
  show(value: number): string;
}

/** What a conflict was between: one condition (never true alone) or two. */
type Conflict = [string] | [string, string];

/** More boxes than this and a tree is summarised (over: anything; under: the first ones). */
const MAX_BOXES = 32;

const money = (cents: number) =>
  cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);

interface Bounds {
  over: Box[];
  under: Box[];
}
const ANYTHING: Bounds = { over: [new Map()], under: [] };
/** A filter without conditions matches every cart: no limit, certainly. */
const EVERY_CART: Bounds = { over: [new Map()], under: [new Map()] };

interface Walk {
  source: FilterSource;
  /** Conditions read so far: past the limits the rest is not read (validation refuses such a filter). */
  conditions: number;
  conflicts: Conflict[];
  figures: Map<string, Figure>;
  /** Each condition's text by its place in the filter, so a conflict names the first-written one first. */
  order: Map<string, number>;
}

interface FilterFacts {
  over: Box[];
  under: Box[];
  always: boolean;
  conflicts: Conflict[];
  order: Map<string, number>;
  stops: boolean;
  fee: number | null;
  feeAction: boolean;
  figures: Map<string, Figure>;
}

const cache = new WeakMap<object, { source: FilterSource; facts: FilterFacts }>();

/**
 * The warnings of a filter list, check by check, each in list order. Pure; each
 * filter's own analysis is kept per input object, so an editor that keeps
 * unchanged filters' objects redoes only the edited one.
 */
export function lintFilters(
  filters: readonly FilterInput[],
  options: LintOptions = {},
): LintWarning[] {
  const scope = options.scope ?? 'ruleset';
  const source = options.source ?? 'draft';
  const label = options.ruleLabel ?? ((index: number) => `Rule #${index + 1}`);
  const facts = filters.map((filter) => factsOf(filter, source));
  const warnings: LintWarning[] = [];
  const warn = (filterIndex: number, code: LintCode, message: string) =>
    warnings.push({ filterIndex, code, message });

  facts.forEach((own, j) => {
    if (own.over.length === 0) {
      warn(
        j,
        'never_matches',
        `This rule never matches: ${conflictText(own.conflicts, own.order)}.`,
      );
      return;
    }
    const earlier = facts.slice(0, j);
    const cover = earlier.findIndex((f) => f.stops && covers(f, own));
    if (cover >= 0) {
      warn(
        j,
        'unreachable',
        facts[cover]!.always
          ? `This rule is never reached: ${label(cover)} matches every cart and stops the rules.`
          : `This rule is never reached: every cart it matches also matches ${label(cover)}, which comes first and stops the rules.`,
      );
      return;
    }
    for (let i = 0; i < j; i++) {
      const overlap = facts[i]!.stops ? partialOverlap(facts[i]!, own) : undefined;
      if (overlap) {
        warn(
          j,
          'order_decides',
          `This rule and ${label(i)} both match a ${overlap}, and ${label(i)} comes first and stops, so it decides for those carts.`,
        );
        break;
      }
    }
  });

  for (const gap of boundaryGaps(facts)) {
    warn(
      gap.later,
      'boundary_gap',
      `A ${gap.figure} of exactly ${gap.value} matches neither this rule (“${gap.laterWhy}”) nor ${label(gap.earlier)} (“${gap.earlierWhy}”): did you mean “or equal”?`,
    );
  }

  facts.forEach((own, index) => {
    const fee = own.fee;
    if (own.feeAction && fee !== null && looksLikeCents(fee)) {
      warn(
        index,
        'fee_looks_like_cents',
        `The fee ${fee} looks like an amount in cents: fees are typed in currency units (${money(fee)}, not ${fee}).`,
      );
    }
  });

  const covered = coveredCountries(facts);
  if (covered) {
    const none =
      scope === 'ruleset' ? 'get no rate from Ratesmith' : "get nothing from this product's rules";
    warn(
      facts.length - 1,
      'countries_uncovered',
      `Only carts to ${list(covered)} match a rule: every rule names its countries, so carts to any other country ${none}.`,
    );
  }
  return warnings;
}

/** A whole fee of 100 or more ending in 95 or 99 (4999, 1995): a price in cents, most likely. */
function looksLikeCents(fee: number): boolean {
  return Number.isInteger(fee) && fee >= 100 && (fee % 100 === 99 || fee % 100 === 95);
}

const list = (values: readonly string[]) => [...values].sort().join(', ');

function conflictText(conflicts: Conflict[], order: Map<string, number>): string {
  // A filter matches nothing only through a conflict, so there is at least one.
  const first = [...conflicts[0]!].sort((a, b) => order.get(a)! - order.get(b)!);
  const said =
    first.length === 1
      ? `“${first[0]}” is never true`
      : `“${first[0]}” and “${first[1]}” are never true together`;
  return conflicts.length > 1 ? `no OR branch can be true (for one, ${said})` : said;
}

function factsOf(filter: FilterInput, source: FilterSource): FilterFacts {
  const known = cache.get(filter);
  if (known?.source === source) return known.facts;
  const walk: Walk = { source, conditions: 0, conflicts: [], figures: new Map(), order: new Map() };
  const bounds = groupBounds(filter.raw_query, walk, 1);
  const action = filter.action_type;
  const facts: FilterFacts = {
    ...bounds,
    always: coversEverything(bounds.under),
    conflicts: walk.conflicts,
    order: walk.order,
    // Block Shipping ends every list, whatever comes after a match.
    stops: filter.post_processing_action_type === 0 || action === BLOCK_SHIPPING,
    fee: actionAmount(filter.action_data, source),
    feeAction: actionHasAmount(action),
    figures: walk.figures,
  };
  cache.set(filter, { source, facts });
  return facts;
}

type Node = DraftCondition | DraftGroup | SnapshotCondition | SnapshotGroup;

function groupBounds(group: DraftGroup | SnapshotGroup, walk: Walk, depth: number): Bounds {
  const combinator = typeof group.condition === 'string' ? group.condition.toUpperCase() : '';
  const rules: Node[] = Array.isArray(group.rules) ? group.rules : [];
  if (depth === 1 && Array.isArray(group.rules) && rules.length === 0) return EVERY_CART;
  // An unknown combinator, an empty nested group or one past the limits: not read.
  if (
    (combinator !== 'AND' && combinator !== 'OR') ||
    rules.length === 0 ||
    depth > LIMITS.groupDepth
  ) {
    return ANYTHING;
  }
  const children: Bounds[] = [];
  for (const rule of rules) {
    if (rule.type === 'condition') {
      if (++walk.conditions > LIMITS.conditionsPerFilter) return ANYTHING;
      children.push(conditionBounds(rule, walk));
    } else children.push(groupBounds(rule, walk, depth + 1));
  }
  return combinator === 'OR' ? anyOf(children) : allOf(children, walk);
}

function anyOf(children: Bounds[]): Bounds {
  const over = children.flatMap((child) => child.over);
  const under = children.flatMap((child) => child.under);
  // A branch that may match any cart makes the whole OR so. (Certain boxes are never
  // empty: each names the figure of a condition.)
  const free = over.some((box) => box.size === 0);
  return {
    over: over.length > MAX_BOXES || free ? [new Map()] : merged(over),
    under: under.length > MAX_BOXES ? under.slice(0, MAX_BOXES) : merged(under),
  };
}

/** Boxes that each limit the same one figure by a choice become one box (a list of countries). */
function merged(boxes: Box[]): Box[] {
  if (boxes.length < 2) return boxes;
  const [first] = boxes[0]!.keys();
  const single = (box: Box) =>
    box.size === 1 && box.has(first!) && box.get(first!)!.kind === 'choice';
  if (!boxes.every(single)) return boxes;
  const union = boxes.map((box) => box.get(first!)! as Choice).reduce(unionOfChoices);
  return [new Map([[first!, union]])];
}

function allOf(children: Bounds[], walk: Walk): Bounds {
  let over: Box[] | null = [new Map()];
  let under: Box[] | null = [new Map()];
  for (const child of children) {
    over = over && product(over, child.over, walk.conflicts);
    under = under && product(under, child.under, null);
  }
  // Too many combinations: over becomes "anything", under "nothing certain".
  return { over: over ?? [new Map()], under: under ?? [] };
}

function product(left: Box[], right: Box[], conflicts: Conflict[] | null): Box[] | null {
  if (left.length * right.length > MAX_BOXES) return null;
  const boxes: Box[] = [];
  for (const a of left) {
    for (const b of right) {
      const both = intersect(a, b);
      if ('conflict' in both) conflicts?.push(both.conflict);
      else boxes.push(both.box);
    }
  }
  return boxes;
}

function conditionBounds(condition: DraftCondition | SnapshotCondition, walk: Walk): Bounds {
  const value = conditionValue(condition, walk.source);
  const atom = value === null ? undefined : atomOf({ ...condition, value }, walk.order);
  if (!atom) return ANYTHING;
  walk.figures.set(atom.figure.key, atom.figure);
  if (atom.limit.kind === 'range' && atom.limit.lo > atom.limit.hi) {
    walk.conflicts.push([atom.limit.loWhy]);
    return { over: [], under: [] };
  }
  // A region's country is another figure than the region, so it joins the box without a conflict.
  const box: Box = new Map([[atom.figure.key, atom.limit], ...(atom.impliedLimits ?? [])]);
  return { over: [box], under: [box] };
}

interface Atom {
  figure: Figure;
  limit: Limit;
  impliedLimits?: [string, Limit][];
}

/** The figure key of the shipping country (its field's `figure`). */
const COUNTRY = 'shipping_country';

/** One condition as a limit on one figure; undefined when it cannot be read. */
function atomOf(
  condition: { field: string; operator: string; value: NonNullable<SnapshotCondition['value']> },
  order: Map<string, number>,
): Atom | undefined {
  // conditionValue read the value, so the field is known. An operator the field does not
  // take is not read: each kind below reads only operators its field takes.
  const field = fieldByKey(condition.field)!;
  const { operator, value } = condition;
  const why = `${field.label} ${OPERATOR_LABELS[operator] ?? operator} ${shown(value)}`;
  if (!order.has(why)) order.set(why, order.size);
  // One code (equal, not_equal) or a list of them (in, not_in): the same choice.
  const choice = (figure: Figure, codes: string | readonly string[]): Atom | undefined => {
    const only = operator === 'equal' || operator === 'in';
    if (!only && operator !== 'not_equal' && operator !== 'not_in') return undefined;
    const named = new Map((typeof codes === 'string' ? [codes] : codes).map((c) => [c, why]));
    return only
      ? { figure, limit: { kind: 'choice', only: named, not: new Map() } }
      : { figure, limit: { kind: 'choice', only: null, not: named } };
  };

  // The figure as the catalogue names it; amounts are read in cents, weights in grams.
  const plain: Figure = { key: field.figure, label: field.label, show: String };
  const kind = field.kind;
  switch (kind) {
    case 'region': {
      const regions = value as string | string[];
      const atom = choice(plain, regions);
      // A region names its country: US-CA is only ever in the US (and a list, its countries).
      if (atom && (operator === 'equal' || operator === 'in')) {
        const codes = typeof regions === 'string' ? [regions] : regions;
        const countries = new Map(codes.map((region) => [region.slice(0, 2), why] as const));
        atom.impliedLimits = [[COUNTRY, { kind: 'choice', only: countries, not: new Map() }]];
      }
      return atom;
    }
    case 'country':
      return choice(plain, value as string | string[]);
    case 'amount':
      return range({ ...plain, show: money }, Math.round((value as number) * 100), operator, why);
    case 'count':
      return range(plain, value as number, operator, why);
    case 'weight':
      return range(
        { ...plain, show: (grams) => `${grams} g` },
        weightToGrams(value as Weight),
        operator,
        why,
      );
    case 'count_amount': {
      const { count, amount } = value as { count: number; amount: number };
      const cents = Math.round(amount * 100);
      return range(
        {
          key: `units_at:${cents}`,
          label: `count of products costing ${money(cents)}`,
          show: String,
        },
        count,
        operator,
        why,
      );
    }
    case 'postal_code':
      // A `between` value is two codes, and `between` and the prefixes are not read.
      return choice(plain, value as string | string[]);
    case 'item_text':
      // A test over the cart's lines, not one figure of it: not read.
      return undefined;
  }
  // Every kind is read above: a new one is a type error here until it is.
  return unknownKind(kind);
}

function range(figure: Figure, n: number, operator: string, why: string): Atom | undefined {
  const [lo, hi] =
    operator === 'equal'
      ? [n, n]
      : operator === 'greater_than'
        ? [n + 1, Infinity]
        : operator === 'greater_or_equal'
          ? [n, Infinity]
          : operator === 'less_than'
            ? [0, n - 1]
            : operator === 'less_or_equal'
              ? [0, n]
              : [NaN, NaN];
  if (Number.isNaN(lo)) return undefined;
  // A bound the figure always meets (>= 0) gives no reason in messages; the other does.
  return { figure, limit: { kind: 'range', lo, hi, loWhy: why, hiWhy: why } };
}

function shown(value: NonNullable<SnapshotCondition['value']>): string {
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return value.join(', ');
  if ('unit' in value) return `${value.amount} ${value.unit}`;
  // A count at a price: a postal `between` (two codes) is never read, so never shown.
  const { count, amount } = value as { count: number; amount: number };
  return `${count} (at ${amount})`;
}

type Meet = { box: Box } | { conflict: Conflict };

function intersect(a: Box, b: Box): Meet {
  const box = new Map(a);
  for (const [key, limit] of b) {
    const mine = box.get(key);
    if (!mine) {
      box.set(key, limit);
      continue;
    }
    const both = meetLimits(mine, limit);
    if ('conflict' in both) return both;
    box.set(key, both.limit);
  }
  return { box };
}

/** Two limits of one figure, so of one kind: each figure is read either as ranges or as choices. */
function meetLimits(a: Limit, other: Limit): { limit: Limit } | { conflict: Conflict } {
  if (a.kind === 'range') {
    const b = other as Range;
    const [lo, loWhy] = a.lo >= b.lo ? [a.lo, a.loWhy] : [b.lo, b.loWhy];
    const [hi, hiWhy] = a.hi <= b.hi ? [a.hi, a.hiWhy] : [b.hi, b.hiWhy];
    // Each range holds a value, so an empty meet takes its bounds from two conditions.
    if (lo > hi) return { conflict: [loWhy, hiWhy] };
    return { limit: { kind: 'range', lo, hi, loWhy, hiWhy } };
  }
  const b = other as Choice;
  const not = new Map([...a.not, ...b.not]);
  if (!a.only && !b.only) return { limit: { kind: 'choice', only: null, not } };
  let only: Map<string, string>;
  if (a.only && b.only) {
    only = new Map([...a.only].filter(([value]) => b.only!.has(value)));
    if (only.size === 0) return { conflict: [first(a.only), first(b.only)] };
  } else {
    only = (a.only ?? b.only)!;
  }
  const left = new Map([...only].filter(([value]) => !not.has(value)));
  if (left.size === 0) {
    const [value, why] = [...only][0]!;
    return { conflict: [why, not.get(value)!] };
  }
  return { limit: { kind: 'choice', only: left, not: new Map() } };
}

const first = (values: Map<string, string>) => [...values.values()][0]!;

function unionOfChoices(a: Choice, b: Choice): Choice {
  if (a.only && b.only)
    return { kind: 'choice', only: new Map([...a.only, ...b.only]), not: new Map() };
  if (!a.only && !b.only) {
    return { kind: 'choice', only: null, not: new Map([...a.not].filter(([v]) => b.not.has(v))) };
  }
  const [only, not] = a.only ? [a.only, b.not] : [b.only!, a.not];
  return { kind: 'choice', only: null, not: new Map([...not].filter(([v]) => !only.has(v))) };
}

/** Every cart is in `inner` only if it is in `outer` (per figure; a figure outer leaves free is fine). */
function within(inner: Box, outer: Box): boolean {
  for (const [key, limit] of outer) {
    const mine = inner.get(key);
    if (!mine) {
      if (isFree(limit)) continue;
      return false;
    }
    // Both limits are of the figure `key`, so of one kind.
    if (mine.kind === 'range') {
      const range = limit as Range;
      if (mine.lo < range.lo || mine.hi > range.hi) return false;
    } else {
      const choice = limit as Choice;
      if (choice.only) {
        if (!mine.only || [...mine.only.keys()].some((v) => !choice.only!.has(v))) return false;
      } else if (mine.only) {
        if ([...mine.only.keys()].some((v) => choice.not.has(v))) return false;
      } else if ([...choice.not.keys()].some((v) => !mine.not.has(v))) return false;
    }
  }
  return true;
}

/** Does every cart `later` may match certainly match `earlier`? */
function covers(earlier: FilterFacts, later: FilterFacts): boolean {
  if (earlier.always) return true;
  return later.over.every((box) => earlier.under.some((outer) => within(box, outer)));
}

/** Boxes that hold every cart: one free box, or boxes that limit one figure only and leave no value out. */
function coversEverything(boxes: Box[]): boolean {
  // (An empty box, with no limit, is free too.)
  if (boxes.some((box) => [...box].every(([, l]) => isFree(l)))) return true;
  // No box is empty (that returned above), so one key among them all is each box's only key.
  const keys = new Set(boxes.flatMap((box) => [...box.keys()]));
  if (keys.size !== 1) return false;
  const [key] = keys;
  const limits = boxes.map((box) => box.get(key!)!);
  // One figure: all choices or all ranges.
  if (limits[0]!.kind === 'choice') {
    return isFree((limits as Choice[]).reduce(unionOfChoices));
  }
  const ranges = (limits as Range[]).sort((a, b) => a.lo - b.lo);
  let reached = -1;
  for (const r of ranges) {
    if (r.lo > reached + 1) return false;
    reached = Math.max(reached, r.hi);
  }
  return reached === Infinity;
}

function isFree(limit: Limit): boolean {
  return limit.kind === 'range'
    ? limit.lo <= 0 && limit.hi === Infinity
    : !limit.only && limit.not.size === 0;
}

/**
 * Two stopping rules that certainly share carts on ranges of one figure that
 * overlap without one holding the other: the overlap, in words, else undefined.
 */
function partialOverlap(earlier: FilterFacts, later: FilterFacts): string | undefined {
  for (const a of earlier.under) {
    for (const b of later.under) {
      if ('conflict' in intersect(a, b)) continue;
      for (const [key, limit] of a) {
        if (limit.kind !== 'range' || !b.has(key)) continue;
        const other = b.get(key) as Range;
        const lo = Math.max(limit.lo, other.lo);
        const hi = Math.min(limit.hi, other.hi);
        const nested =
          (limit.lo <= other.lo && limit.hi >= other.hi) ||
          (other.lo <= limit.lo && other.hi >= limit.hi);
        // The boxes meet (checked above), so lo <= hi; and hi is finite, since two ranges up
        // to Infinity are nested.
        if (nested) continue;
        const figure = later.figures.get(key)!;
        const span =
          lo === hi
            ? `of exactly ${figure.show(lo)}`
            : `from ${figure.show(lo)} to ${figure.show(hi)}`;
        return `${figure.label} ${span}`;
      }
    }
  }
  return undefined;
}

interface Gap {
  earlier: number;
  later: number;
  figure: string;
  value: string;
  earlierWhy: string;
  laterWhy: string;
}

/**
 * A value v with one rule asking for more than v and another for less (so
 * `> 50` beside `< 50`), that no rule can take for carts both rules are about.
 * Each value is reported once, on the later rule.
 */
function boundaryGaps(facts: FilterFacts[]): Gap[] {
  // Every range bound by the value just outside it, so each pair is found by lookup, not by pairing all boxes.
  interface Side {
    filter: number;
    box: Box;
    range: Range;
  }
  // Every range of each filter; a bound at Infinity or at 0 just finds no partner (none ends at -1).
  const ranges = facts.map((f) =>
    f.over.flatMap((box) =>
      [...box].flatMap(([key, range]) => (range.kind === 'range' ? [{ key, box, range }] : [])),
    ),
  );
  const below = new Map<string, Side[]>();
  ranges.forEach((own, filter) => {
    for (const { key, box, range } of own) {
      const at = `${key}=${range.hi + 1}`;
      below.set(at, [...(below.get(at) ?? []), { filter, box, range }]);
    }
  });
  const gaps: Gap[] = [];
  const seen = new Set<string>();
  ranges.forEach((own, filter) => {
    const f = facts[filter]!;
    for (const { key, box, range } of own) {
      const value = range.lo - 1;
      const at = `${key}=${value}`;
      if (seen.has(at)) continue;
      for (const side of below.get(at) ?? []) {
        if (side.filter === filter) continue;
        const rest = intersect(without(side.box, key), without(box, key));
        if ('conflict' in rest || takenBySome(facts, rest.box, key, value)) continue;
        seen.add(at);
        const above: Side = { filter, box, range };
        const [earlier, later] = [side, above].sort((x, y) => x.filter - y.filter) as [Side, Side];
        const figure = f.figures.get(key)!;
        const whyOf = (r: Range) => (r.lo === value + 1 ? r.loWhy : r.hiWhy);
        gaps.push({
          earlier: earlier.filter,
          later: later.filter,
          figure: figure.label,
          value: figure.show(value),
          earlierWhy: whyOf(earlier.range),
          laterWhy: whyOf(later.range),
        });
        break;
      }
    }
  });
  return gaps.sort((a, b) => a.later - b.later);
}

function without(box: Box, key: string): Box {
  const copy = new Map(box);
  copy.delete(key);
  return copy;
}

/** Could some rule match a cart in `rest` whose figure `key` is `value`? */
function takenBySome(facts: FilterFacts[], rest: Box, key: string, value: number): boolean {
  return facts.some((f) =>
    f.over.some((box) => {
      if ('conflict' in intersect(box, rest)) return false;
      // `key` is the figure of a range, so its limits are ranges.
      const limit = box.get(key) as Range | undefined;
      return !limit || (limit.lo <= value && value <= limit.hi);
    }),
  );
}

/** The countries some rule can match, when every rule names its countries (undefined otherwise). */
function coveredCountries(facts: FilterFacts[]): string[] | undefined {
  const boxes = facts.flatMap((f) => f.over);
  if (boxes.length === 0) return undefined;
  const covered = new Set<string>();
  for (const box of boxes) {
    const limit = box.get(COUNTRY);
    // A rule that leaves the country free, or only rules some out, covers countries no list names.
    if (limit?.kind !== 'choice' || !limit.only) return undefined;
    for (const code of limit.only.keys()) covered.add(code);
  }
  return [...covered];
}
