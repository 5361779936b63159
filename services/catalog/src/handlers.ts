import type { catalogV1 } from '@ratesmith/contracts';
import { requireShopDomain, type HandlersOf } from '@ratesmith/kit';
import type { CatalogApp } from './domain/catalog-app';

/** NATS handlers: protobuf in, one use case, protobuf out. */
export function createCatalogHandlers(
  app: CatalogApp,
): HandlersOf<typeof catalogV1.CatalogService> {
  return {
    listProducts: async ({ shop, search, after, before }, { requestId }) => {
      const page = await app.listProducts(
        requireShopDomain(shop),
        { search, after, before },
        requestId,
      );
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
    listVariants: async ({ shop, productId }, { requestId }) => ({
      variants: await app.listVariants(requireShopDomain(shop), productId, requestId),
    }),
    addProducts: async ({ shop, productIds, variantPicks }, { requestId }) =>
      app.addProducts(requireShopDomain(shop), productIds, requestId, variantPicks),
    lookUpProducts: async ({ shop, products }, { requestId }) =>
      app.lookUpProducts(requireShopDomain(shop), products, requestId),
    listProductTexts: async ({ shop, kind, search }, { requestId }) =>
      app.listProductTexts(requireShopDomain(shop), kind, search, requestId),
    exportProducts: async ({ shop }, { requestId }) => ({
      started: app.exportProducts(requireShopDomain(shop), requestId),
    }),
    refreshProducts: async ({ shop, productIds }, { requestId }) => {
      await app.refreshProducts(requireShopDomain(shop), productIds, requestId);
      return {};
    },
  };
}
