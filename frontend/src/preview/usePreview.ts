import { useCallback } from 'react';
import { isAbort, messageOf, useApi, type ProductRulesList } from '../api';
import { useLoader } from '../components/useLoader';
import type { ProductPage } from '../product-rules/types';
import { numericProductId } from './cart';
import type { PreviewAnswer, PreviewProduct, PreviewRequest } from './types';

/**
 * What both rule editors give the rate preview: the products its cart lines
 * can name (the shop's product rules first, then the first page of the shop's
 * products from Shopify) and the call itself.
 */
export function usePreview() {
  const api = useApi();
  const products = useLoader(
    useCallback(
      async (signal: AbortSignal): Promise<PreviewProduct[]> => {
        const [rules, page] = await Promise.all([
          api.get<ProductRulesList>('/api/product-rules', { signal }),
          // Without Shopify the cart lines still offer the product rules' products.
          api
            .get<{ products: ProductPage }>('/api/product-rules/shopify-products', { signal })
            .catch((err: unknown) => {
              if (isAbort(err)) throw err;
              return null;
            }),
        ]);
        const all = [
          ...rules.products.data.map((rule) => ({
            productId: numericProductId(rule.product_id),
            name: rule.name,
          })),
          ...(page?.products.edges ?? []).map(({ node }) => ({
            productId: numericProductId(node.id),
            name: node.title,
          })),
        ];
        const seen = new Set<string>();
        return all.filter(({ productId }) => {
          if (!productId || seen.has(productId)) return false;
          seen.add(productId);
          return true;
        });
      },
      [api],
    ),
  );

  const requestPreview = useCallback(
    async (request: PreviewRequest) => {
      try {
        return await api.post<PreviewAnswer>('/api/rate-preview', request);
      } catch (err) {
        throw new Error(messageOf(err, 'The rate preview is not available right now.'), {
          cause: err,
        });
      }
    },
    [api],
  );

  return { products: products.data ?? [], requestPreview };
}
