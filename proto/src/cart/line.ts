import type { MessageInitShape } from '@bufbuild/protobuf';
import type { CartLineSchema } from '../gen/ratesmith/common/v1/cart_pb';
import { shopifyIdDigits } from '../shopify-ids';

/**
 * The cart line (docs/architecture.md, "The cart line"): one line of a cart
 * as every tier reads it. The engine parses Shopify's rate request into it,
 * the preview sends it, sample carts and recent checkouts keep it, the admin
 * shows it. Its three other forms are below, each with one converter each
 * way, so a field added here is a type error in every converter until it is
 * carried.
 */
export interface CartLine {
  /** Cents of one unit. */
  price: number;
  /** Units, 1 or more. */
  quantity: number;
  /** Grams of one unit; 0 when Shopify sends none. */
  grams: number;
  /** Shopify's numeric ids as decimal strings without leading zeros; '' when none was sent. */
  productId: string;
  variantId: string;
  /** False only when Shopify says the item needs no shipping (`requires_shipping: false`). */
  ships: boolean;
  /** The product's vendor and the variant's SKU as Shopify sent them; '' when none. */
  vendor: string;
  sku: string;
}

/** A line as stored (MongoDB) and as the admin's API shows it: kept lines are shipping lines. */
export interface CartLineJson {
  product_id: string;
  variant_id: string;
  quantity: number;
  price: number;
  grams: number;
  /** Left out when empty (and in lines stored before item conditions). */
  vendor?: string;
  sku?: string;
}

/** A line on the bus (ratesmith.common.v1.CartLine). */
export type CartLineWire = MessageInitShape<typeof CartLineSchema>;

export const CART_LINE_LIMITS = {
  quantity: 1_000_000,
  /** Cents; with the quantity cap and 1,000 lines every cart figure stays an exact integer. */
  price: 1_000_000_000,
  /** Grams of one unit. */
  grams: 1_000_000_000,
  /** Digits of an id: 16 stay exact as a JavaScript number, as Shopify sends them. */
  idDigits: 16,
  /** Characters of a vendor or a SKU: Shopify's own limit. */
  text: 255,
} as const;

/** A line that breaks the contract; the message names the line's path and the field. */
export class CartLineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CartLineError';
  }
}

const BARE_ID = { maxDigits: CART_LINE_LIMITS.idDigits, gid: false } as const;

/** An id's canonical decimal string: "0123" and 123 are both "123". */
function canonical(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}

/**
 * A product or variant id as a line keeps it, from a number or a decimal
 * string (a stored `gid://shopify/Product/123` is for `productRuleId`, not
 * here); '' when it is missing or null, undefined when it is neither.
 */
export function cartLineId(value: unknown): string | undefined {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  }
  const digits = typeof value === 'string' ? shopifyIdDigits(value, BARE_ID) : undefined;
  return digits === undefined ? undefined : canonical(digits);
}

/**
 * Whether `id` is a product's id as a line keeps it (decimal, no leading zero, not 0 and
 * not empty): the product index's keys and the catalog's product facts.
 */
export function isLineId(id: string): boolean {
  return id !== '' && id[0] !== '0' && cartLineId(id) === id;
}

/** A stored product rule's product or variant id (`gid://shopify/Product/123` or `123`) as a line's. */
export function ruleProductId(id: string): string | undefined {
  const digits = shopifyIdDigits(id, { maxDigits: CART_LINE_LIMITS.idDigits, trim: true });
  return digits === undefined ? undefined : canonical(digits);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wholeIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * One item of Shopify's rate request (docs/rates.md, "The request"), checked
 * by hand: it runs on every checkout, and a walk over the few fields read is
 * several times cheaper than a schema library. Fields not read are never
 * looked at. Throws CartLineError naming `path`.
 */
export function cartLineFromShopify(item: unknown, path: string): CartLine {
  if (!isObject(item)) throw new CartLineError(`${path} must be an object`);
  const { price, quantity } = item;
  if (!wholeIn(price, 0, CART_LINE_LIMITS.price)) {
    throw new CartLineError(
      `${path}.price must be a whole number of cents from 0 to ${CART_LINE_LIMITS.price}`,
    );
  }
  if (!wholeIn(quantity, 1, CART_LINE_LIMITS.quantity)) {
    throw new CartLineError(
      `${path}.quantity must be a whole number from 1 to ${CART_LINE_LIMITS.quantity}`,
    );
  }
  const requiresShipping = item.requires_shipping;
  if (
    requiresShipping !== undefined &&
    requiresShipping !== null &&
    typeof requiresShipping !== 'boolean'
  ) {
    throw new CartLineError(`${path}.requires_shipping must be true or false`);
  }
  const grams = item.grams ?? 0;
  if (!wholeIn(grams, 0, CART_LINE_LIMITS.grams)) {
    throw new CartLineError(
      `${path}.grams must be a whole number of grams from 0 to ${CART_LINE_LIMITS.grams}`,
    );
  }
  const productId = cartLineId(item.product_id);
  if (productId === undefined) throw new CartLineError(`${path}.product_id must be a numeric id`);
  const variantId = cartLineId(item.variant_id);
  if (variantId === undefined) throw new CartLineError(`${path}.variant_id must be a numeric id`);
  const vendor = textOf(item.vendor, `${path}.vendor`);
  const sku = textOf(item.sku, `${path}.sku`);
  return {
    price,
    quantity,
    grams,
    productId,
    variantId,
    ships: requiresShipping !== false,
    vendor,
    sku,
  };
}

/** A vendor or SKU: missing or null is ''. */
function textOf(value: unknown, path: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string' || value.length > CART_LINE_LIMITS.text) {
    throw new CartLineError(`${path} must be text of at most ${CART_LINE_LIMITS.text} characters`);
  }
  return value;
}

/**
 * A line from the bus (the preview's cart, a batch's sample carts and recent
 * checkouts), checked as Shopify's are: the bus is not trusted with figures
 * that become quotes or stored data.
 */
export function cartLineFromWire(wire: CartLineWire, path = 'line'): CartLine {
  return checked(
    {
      price: wire.price ?? 0,
      quantity: wire.quantity ?? 0,
      grams: wire.grams ?? 0,
      productId: wire.productId ?? '',
      variantId: wire.variantId ?? '',
      ships: !wire.noShipping,
      vendor: wire.vendor ?? '',
      sku: wire.sku ?? '',
    },
    path,
  );
}

export function cartLineToWire(line: CartLine): CartLineWire {
  return {
    productId: line.productId,
    variantId: line.variantId,
    quantity: line.quantity,
    price: line.price,
    grams: line.grams,
    noShipping: !line.ships,
    vendor: line.vendor,
    sku: line.sku,
  };
}

/** A kept line read back (a stored document); checked, as stored data may predate a limit. */
export function cartLineFromJson(json: CartLineJson, path = 'line'): CartLine {
  return checked(
    {
      price: json.price,
      quantity: json.quantity,
      grams: json.grams,
      productId: json.product_id,
      variantId: json.variant_id,
      ships: true,
      vendor: json.vendor ?? '',
      sku: json.sku ?? '',
    },
    path,
  );
}

export function cartLineToJson(line: CartLine): CartLineJson {
  return {
    product_id: line.productId,
    variant_id: line.variantId,
    quantity: line.quantity,
    price: line.price,
    grams: line.grams,
    ...(line.vendor ? { vendor: line.vendor } : {}),
    ...(line.sku ? { sku: line.sku } : {}),
  };
}

/** The same bounds as cartLineFromShopify, for a line already in the contract's shape. */
function checked(line: CartLine, path: string): CartLine {
  const item: Record<string, unknown> = {
    price: line.price,
    quantity: line.quantity,
    grams: line.grams,
    // '' is how these forms say "none"; Shopify says it with null.
    product_id: line.productId || null,
    variant_id: line.variantId || null,
    requires_shipping: line.ships,
    vendor: line.vendor,
    sku: line.sku,
  };
  return cartLineFromShopify(item, path);
}
