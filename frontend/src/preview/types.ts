import type { PreviewAnswer, PreviewRequest } from '@ratesmith/contracts/edge';

/** `POST /api/rate-preview`: its shapes live in @ratesmith/contracts/edge. */
export type {
  PreviewAnswer,
  PreviewItem,
  PreviewRequest,
  PreviewTrace,
  RateJson as PreviewRate,
  TraceStep,
} from '@ratesmith/contracts/edge';

export type RequestPreview = (request: PreviewRequest) => Promise<PreviewAnswer>;

/** A product the cart lines can name: the shop's product rules. */
export interface PreviewProduct {
  /** Numeric Shopify product id as text ("123"). */
  productId: string;
  name: string;
}
