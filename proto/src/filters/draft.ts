/**
 * A filter as the original app's JSON carries it (snake_case, `raw_query` a
 * nested group): what the admin sends while editing, so values can be
 * missing, numbers can still be text, enumerations are unchecked.
 * `validateFilters` turns drafts into the canonical form (`SnapshotFilter`).
 */
export type DraftValue =
  | string
  | number
  | { count: number | null; amount: number | null }
  | DraftWeight
  | { from: string; to: string }
  /** A list operator's values. */
  | string[]
  | null;

/** A weight while editing: the amount may be missing, the unit is unchecked. */
export interface DraftWeight {
  amount: number | null;
  unit: string;
}

export interface DraftCondition {
  id: string;
  type: 'condition';
  field: string;
  operator: string;
  value: DraftValue;
}

export interface DraftGroup {
  id: string;
  type: 'group';
  condition: string;
  rules: (DraftCondition | DraftGroup)[];
}

export interface FilterDraft {
  id: string;
  name: string;
  raw_query: DraftGroup;
  action_type: number;
  action_data: number | null;
  rule_product_limit_amount: number | null;
  global_rule_action: number;
  is_shipping_overridden: string;
  shipping_name: string;
  shipping_description: string;
  bump_shipping_name: string;
  bump_shipping_description: string;
  post_processing_action_type: number;
  /** The step of action 6; absent or null otherwise (older filters have none). */
  action_weight_step?: DraftWeight | null;
  /** The override's delivery window in business days; absent or null: none (older filters have none). */
  delivery_min_days?: number | string | null;
  delivery_max_days?: number | string | null;
}

/** A new filter's override: off, its texts empty (the editor's blank filter, the templates). */
export const NO_OVERRIDE = {
  is_shipping_overridden: 'No',
  shipping_name: '',
  shipping_description: '',
  bump_shipping_name: '',
  bump_shipping_description: '',
} as const;
