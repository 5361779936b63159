import type { ValueKind } from './value-kinds';

/**
 * The words of the filter language (docs/rates.md): condition fields with
 * their labels, value kinds and operators, and the action types. The rules
 * service, the rate engine's preview and the admin's editor all read this
 * table; a new condition field starts here.
 */

export const NUMERIC_OPERATORS = [
  'equal',
  'greater_than',
  'greater_or_equal',
  'less_than',
  'less_or_equal',
] as const;

export const OPERATOR_LABELS: Record<string, string> = {
  equal: 'equal',
  not_equal: 'not equal',
  greater_than: 'greater than',
  greater_or_equal: 'greater or equal',
  less_than: 'less than',
  less_or_equal: 'less or equal',
  starts_with: 'starts with',
  not_starts_with: 'does not start with',
  between: 'between',
  in: 'is any of',
  not_in: 'is none of',
  starts_with_any: 'starts with any of',
  not_starts_with_any: 'starts with none of',
  any_equal: 'any item is',
  all_equal: 'every item is',
  none_equal: 'no item is',
  any_starts_with: 'any item starts with',
  all_starts_with: 'every item starts with',
  none_starts_with: 'no item starts with',
};

/** A place (a country or a region) compared whole, with one value or a list. */
const PLACE_OPERATORS = ['equal', 'not_equal', 'in', 'not_in'] as const;

/** Operators of a postal code (docs/rates.md): text comparisons on the normalised code. */
export const POSTAL_OPERATORS = [
  'equal',
  'not_equal',
  'starts_with',
  'not_starts_with',
  'between',
  'in',
  'not_in',
  'starts_with_any',
  'not_starts_with_any',
] as const;

/**
 * Operators of an item condition (docs/rates.md, "Item conditions"): a
 * quantifier over the cart's shipping lines (any, all, none) and a test of
 * one line's text (equal, starts with).
 */
const ITEM_OPERATORS = ['any_equal', 'all_equal', 'none_equal'] as const;
const SKU_OPERATORS = [
  ...ITEM_OPERATORS,
  'any_starts_with',
  'all_starts_with',
  'none_starts_with',
] as const;

/**
 * What a condition compares its value with: a figure the rate engine measures
 * on every cart, once per scope (the whole cart, or one product rule's units).
 * Several fields may read one figure; a field over a figure listed here needs
 * no engine code. A new figure is a new measurement, so the engine must learn
 * to take it (its slot in program-layout.ts; the type checker points there).
 */
export type CartFigure =
  | 'shipping_country'
  | 'price'
  | 'retail_units'
  | 'free_units'
  /** Grams of the shipping units (grams x quantity). */
  | 'weight'
  /** The destination's `COUNTRY-PROVINCE`, empty when Shopify sends no province. */
  | 'region'
  /** Units at one unit price X; only for the `count_amount` kind. */
  | 'units_at_price'
  /** The normalised destination postal code; each test of it gets its own slot. */
  | 'postal_code'
  | ItemFigure;

/**
 * A text of each shipping line that item conditions test: vendor and SKU come
 * with the line, product type and tags from the snapshot's product index.
 * Each test of one gets its own slot.
 */
export type ItemFigure = 'item_vendor' | 'item_product_type' | 'item_product_tag' | 'item_sku';

/** A figure that is one number of the cart (a slot of its own in the engine). */
export type ScalarFigure = Exclude<CartFigure, 'units_at_price' | 'postal_code' | ItemFigure>;

interface FieldBase {
  key: string;
  label: string;
  operators: readonly string[];
}

/** Units at a price X are read only by a count-and-amount value, and it reads nothing else. */
export type FieldDefinition = FieldBase &
  (
    | { kind: 'count_amount'; figure: 'units_at_price' }
    | { kind: 'postal_code'; figure: 'postal_code' }
    | { kind: 'item_text'; figure: ItemFigure }
    | {
        kind: Exclude<ValueKind, 'count_amount' | 'postal_code' | 'item_text'>;
        figure: ScalarFigure;
      }
  );

export const FIELDS: readonly FieldDefinition[] = [
  {
    key: 'shipping_country',
    label: 'Shipping Country',
    kind: 'country',
    figure: 'shipping_country',
    operators: PLACE_OPERATORS,
  },
  {
    key: 'cart_price',
    label: 'Cart Price',
    kind: 'amount',
    figure: 'price',
    operators: NUMERIC_OPERATORS,
  },
  {
    key: 'cart_retail_product_count',
    label: 'Cart Retail Product Count',
    kind: 'count',
    figure: 'retail_units',
    operators: NUMERIC_OPERATORS,
  },
  {
    key: 'cart_free_product_count',
    label: 'Cart Free Product Count',
    kind: 'count',
    figure: 'free_units',
    operators: NUMERIC_OPERATORS,
  },
  {
    key: 'cart_product_count_of_x_price',
    label: 'Cart Product Count of $X Price',
    kind: 'count_amount',
    figure: 'units_at_price',
    operators: NUMERIC_OPERATORS,
  },
  {
    key: 'cart_weight',
    label: 'Cart Weight',
    kind: 'weight',
    figure: 'weight',
    operators: NUMERIC_OPERATORS,
  },
  {
    key: 'shipping_region',
    label: 'Shipping State/Province',
    kind: 'region',
    figure: 'region',
    operators: PLACE_OPERATORS,
  },
  {
    key: 'shipping_postal_code',
    label: 'Shipping Postal Code',
    kind: 'postal_code',
    figure: 'postal_code',
    operators: POSTAL_OPERATORS,
  },
  {
    key: 'cart_item_vendor',
    label: 'Product Vendor',
    kind: 'item_text',
    figure: 'item_vendor',
    operators: ITEM_OPERATORS,
  },
  {
    key: 'cart_item_product_type',
    label: 'Product Type',
    kind: 'item_text',
    figure: 'item_product_type',
    operators: ITEM_OPERATORS,
  },
  {
    key: 'cart_item_product_tag',
    label: 'Product Tag',
    kind: 'item_text',
    figure: 'item_product_tag',
    operators: ITEM_OPERATORS,
  },
  {
    key: 'cart_item_sku',
    label: 'Variant SKU',
    kind: 'item_text',
    figure: 'item_sku',
    operators: SKU_OPERATORS,
  },
];

const FIELDS_BY_KEY = new Map(FIELDS.map((field) => [field.key, field]));

export function fieldByKey(key: string): FieldDefinition | undefined {
  return FIELDS_BY_KEY.get(key);
}

/** Where a filter lives: a global ruleset or one product's rule. */
export type FilterScope = 'ruleset' | 'product';

/**
 * What a filter's conditions read, said where they are edited. Every field is
 * a figure of the whole cart in both scopes (the "Cart" of each label); only a
 * product rule's actions are limited to its product's units (docs/rates.md).
 */
export function conditionsHint(scope: FilterScope): string | undefined {
  return scope === 'product'
    ? "Conditions count the whole cart (every product in it), not only this product; the action then applies to this product's units."
    : undefined;
}

export const ACTION_TYPES = [0, 1, 2, 3, 4, 5, 6, 7] as const;

/** Block Shipping (docs/rates.md): a matched filter ends evaluation and checkout gets no rates. */
export const BLOCK_SHIPPING = 7;

export function isActionType(type: unknown): type is (typeof ACTION_TYPES)[number] {
  return Number.isInteger(type) && (type as number) >= 0 && (type as number) <= 7;
}

/** Whether the action changes the fee by an amount (types 1 to 6). */
export function actionHasAmount(type: number): boolean {
  return type >= 1 && type <= 6;
}

/** Action labels; type 5 is "Set Shipping Fee" (docs/rates.md). */
export function actionLabel(type: number, scope: FilterScope): string {
  switch (type) {
    case 0:
      return scope === 'product' ? 'Make Shipping Free For This Item' : 'Make Shipping Free';
    case 1:
      return 'Add Single Shipping Fee';
    case 2:
      return 'Add Shipping Fee For Each Retail Product';
    case 3:
      return 'Add Shipping Fee For Each Free Product';
    case 4:
      return 'Add Shipping Fee For Each Product Costing $X';
    case 5:
      return 'Set Shipping Fee';
    case 6:
      return 'Add Shipping Fee For Each Weight Step';
    case 7:
      return 'Block Shipping';
    default:
      return `Unknown action ${type}`;
  }
}

/**
 * What an action does to the cart's shipping fee, in each scope, said where it
 * is chosen (the editor's Action select): the math of docs/rates.md
 * ("Actions", "Scope", "Order"). A product rule runs after the ruleset and
 * works on the same fee, so Set Shipping Fee there sets the whole cart's fee.
 */
export function actionHelp(type: number, scope: FilterScope): string {
  const product = scope === 'product';
  // Types 2 to 4 and 6 count the ruleset's Apply To units, or the product rule's own.
  const whose = product
    ? 'of this product in the cart'
    : 'of the cart (with Apply To, only of products without a product rule)';
  switch (type) {
    case 0:
      return product
        ? "Makes this product ship free: after every rule has run, the cart's shipping is cut by this product's share of the cart's items (2 of 4 items free halves it)."
        : "Sets the cart's shipping to 0, replacing what the rules before it made; rules after it and product rules can still add to it.";
    case 1:
      return product
        ? "Adds the amount to the cart's shipping once, however many of this product the cart holds."
        : "Adds the amount to the cart's shipping once.";
    case 2:
      return `Adds the amount for each retail item (priced above 0) ${whose}.`;
    case 3:
      return `Adds the amount for each free item (priced 0) ${whose}.`;
    case 4:
      return `Adds the amount for each item priced exactly the product cost ${whose}.`;
    case 5:
      return product
        ? "Sets the whole cart's shipping to the amount, not only this product's part: it replaces what the ruleset and the rules before it made. To charge for this product on top, choose an Add action."
        : "Sets the cart's shipping to the amount, replacing what the rules before it made; rules after it and product rules can still change it.";
    case 6:
      return product
        ? "Adds the amount for each started weight step of this product's weight in the cart."
        : "Adds the amount for each started weight step of the cart's weight (with Apply To, only of products without a product rule).";
    case BLOCK_SHIPPING:
      return 'When this rule matches, checkout gets no shipping rate from Ratesmith, not even the fallback rate; no later rule or product rule runs.';
    default:
      return '';
  }
}

/** Which inputs an action type needs beside its kind. */
export function actionInputs(type: number, scope: FilterScope) {
  return {
    amount: actionHasAmount(type),
    // A product rule's filter always works on that product's units: no Apply To there.
    applyTo: scope === 'ruleset' && ((type >= 2 && type <= 4) || type === 6),
    productCost: type === 4,
    weightStep: type === 6,
  };
}
