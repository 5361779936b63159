import { AppError } from '@ratesmith/kit';
import type { ProductFactInput, ProductFactsRepository } from '../data/product-facts.repository';
import type { SnapshotPublisher } from '../snapshots/publisher';

/** Products one call may carry: the catalog sends a webhook's few, at most its MAX_REFRESH_IDS. */
export const MAX_FACTS_PER_CALL = 1000;

/**
 * The shop's product facts, as the catalog reads them from Shopify
 * (docs/rates.md, "The product index"): stored, then the snapshot published
 * again when its conditions name a type or a tag.
 */
export class ProductFactsApp {
  constructor(
    private readonly deps: { productFacts: ProductFactsRepository; publisher: SnapshotPublisher },
  ) {}

  async put(
    shop: string,
    products: readonly ProductFactInput[],
    removedProductIds: readonly string[],
  ): Promise<void> {
    if (products.length + removedProductIds.length > MAX_FACTS_PER_CALL)
      throw new AppError('invalid_data', `At most ${MAX_FACTS_PER_CALL} products a call.`);
    if (products.length === 0 && removedProductIds.length === 0) return;
    await this.deps.productFacts.upsert(shop, products);
    await this.deps.productFacts.remove(shop, removedProductIds);
    await this.deps.publisher.publishProductChange(shop);
  }
}
