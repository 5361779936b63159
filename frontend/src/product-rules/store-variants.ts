import type { ApiClient, StoreVariant, StoreVariantsReply } from '../api';
import { numericProductId } from '../preview/cart';

/**
 * A store product's first 50 variants with their weights
 * (`GET /api/product-rules/shopify-products/{id}/variants`); `productId` is
 * the gid or the number. The product picker's tiles and the preview's cart
 * lines read them.
 */
export async function readStoreVariants(
  api: ApiClient,
  productId: string,
  signal?: AbortSignal,
): Promise<StoreVariant[]> {
  const path = `/api/product-rules/shopify-products/${numericProductId(productId)}/variants`;
  return (await api.get<StoreVariantsReply>(path, { signal })).variants;
}
