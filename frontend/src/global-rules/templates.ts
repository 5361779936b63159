import type { FilterDraft } from '@ratesmith/contracts/edge';
import { NO_OVERRIDE } from '@ratesmith/contracts/filters';
import { newId } from '../editor/model';

/**
 * Starter rulesets of Add Ruleset: each a ready list of filters the merchant
 * then edits. Amounts are in the shop's currency (plain numbers, as the
 * editor saves them); every template passes the editor's one validation
 * (templates.spec.ts).
 */
export interface RulesetTemplate {
  key: string;
  name: string;
  /** What it charges, amounts written by `money` (the shop's currency). */
  description(money: (amount: number) => string): string;
  filters(): FilterDraft[];
}

type Condition = [field: string, operator: string, value: string | number];

/** A filter with the editor's defaults (newFilter), its conditions joined by AND. */
function draft(
  name: string,
  conditions: Condition[],
  action: { type: number; amount: number | null; then: 'stop' | 'continue' },
  over: Partial<FilterDraft> = {},
): FilterDraft {
  return {
    id: newId('f'),
    name,
    raw_query: {
      id: newId('g'),
      type: 'group',
      condition: 'AND',
      rules: conditions.map(([field, operator, value]) => ({
        id: newId('c'),
        type: 'condition',
        field,
        operator,
        value,
      })),
    },
    action_type: action.type,
    action_data: action.amount,
    rule_product_limit_amount: null,
    global_rule_action: 0,
    ...NO_OVERRIDE,
    post_processing_action_type: action.then === 'stop' ? 0 : 1,
    ...over,
  };
}

/** Every cart: the price is never negative. */
const EVERY_CART: Condition = ['cart_price', 'greater_or_equal', 0];
const FREE = 0;
const SINGLE_FEE = 1;
const FEE_PER_RETAIL_ITEM = 2;

export const RULESET_TEMPLATES: readonly RulesetTemplate[] = [
  {
    key: 'free-over',
    name: 'Free shipping over an amount',
    description: (money) =>
      `Carts of ${money(50)} or more ship free; every other cart pays ${money(5)}.`,
    filters: () => [
      draft('Free shipping over the amount', [['cart_price', 'greater_or_equal', 50]], {
        type: FREE,
        amount: null,
        then: 'stop',
      }),
      draft('Standard rate', [EVERY_CART], { type: SINGLE_FEE, amount: 5, then: 'stop' }),
    ],
  },
  {
    key: 'flat-plus-per-item',
    name: 'Flat rate plus per item',
    description: (money) => `${money(4)} per order plus ${money(1)} for each item.`,
    filters: () => [
      draft('Flat rate', [EVERY_CART], { type: SINGLE_FEE, amount: 4, then: 'continue' }),
      draft('Per item', [EVERY_CART], { type: FEE_PER_RETAIL_ITEM, amount: 1, then: 'stop' }),
    ],
  },
  {
    key: 'free-gifts',
    name: 'Free gift items ship free',
    description: (money) =>
      `Only paid items are charged (${money(2)} each); a cart of nothing but free gifts ships free.`,
    filters: () => [
      draft('Only free gifts', [['cart_retail_product_count', 'equal', 0]], {
        type: FREE,
        amount: null,
        then: 'stop',
      }),
      draft('Paid items', [['cart_retail_product_count', 'greater_or_equal', 1]], {
        type: FEE_PER_RETAIL_ITEM,
        amount: 2,
        then: 'stop',
      }),
    ],
  },
  {
    key: 'country-surcharges',
    name: 'Country surcharges',
    description: (money) =>
      `${money(6)} everywhere, plus ${money(10)} to Canada and ${money(15)} to Australia.`,
    filters: () => [
      draft('Base rate', [EVERY_CART], { type: SINGLE_FEE, amount: 6, then: 'continue' }),
      draft('Canada surcharge', [['shipping_country', 'equal', 'CA']], {
        type: SINGLE_FEE,
        amount: 10,
        then: 'continue',
      }),
      draft('Australia surcharge', [['shipping_country', 'equal', 'AU']], {
        type: SINGLE_FEE,
        amount: 15,
        then: 'continue',
      }),
    ],
  },
  {
    key: 'priority',
    name: 'Standard and priority rates',
    description: (money) =>
      `Standard shipping at ${money(5)}, with a priority option named for the bump rate (turn the bump rate on in Settings to offer it).`,
    filters: () => [
      draft(
        'Standard and priority',
        [EVERY_CART],
        { type: SINGLE_FEE, amount: 5, then: 'stop' },
        {
          is_shipping_overridden: 'Yes',
          shipping_name: 'Standard shipping',
          shipping_description: '5 to 8 business days',
          bump_shipping_name: 'Priority shipping',
          bump_shipping_description: '1 to 2 business days',
        },
      ),
    ],
  },
];

export function templateByKey(key: string): RulesetTemplate | undefined {
  return RULESET_TEMPLATES.find((t) => t.key === key);
}
