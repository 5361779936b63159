/** Response shapes of the gateway's /api (see the root README, "The API"). */

export interface StatusReply {
  status: boolean;
  message: string;
}

export interface GlobalRuleSummary {
  id: string;
  name: string;
  position: number;
  filters_count: number;
  active: boolean;
  created_at: string;
}

export interface GlobalRulesList {
  shop: { shop: string; global_rule_id: string | null };
  globalRules: GlobalRuleSummary[];
}

export interface GlobalRuleReply extends StatusReply {
  rule: GlobalRuleSummary;
}

export interface ProductRuleSummary {
  id: string;
  product_id: string;
  name: string;
  image: string;
  metadata: {
    image: { src: string };
    variants: { id: string; title: string; price: string }[];
  };
  variants_count: number;
  variant_ids: string[];
  active: boolean;
  filters: unknown[];
  created_at: string;
}

export interface ProductRulesList {
  products: { data: ProductRuleSummary[] };
}

/** 1 = percent on top of regular shipping, 2 = static fee, null = not chosen. */
export type BumpShippingAction = 1 | 2 | null;

export interface ShopSettings {
  carrier_name: string;
  carrier_description: string;
  bump_shipping_enabled: boolean;
  bump_shipping_name: string;
  bump_shipping_description: string;
  bump_shipping_action: BumpShippingAction;
  bump_shipping_cost: number;
}

export interface SettingsReply extends StatusReply {
  settings: ShopSettings;
}

/** Whether checkout calls the app, as Shopify last reported it. */
export type CarrierServiceState = 'active' | 'inactive' | 'needs_plan' | 'error' | 'unknown';

export interface CarrierServiceStatus {
  state: CarrierServiceState;
  /** Shopify's reason when it refused; empty otherwise. */
  detail: string;
  checked_at: string | null;
}

export interface CarrierServiceReply extends StatusReply {
  carrier_service: CarrierServiceStatus;
}
