import type { CartLineJson } from '@ratesmith/contracts';
import { Schema } from 'mongoose';

/** A kept cart line (sample carts, recent checkouts): the cart line's JSON form. */
export const cartLineSchema = new Schema<CartLineJson>(
  {
    product_id: String,
    variant_id: String,
    quantity: Number,
    price: Number,
    grams: Number,
    // Left out when empty (cartLineToJson), as in lines stored before item conditions.
    vendor: { type: String, default: undefined },
    sku: { type: String, default: undefined },
  },
  { _id: false },
);

export const OBJECT_ID = /^[0-9a-f]{24}$/i;
