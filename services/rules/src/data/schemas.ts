import type { CartLineJson } from '@ratesmith/contracts';
import { Schema } from 'mongoose';

/**
 * A filter is embedded in its ruleset or product rule, so "Save All" replaces
 * the whole list in one atomic write. raw_query is stored as the nested
 * document it is (validated before it gets here).
 */
export const filterSchema = new Schema(
  {
    id: { type: String, required: true },
    name: { type: String, required: true },
    raw_query: { type: Schema.Types.Mixed, required: true },
    action_type: { type: Number, required: true },
    action_data: { type: Number, default: null },
    rule_product_limit_amount: { type: Number, default: null },
    global_rule_action: { type: Number, default: 0 },
    is_shipping_overridden: { type: String, default: 'No' },
    shipping_name: { type: String, default: '' },
    shipping_description: { type: String, default: '' },
    bump_shipping_name: { type: String, default: '' },
    bump_shipping_description: { type: String, default: '' },
    post_processing_action_type: { type: Number, default: 0 },
    /** `{ amount, unit }` for action 6, else null (filters saved before it read as null). */
    action_weight_step: { type: Schema.Types.Mixed, default: null },
    /** The override's delivery window in business days, or null (filters saved before it have none). */
    delivery_min_days: { type: Number, default: null },
    delivery_max_days: { type: Number, default: null },
  },
  { _id: false, minimize: false },
);

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
