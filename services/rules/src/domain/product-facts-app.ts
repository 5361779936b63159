import { AppError } from '@ratesmith/kit';
import type { ProductFactInput, ProductFactsRepository } from '../data/product-facts.repository';
import type { SnapshotPublisher } from '../snapshots/publisher';
import type { ProductExportTrigger } from './product-export-trigger';

/** Products one call may carry: the catalog sends a webhook's few, at most its MAX_REFRESH_IDS. */
export const MAX_FACTS_PER_CALL = 1000;

/**
 * The shop's product facts, as the catalog reads them from Shopify
 * (docs/rates.md, "The product index"): stored, then the snapshot published
 * again when its conditions name a type or a tag.
 */
export class ProductFactsApp {
  constructor(
    private readonly deps: {
      productFacts: ProductFactsRepository;
      publisher: SnapshotPublisher;
      exportTrigger?: ProductExportTrigger;
    },
  ) {}

  /**
   * A webhook's refresh publishes at once; a whole-catalog export's batches are
   * stored and its last message (`exportFinished`) publishes once.
   */
  async put(
    shop: string,
    products: readonly ProductFactInput[],
    removedProductIds: readonly string[],
    from: { exportBatch?: boolean; exportFinished?: boolean } = {},
  ): Promise<void> {
    if (products.length + removedProductIds.length > MAX_FACTS_PER_CALL)
      throw new AppError('invalid_data', `At most ${MAX_FACTS_PER_CALL} products a call.`);
    await this.deps.productFacts.upsert(shop, products);
    await this.deps.productFacts.remove(shop, removedProductIds);
    if (from.exportFinished) {
      await this.deps.productFacts.finishExport(shop, new Date());
      this.deps.exportTrigger?.finished(shop);
    } else if (from.exportBatch) return;
    await this.deps.publisher.publishProductChange(shop);
  }
}
