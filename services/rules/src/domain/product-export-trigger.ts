import type { catalogV1 } from '@ratesmith/contracts';
import type { ClientOf, Logger } from '@ratesmith/kit';
import type { ProductFactsRepository } from '../data/product-facts.repository';

/** An export that has not finished after this long is started again. */
export const EXPORT_RETRY_AFTER_MS = 60 * 60_000;
/** Shops this replica knows were exported, so their publishes read nothing more (bounded). */
const REMEMBERED = 10_000;

/**
 * Has the catalog read a shop's whole catalog once, the first time its rules
 * name a product type or tag (docs/rates.md, "The product index"): shops that
 * never use such a condition never export their products. Webhooks keep the
 * index in step afterwards.
 */
export class ProductExportTrigger {
  private readonly exported = new Set<string>();

  constructor(
    private readonly deps: {
      productFacts: ProductFactsRepository;
      catalog: ClientOf<typeof catalogV1.CatalogService>;
      logger: Logger;
      retryAfterMs?: number;
    },
  ) {}

  /** After a publish whose conditions name a type or a tag; never throws. */
  async ensureExported(shop: string): Promise<void> {
    if (this.exported.has(shop)) return;
    try {
      const { productFacts } = this.deps;
      if (await productFacts.exported(shop)) return this.remember(shop);
      const retry = this.deps.retryAfterMs ?? EXPORT_RETRY_AFTER_MS;
      if (!(await productFacts.claimExport(shop, new Date(), retry))) return;
      await this.deps.catalog.call('exportProducts', { shop });
    } catch (err) {
      this.deps.logger.warn({ shop, err: (err as Error).message }, 'product export not started');
    }
  }

  /** The export finished (its last PutProductFacts). */
  finished(shop: string): void {
    this.remember(shop);
  }

  private remember(shop: string): void {
    if (this.exported.size >= REMEMBERED) this.exported.clear();
    this.exported.add(shop);
  }
}
