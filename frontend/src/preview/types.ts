import type {
  PreviewAnswer,
  PreviewRequest,
  TestCheckoutReply,
  TestCheckoutRequest,
} from '@ratesmith/contracts/edge';
import type { Weight } from '@ratesmith/contracts/filters';

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

/** A product's figures for a cart line: its first variant's price (decimal text) and weight. */
export interface ProductFacts {
  price: string;
  weight: Weight | null;
}

/** Reads a product's figures (`productId`: the number as text); null when it has no variant. */
export type ReadProduct = (productId: string, signal?: AbortSignal) => Promise<ProductFacts | null>;

/** Demo mode's "Send a test checkout" (`POST /api/test-checkout`); errors are thrown in words. */
export type SendTestCheckout = (request: TestCheckoutRequest) => Promise<TestCheckoutReply>;

/** A product the cart lines can name: the shop's product rules. */
export interface PreviewProduct {
  /** Numeric Shopify product id as text ("123"). */
  productId: string;
  name: string;
}
