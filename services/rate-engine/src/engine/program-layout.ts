/**
 * The layout of a compiled snapshot (compile.ts builds it; interpreter.ts,
 * hot-tier.ts and evaluate.ts read it): where each cart figure sits in the
 * figures array, how a filter's row is laid out in the program, and the
 * opcodes of conditions and groups. Constants only, so every part of the
 * engine imports it and none imports another for it.
 */

/** Slots of one scope's figures; scope s starts at s * width. */
export const PRICE = 0;
export const RETAIL = 1;
export const FREE = 2;
export const UNITS = 3;
/** Grams of the scope's units (grams x quantity). */
export const WEIGHT = 4;
/** The destination country code (used in the cart scope only). */
export const COUNTRY = 5;
/** The destination region as a number (see regionCode in compile.ts; cart scope only). */
export const REGION = 6;
/**
 * Extra slots from FIRST_X on, numbered per snapshot: units costing the k-th
 * price X, and (cart scope only) 1 or 0 for each distinct postal-code test
 * the rules make (see compile.ts).
 */
export const FIRST_X = 7;
/** Scope 0: every shipping unit. Scope 1: units of products without an active product rule. */
export const CART_SCOPE = 0;
export const UNRULED_SCOPE = 1;
/** Product rule j's units are scope FIRST_RULE_SCOPE + j. */
export const FIRST_RULE_SCOPE = 2;

/**
 * A filter is FILTER_WORDS words of the snapshot's `code` (from `table`), so
 * 10,000 cached shops do not each keep an object a filter: filter k is at
 * table + k * FILTER_WORDS.
 */
export const FILTER_WORDS = 7;
/** Where its conditions start in `code` (see `matches` in interpreter.ts). */
export const F_ROOT = 0;
export const F_ACTION = 1;
/** cents(action_data); 0 when the action needs none. */
export const F_AMOUNT = 2;
/** Slot of "units costing X" for action 4, else -1. */
export const F_XSLOT = 3;
/** F_UNRULED | F_STOPS. */
export const F_FLAGS = 4;
/** Index in `texts` of its four override names (is_shipping_overridden "Yes"), else -1. */
export const F_OVERRIDE = 5;
/** Grams of the weight step of action 6, else 0. */
export const F_STEP = 6;
/** global_rule_action 1: only units without a product rule. */
export const F_UNRULED = 1;
/** post_processing_action_type 0: stop after a match. */
export const F_STOPS = 2;
/** Its conditions read the cart's weight, region or postal code (the trace shows them). */
export const F_READS_WEIGHT = 4;
export const F_READS_REGION = 8;
export const F_READS_POSTAL = 16;

/**
 * Operators of a condition, the low 3 bits of its first word
 * [operator | slot << 3, constant] (see `matches` in interpreter.ts).
 */
export const EQ = 0;
export const NE = 1;
export const GT = 2;
export const GE = 3;
export const LT = 4;
export const LE = 5;
/** Group tags: a group is [AND|OR, end, ...children]. */
export const AND = 6;
export const OR = 7;
