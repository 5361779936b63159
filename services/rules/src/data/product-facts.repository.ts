import { normaliseItemText, type NamedProductTexts, type ProductFacts } from '@ratesmith/contracts';
import { Schema, type Connection, type Model } from 'mongoose';
import { ShopScopedRepository } from './shop-scoped.repository';

/**
 * One product's type and tags as Shopify holds them, for the snapshot's product
 * index (docs/rates.md, "Item conditions"). `type_key` and `tag_keys` are the
 * same texts normalised, so the index is read by what conditions name.
 */
interface ProductFactDoc {
  shop: string;
  /** Decimal, as a cart line's product id. */
  product_id: string;
  product_type: string;
  tags: string[];
  type_key: string;
  tag_keys: string[];
  /** Shopify's `updatedAt` of what is stored: an older change never replaces a newer one. */
  updated_at: Date;
}

const productFactSchema = new Schema<ProductFactDoc>(
  {
    shop: { type: String, required: true },
    product_id: { type: String, required: true },
    product_type: { type: String, default: '' },
    tags: { type: [String], default: [] },
    type_key: { type: String, default: '' },
    tag_keys: { type: [String], default: [] },
    updated_at: { type: Date, required: true },
  },
  { collection: 'product_facts' },
);
productFactSchema.index({ shop: 1, product_id: 1 }, { unique: true });
productFactSchema.index({ shop: 1, tag_keys: 1 });
productFactSchema.index({ shop: 1, type_key: 1 });

/** A shop's whole-catalog export (ExportProducts): when it last started, whether it finished. */
interface ProductExportDoc {
  shop: string;
  started_at: Date | null;
  finished_at: Date | null;
}

const productExportSchema = new Schema<ProductExportDoc>(
  {
    shop: { type: String, required: true },
    started_at: { type: Date, default: null },
    finished_at: { type: Date, default: null },
  },
  { collection: 'product_fact_exports' },
);
productExportSchema.index({ shop: 1 }, { unique: true });

/** A product as the catalog reads it from Shopify. */
export interface ProductFactInput extends ProductFacts {
  productId: string;
  updatedAt: Date;
}

/** The shop's products' types and tags, kept in step with Shopify by the catalog. */
export class ProductFactsRepository extends ShopScopedRepository<ProductFactDoc> {
  private readonly exports: Model<ProductExportDoc>;

  constructor(conn: Connection) {
    super(conn.model<ProductFactDoc>('ProductFact', productFactSchema));
    this.exports = conn.model<ProductExportDoc>('ProductFactExport', productExportSchema);
  }

  override async buildIndexes(): Promise<void> {
    await super.buildIndexes();
    await this.exports.createIndexes();
  }

  override async deleteShop(shop: string): Promise<void> {
    await super.deleteShop(shop);
    await this.exports.deleteMany({ shop });
  }

  /** Whether the shop's whole catalog was read once (its index holds every product). */
  async exported(shop: string): Promise<boolean> {
    const doc = await this.exports.findOne({ shop }, { finished_at: 1 }).lean();
    return Boolean(doc?.finished_at);
  }

  /**
   * Takes the shop's export to start now: true unless it finished, or another
   * start is younger than `staleMs` (one atomic upsert on a unique index).
   */
  async claimExport(shop: string, now: Date, staleMs: number): Promise<boolean> {
    try {
      const result = await this.exports.updateOne(
        {
          shop,
          finished_at: null,
          $or: [{ started_at: null }, { started_at: { $lt: new Date(+now - staleMs) } }],
        },
        { $set: { started_at: now } },
        { upsert: true },
      );
      return result.modifiedCount + result.upsertedCount > 0;
    } catch (err) {
      // The upsert collided with a document the filter left out: not this call's to start.
      if ((err as { code?: number }).code === 11000) return false;
      throw err;
    }
  }

  async finishExport(shop: string, now: Date): Promise<void> {
    await this.exports.updateOne({ shop }, { $set: { finished_at: now } }, { upsert: true });
  }

  /** Stores each product unless what is stored is newer (a late webhook after a newer read). */
  async upsert(shop: string, products: readonly ProductFactInput[]): Promise<void> {
    if (products.length === 0) return;
    await this.model
      .bulkWrite(
        products.map((p) => ({
          updateOne: {
            filter: { shop, product_id: p.productId, updated_at: { $lte: p.updatedAt } },
            update: {
              $set: {
                product_type: p.product_type,
                tags: p.tags,
                type_key: normaliseItemText(p.product_type),
                tag_keys: p.tags.map(normaliseItemText),
                updated_at: p.updatedAt,
              },
            },
            upsert: true,
          },
        })),
        { ordered: false },
      )
      .catch((err: { code?: number; writeErrors?: { code?: number }[] }) => {
        // A newer stored product fails its filter, and the upsert then collides on the
        // unique index: that product is simply kept as it is.
        const errors = err.writeErrors ?? [];
        if (errors.length === 0 || errors.some((e) => e.code !== 11000)) throw err;
      });
  }

  async remove(shop: string, productIds: readonly string[]): Promise<void> {
    if (productIds.length) await this.model.deleteMany({ shop, product_id: { $in: productIds } });
  }

  /**
   * The snapshot's product index: the products whose type or a tag the shop's
   * conditions name, each with only the named type and tags (docs/rates.md).
   */
  async indexFor(shop: string, named: NamedProductTexts): Promise<Record<string, ProductFacts>> {
    const types = [...named.types];
    const tags = [...named.tags];
    if (types.length === 0 && tags.length === 0) return {};
    const docs = await this.model
      .find(
        {
          shop,
          $or: [
            ...(types.length ? [{ type_key: { $in: types } }] : []),
            ...(tags.length ? [{ tag_keys: { $in: tags } }] : []),
          ],
        },
        { product_id: 1, product_type: 1, tags: 1, type_key: 1, tag_keys: 1, _id: 0 },
      )
      .lean();
    const index: Record<string, ProductFacts> = {};
    for (const doc of docs) {
      index[doc.product_id] = {
        product_type: named.types.has(doc.type_key) ? doc.product_type : '',
        tags: doc.tags.filter((_, i) => named.tags.has(doc.tag_keys[i]!)),
      };
    }
    return index;
  }
}
