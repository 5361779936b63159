import type { DraftValue } from './draft';
import { BLOCK_SHIPPING, fieldByKey, type FilterScope, type ItemFigure } from './catalogue';
import {
  asNumber,
  isAmount,
  isBlank,
  isCount,
  isWeightAmount,
  isWeightUnit,
  LIMITS,
  normalisePostalCode,
  type Weight,
} from './limits';
import type { FilterInput } from './validate';

/**
 * A filter in one plain sentence, for the editor (under each rule's title,
 * updated as the merchant types) and the preview's step table:
 * "If shipping to Canada and the cart is at least $200.00 → make the
 * cart's shipping free, replacing what the rules before it made, then stop."
 * The grammar is English and lives here beside the catalogue; what the
 * contracts cannot know (money in the shop's currency, weights, country and
 * region names, the locale of numbers) comes in `format`. A filter still being typed gives a partial sentence ("…" where a
 * value is missing); it never throws.
 */
export interface SentenceFormat {
  /** The locale of counts ("1,000" or "1.000"). */
  locale: string;
  /** An amount in currency units: 200 -> "$200.00". */
  money(amount: number): string;
  weight(weight: Weight): string;
  /** `CA` -> "Canada". */
  country(code: string): string;
  /** `US-CA` -> "California". */
  region(code: string): string;
}

/** What stands where a value is still missing. */
export const MISSING = '…';

export function describeFilter(
  filter: FilterInput,
  format: SentenceFormat,
  scope: FilterScope = 'ruleset',
): string {
  // Block Shipping ends every list: "then stop" would say less than it does.
  const then =
    filter.post_processing_action_type === 0 && filter.action_type !== BLOCK_SHIPPING
      ? ', then stop'
      : '';
  const action = `${describeAction(filter, format, scope)}${then}`;
  // A filter without conditions matches every cart (docs/rates.md).
  if (filter.raw_query?.rules?.length === 0) return `For every cart → ${action}.`;
  const conditions = describeGroup(filter.raw_query, format, 1, { bare: true, last: true });
  return `If ${conditions} → ${action}.`;
}

type Node = FilterInput['raw_query']['rules'][number];
type Group = FilterInput['raw_query'];
type Condition = Exclude<Node, Group>;

function isGroup(node: Node): node is Group {
  // A snapshot's groups may leave out `type`; only conditions carry a field.
  return !('field' in node);
}

/**
 * A group's rules joined with "and" / "or". A nested group of several rules
 * is set apart: "either … or …" for an OR of plain conditions that ends its
 * parent (nothing follows to make it ambiguous), else parentheses. A group
 * that is the only rule of the top level needs neither (`bare`).
 */
function describeGroup(
  group: Group,
  format: SentenceFormat,
  depth: number,
  place: { bare: boolean; last: boolean },
): string {
  const rules = Array.isArray(group?.rules) ? group.rules : [];
  // Deeper than the limits allow cannot be saved; the sentence stops there rather than recurse.
  if (rules.length === 0 || depth > LIMITS.groupDepth + 1) return MISSING;
  const word = String(group.condition).toUpperCase() === 'OR' ? 'or' : 'and';
  const parts = rules.map((rule, index) =>
    isGroup(rule)
      ? describeGroup(rule, format, depth + 1, {
          bare: place.bare && rules.length === 1,
          last: index === rules.length - 1,
        })
      : describeCondition(rule, format),
  );
  const joined = joinList(parts, word);
  if (place.bare || parts.length < 2) return joined;
  const plain = rules.every((rule) => !isGroup(rule));
  return word === 'or' && plain && place.last ? `either ${joined}` : `(${joined})`;
}

/** "a and b", "a, b and c". */
function joinList(parts: string[], word: string): string {
  if (parts.length < 3) return parts.join(` ${word} `);
  return `${parts.slice(0, -1).join(', ')} ${word} ${parts[parts.length - 1]}`;
}

/** How each numeric operator reads before its value. */
const COMPARISONS: Record<string, string> = {
  equal: 'exactly',
  greater_than: 'more than',
  greater_or_equal: 'at least',
  less_than: 'less than',
  less_or_equal: 'at most',
};

function describeCondition(condition: Condition, format: SentenceFormat): string {
  const field = fieldByKey(condition.field);
  const { operator, value } = condition;
  if (!field)
    return isBlank(condition.field) ? MISSING : `an unknown condition (${condition.field})`;
  const comparison = COMPARISONS[operator] ?? MISSING;
  switch (field.kind) {
    case 'country':
    case 'region': {
      const kind = field.kind;
      const place = Array.isArray(value)
        ? listText(value, 'or', (code) => placeText(code, kind, format))
        : placeText(value, kind, format);
      const not = operator === 'not_equal' || operator === 'not_in';
      return not ? `not shipping to ${place}` : `shipping to ${place}`;
    }
    case 'amount':
      return `the cart is ${comparison} ${moneyText(value, format)}`;
    case 'count': {
      const kind = field.figure === 'free_units' ? 'free' : 'retail';
      return `the cart has ${comparison} ${countText(value, format)} ${kind} ${items(value)}`;
    }
    case 'count_amount': {
      const pair = objectValue(value);
      return `the cart has ${comparison} ${countText(pair.count, format)} ${items(pair.count)} priced ${moneyText(pair.amount, format)}`;
    }
    case 'weight':
      return `the cart weighs ${comparison} ${weightText(value, format)}`;
    case 'postal_code':
      return postalPhrase(operator, value);
    case 'item_text':
      return itemPhrase(field.figure, operator, value);
  }
}

/** "any item", "every item", "no item": the quantifier an item operator starts with. */
const QUANTIFIERS: Record<string, string> = { any: 'any item', all: 'every item', none: 'no item' };

/** "every item is tagged “oversize”", "no item's SKU starts with “GIFT-”". */
function itemPhrase(figure: ItemFigure, operator: string, value: DraftValue): string {
  const [quantifier, ...test] = operator.split('_');
  const who = QUANTIFIERS[quantifier!] ?? `${MISSING} item`;
  const text = isBlank(value) || typeof value !== 'string' ? MISSING : `“${value.trim()}”`;
  const startsWith = test.join('_') === 'starts_with';
  switch (figure) {
    case 'item_vendor':
      return `${who} is from ${text}`;
    case 'item_product_type':
      return `${who}'s product type is ${text}`;
    case 'item_product_tag':
      return `${who} is tagged ${text}`;
    case 'item_sku':
      return `${who}'s SKU ${startsWith ? 'starts with' : 'is'} ${text}`;
  }
}

function postalPhrase(operator: string, value: DraftValue): string {
  const codes = Array.isArray(value) ? value : [];
  switch (operator) {
    case 'in':
      return `the postal code is ${listText(codes, 'or', postalText)}`;
    case 'not_in':
      return `the postal code is none of ${listText(codes, 'or', postalText)}`;
    case 'starts_with_any':
      return `the postal code starts with ${listText(codes, 'or', postalText)}`;
    case 'not_starts_with_any':
      return `the postal code starts with none of ${listText(codes, 'or', postalText)}`;
    case 'equal':
      return `the postal code is ${postalText(value)}`;
    case 'not_equal':
      return `the postal code is not ${postalText(value)}`;
    case 'starts_with':
      return `the postal code starts with ${postalText(value)}`;
    case 'not_starts_with':
      return `the postal code does not start with ${postalText(value)}`;
    case 'between': {
      const range = objectValue(value);
      return `the postal code is between ${postalText(range.from)} and ${postalText(range.to)}`;
    }
    default:
      return `the postal code is ${MISSING}`;
  }
}

function describeAction(filter: FilterInput, format: SentenceFormat, scope: FilterScope): string {
  const amount = moneyText(filter.action_data, format);
  // Whose units types 2 to 4 and 6 count (docs/rates.md, "Scope"); Apply To is a ruleset's only.
  const without = filter.global_rule_action === 1;
  const ofUnits =
    scope === 'product' ? ' of this product' : without ? ' without a product rule' : '';
  switch (filter.action_type) {
    // Types 0, 1 and 5 say what they do to the cart's one fee (actionHelp in catalogue.ts):
    // a product rule's Set Shipping Fee sets the whole cart's, not its product's part.
    case 0:
      return scope === 'product'
        ? "this product ships free: the cart's shipping is cut by its share of the items"
        : "make the cart's shipping free, replacing what the rules before it made";
    case 1:
      return scope === 'product' ? `add ${amount} to the cart's shipping once` : `add ${amount}`;
    case 2:
      return `add ${amount} per retail item${ofUnits}`;
    case 3:
      return `add ${amount} per free item${ofUnits}`;
    case 4:
      return `add ${amount} per item${ofUnits} priced ${moneyText(filter.rule_product_limit_amount, format)}`;
    case 5:
      return scope === 'product'
        ? `set the whole cart's shipping to ${amount}, replacing what the ruleset and the rules before it made`
        : `set the cart's shipping to ${amount}, replacing what the rules before it made`;
    case 6: {
      const step = weightText(filter.action_weight_step ?? null, format);
      const weighed =
        scope === 'product'
          ? " of this product's weight"
          : without
            ? ' of the weight of items without a product rule'
            : ' of the cart weight';
      return `add ${amount} for each started ${step}${weighed}`;
    }
    case BLOCK_SHIPPING:
      return 'block shipping: checkout gets no rates';
    default:
      return 'apply an unknown action';
  }
}

/**
 * A value still being typed: a number when it reads as one the value's kind
 * takes (`fits`), else the text as typed. A number the kind refuses is never
 * formatted: "4.999" as money would read "$5.00", a value that cannot be saved.
 */
function numberOr(value: unknown, fits: (n: number) => boolean): number | string {
  const read = asNumber(value);
  if (typeof read === 'number') {
    if (!Number.isFinite(read)) return MISSING;
    return fits(read) ? read : typeof value === 'string' ? value.trim() : String(read);
  }
  return isBlank(read) || typeof read !== 'string' ? MISSING : read.trim();
}

function moneyText(value: unknown, format: SentenceFormat): string {
  const read = numberOr(value, isAmount);
  return typeof read === 'number' ? format.money(read) : read;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function countText(value: unknown, format: SentenceFormat): string {
  const read = numberOr(value, isCount);
  if (typeof read !== 'number') return read;
  let formatter = numberFormats.get(format.locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(format.locale);
    numberFormats.set(format.locale, formatter);
  }
  return formatter.format(read);
}

/** "item" for exactly one, else "items" (the value as typed decides). */
function items(value: unknown): string {
  return asNumber(value) === 1 ? 'item' : 'items';
}

function weightText(value: unknown, format: SentenceFormat): string {
  const { amount, unit } = objectValue(value);
  const read = numberOr(amount, isWeightAmount);
  if (typeof read === 'number' && isWeightUnit(unit)) return format.weight({ amount: read, unit });
  if (read === MISSING) return MISSING;
  return `${read} ${typeof unit === 'string' ? unit : ''}`.trim();
}

function placeText(value: unknown, kind: 'country' | 'region', format: SentenceFormat): string {
  if (isBlank(value) || typeof value !== 'string') return MISSING;
  const code = value.trim().toUpperCase();
  return kind === 'country' ? format.country(code) : format.region(code);
}

/** Values a sentence names before it sums up the rest ("and 12 more"). */
const LISTED = 5;

/** A list's values in words: "A, B or C"; past LISTED, "A, B, C, D, E or 12 more". */
function listText(values: readonly unknown[], word: string, show: (value: unknown) => string) {
  if (values.length === 0) return MISSING;
  const shown = values.slice(0, LISTED).map(show);
  if (values.length > LISTED) shown.push(`${values.length - LISTED} more`);
  return joinList(shown, word);
}

/** A postal code as it is compared (upper case, letters and digits), or as typed when nothing is left. */
function postalText(value: unknown): string {
  if (isBlank(value) || typeof value !== 'string') return MISSING;
  return normalisePostalCode(value) || value.trim();
}

/** The parts of an object value (a weight, a count and amount, a range); none for anything else. */
function objectValue(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}
