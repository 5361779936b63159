import { SHOP_DOMAIN, type catalogV1 } from '@ratesmith/contracts';
import { AppError, type HandlersOf } from '@ratesmith/kit';
import type { CatalogApp } from './domain/catalog-app';

/** The shop becomes the host of a Shopify URL: only a permanent shop domain will do. */
function requireShop(shop: string): string {
  if (!SHOP_DOMAIN.test(shop)) {
    throw new AppError('invalid_data', 'That is not a valid shop domain.');
  }
  return shop;
}

/** NATS handlers: protobuf in, one use case, protobuf out. */
export function createCatalogHandlers(
  app: CatalogApp,
): HandlersOf<typeof catalogV1.CatalogService> {
  return {
    listProducts: async ({ shop, search, after, before }, { requestId }) => {
      const page = await app.listProducts(requireShop(shop), { search, after, before }, requestId);
      return {
        products: page.products.map((p) => ({
          id: p.id,
          title: p.title,
          image: p.image,
          variants: p.variants,
          cursor: p.cursor,
        })),
        pageInfo: page.pageInfo,
      };
    },
    addProducts: async ({ shop, productIds }, { requestId }) =>
      app.addProducts(requireShop(shop), productIds, requestId),
  };
}
