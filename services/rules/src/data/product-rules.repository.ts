import type { SnapshotFilter } from '@ratesmith/contracts';
import { isDuplicateKey, retryOnDuplicateKey } from '@ratesmith/kit';
import { Schema, type Connection } from 'mongoose';
import {
  packedFilterFields,
  packFilters,
  storedFilters,
  type PackedFilterDoc,
} from './packed-values';
import { FilterListOwnersRepository } from './filter-list-owners.repository';

export interface VariantRecord {
  id: string;
  title: string;
  price: string;
}

export interface ProductRuleRecord {
  id: string;
  productId: string;
  name: string;
  image: string;
  variants: VariantRecord[];
  variantIds: string[];
  active: boolean;
  filters: SnapshotFilter[];
  createdAt: Date;
}

interface ProductRuleDoc extends PackedFilterDoc {
  shop: string;
  product_id: string;
  name: string;
  image: string;
  variants: VariantRecord[];
  variant_ids: string[];
  active: boolean;
  createdAt: Date;
}

const variantSchema = new Schema<VariantRecord>(
  { id: String, title: String, price: String },
  { _id: false },
);

const productRuleSchema = new Schema<ProductRuleDoc>(
  {
    shop: { type: String, required: true },
    product_id: { type: String, required: true },
    name: { type: String, required: true },
    image: { type: String, default: '' },
    variants: { type: [variantSchema], default: [] },
    variant_ids: { type: [String], default: [] },
    active: { type: Boolean, default: true },
    ...packedFilterFields,
  },
  { collection: 'product_rules', timestamps: true, minimize: false },
);
// One product rule per product per shop.
productRuleSchema.index({ shop: 1, product_id: 1 }, { unique: true });

function toRecord(doc: ProductRuleDoc & { _id: unknown }): ProductRuleRecord {
  return {
    id: String(doc._id),
    productId: doc.product_id,
    name: doc.name,
    image: doc.image,
    variants: (doc.variants ?? []).map((v) => ({ id: v.id, title: v.title, price: v.price })),
    variantIds: doc.variant_ids ?? [],
    active: doc.active,
    filters: storedFilters(doc),
    createdAt: doc.createdAt,
  };
}

export type NewProductRule = Pick<
  ProductRuleRecord,
  'productId' | 'name' | 'image' | 'variants' | 'variantIds'
>;

export class ProductRulesRepository extends FilterListOwnersRepository<
  ProductRuleDoc,
  ProductRuleRecord
> {
  constructor(conn: Connection) {
    super(conn.model<ProductRuleDoc>('ProductRule', productRuleSchema), toRecord);
  }

  /** In the order they were added, which is the order the rate engine runs them. */
  async list(shop: string): Promise<ProductRuleRecord[]> {
    const docs = await this.model.find({ shop }).sort({ createdAt: 1, _id: 1 }).lean();
    return docs.map(toRecord);
  }

  /** The shop's product rules of products other than these. */
  async countOthers(shop: string, productIds: string[]): Promise<number> {
    return this.model.countDocuments({ shop, product_id: { $nin: productIds } });
  }

  /** Creates the rule, or answers 'exists' when the product already has one (unique index). */
  async add(shop: string, product: NewProductRule): Promise<ProductRuleRecord | 'exists'> {
    try {
      const doc = await this.model.create({
        shop,
        product_id: product.productId,
        name: product.name,
        image: product.image,
        variants: product.variants,
        variant_ids: product.variantIds,
        // Every rule holds its list, empty at first: one shape for every document.
        filters_packed: packFilters([]),
      });
      return toRecord(doc.toObject());
    } catch (err) {
      if (isDuplicateKey(err)) return 'exists';
      throw err;
    }
  }

  /**
   * The product's rule as given, in one write: created, or the existing one's
   * product data, state and filters replaced (an import; its id stays).
   */
  async put(
    shop: string,
    rule: NewProductRule & Pick<ProductRuleRecord, 'active' | 'filters'>,
  ): Promise<void> {
    await retryOnDuplicateKey(() =>
      this.model.updateOne(
        { shop, product_id: rule.productId },
        {
          $set: {
            name: rule.name,
            image: rule.image,
            variants: rule.variants,
            variant_ids: rule.variantIds,
            active: rule.active,
            filters_packed: packFilters(rule.filters),
          },
          $unset: { filters: '' },
        },
        { upsert: true },
      ),
    );
  }

  async deleteByProduct(shop: string, productId: string): Promise<void> {
    await this.model.deleteOne({ shop, product_id: productId });
  }

  /** Compare-and-set, so a toggle never writes over a concurrent one. */
  async setActiveIf(shop: string, id: string, expected: boolean, next: boolean): Promise<boolean> {
    const result = await this.model.updateOne(
      { _id: id, shop, active: expected },
      { $set: { active: next } },
    );
    return result.modifiedCount === 1;
  }
}
