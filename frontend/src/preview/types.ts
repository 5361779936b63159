import type { FilterDraft } from '@ratesmith/contracts/filters';

/** `POST /api/rate-preview` (interfaces: task "engine"). Prices in cents. */
export interface PreviewItem {
  price: number;
  quantity: number;
  product_id?: number;
  requires_shipping?: boolean;
  name?: string;
}

export interface PreviewRequest {
  rate: { destination: { country: string }; currency: string; items: PreviewItem[] };
  draft?: { globalRuleId?: string; rules: FilterDraft[] };
}

export interface PreviewRate {
  service_name: string;
  service_code: string;
  total_price: string | number;
  description: string;
  currency: string;
}

export interface TraceStep {
  scope: 'global' | 'product';
  productRuleId?: string;
  productId?: string;
  filterId: string;
  filterName: string;
  matched: boolean;
  actionType?: number;
  feeBefore: number;
  feeAfter: number;
  stopped: boolean;
}

export interface PreviewTrace {
  steps: TraceStep[];
  freeItems: null | { totalUnits: number; freeUnits: number; feeBefore: number; feeAfter: number };
  matchedAny: boolean;
  fee: number;
}

export interface PreviewAnswer {
  rates: PreviewRate[];
  trace: PreviewTrace;
}

export type RequestPreview = (request: PreviewRequest) => Promise<PreviewAnswer>;

/** A product the cart lines can name: the shop's product rules. */
export interface PreviewProduct {
  /** Numeric Shopify product id as text ("123"). */
  productId: string;
  name: string;
}
