import { useCallback, useMemo } from 'react';
import {
  isAbort,
  messageOf,
  useApi,
  type ApiClient,
  type ProductRulesList,
  type TestCheckoutReply,
  type TestCheckoutRequest,
} from '../api';
import { useLoader } from '../components/useLoader';
import { readStoreVariants } from '../product-rules/store-variants';
import type { ProductPage } from '../product-rules/types';
import { isAppBridgeEnabled } from '../shell/environment';
import { numericProductId } from './cart';
import type {
  PreviewAnswer,
  PreviewProduct,
  PreviewRequest,
  ReadProduct,
  SendTestCheckout,
} from './types';

/** What each call of the preview fails with when the server said nothing. */
const UNAVAILABLE = {
  '/api/rate-preview': 'The rate preview is not available right now.',
  '/api/test-checkout': 'The test checkout is not available right now.',
};

async function post<T>(api: ApiClient, path: keyof typeof UNAVAILABLE, body: unknown): Promise<T> {
  try {
    return await api.post<T>(path, body);
  } catch (err) {
    throw new Error(messageOf(err, UNAVAILABLE[path]), { cause: err });
  }
}

/**
 * What both rule editors give the rate preview: the products its cart lines
 * can name (the shop's product rules first, then the first page of the shop's
 * products from Shopify), a product's price and weight, the call itself and,
 * in demo mode only (no App Bridge: frontend/src/shell/environment.ts), the
 * test checkout through the Shopify double.
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
    (request: PreviewRequest) => post<PreviewAnswer>(api, '/api/rate-preview', request),
    [api],
  );

  // The first variant's figures: what a cart line of the product costs and weighs.
  const readProduct = useCallback<ReadProduct>(
    async (productId, signal) => {
      try {
        const [first] = await readStoreVariants(api, productId, signal);
        return first ? { price: first.price, weight: first.weight } : null;
      } catch (err) {
        if (isAbort(err)) throw err;
        throw new Error(messageOf(err, 'The product could not be read from Shopify.'), {
          cause: err,
        });
      }
    },
    [api],
  );

  const sendTestCheckout = useCallback<SendTestCheckout>(
    (request: TestCheckoutRequest) => post<TestCheckoutReply>(api, '/api/test-checkout', request),
    [api],
  );
  const demo = useMemo(() => !isAppBridgeEnabled(), []);

  return {
    products: products.data ?? [],
    requestPreview,
    readProduct,
    ...(demo ? { sendTestCheckout } : {}),
  };
}
