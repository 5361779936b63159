import { LIMITS, type FilterInput } from '@ratesmith/contracts';
import { AppError } from '@ratesmith/kit';
import type {
  NewProductRule,
  ProductRuleRecord,
  ProductRulesRepository,
} from '../data/product-rules.repository';
import type { ShopLeasesRepository } from '../data/shop-leases.repository';
import {
  patchProductRule,
  snapshotProductRule,
  type SnapshotPublisher,
} from '../snapshots/publisher';
import { CONCURRENT_CHANGE } from './concurrent-change';
import { saveFilterList, type FilterListOwner } from './filter-list';
import { underShopLease } from './shop-lease';
import type { Versions } from './versions';

export const PRODUCT_RULE_NOT_FOUND = 'Product rule not found.';

interface ProductRulesDeps {
  productRules: ProductRulesRepository;
  leases: ShopLeasesRepository;
  publisher: SnapshotPublisher;
  versions: Versions;
}

/**
 * A product rule as the owner of a filter list: the snapshot carries every
 * product rule, on or off, so each save publishes; a version says checkout
 * used it when the rule is on.
 */
export function productRuleOwner(
  deps: Pick<ProductRulesDeps, 'productRules' | 'publisher'>,
): FilterListOwner<ProductRuleRecord> {
  return {
    kind: 'product_rule',
    scope: 'product',
    notFound: PRODUCT_RULE_NOT_FOUND,
    async read(shop, id) {
      const record = await deps.productRules.get(shop, id);
      return record ? { record, checkout: record.active } : null;
    },
    replace(shop, record, filters) {
      return deps.publisher.change(
        shop,
        async () => {
          const saved = await deps.productRules.replaceFilters(record, filters);
          if (!saved) throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
          return saved;
        },
        { patch: (saved) => patchProductRule(record.id, () => snapshotProductRule(saved)) },
      );
    },
  };
}

/** The product rules' use cases, scoped to one shop; each change publishes the snapshot. */
export class ProductRulesApp {
  private readonly owner: FilterListOwner<ProductRuleRecord>;

  constructor(private readonly deps: ProductRulesDeps) {
    this.owner = productRuleOwner(deps);
  }

  list(shop: string): Promise<ProductRuleRecord[]> {
    return this.deps.productRules.list(shop);
  }

  async add(
    shop: string,
    products: NewProductRule[],
  ): Promise<{ added: ProductRuleRecord[]; skipped: string[] }> {
    if (products.length === 0)
      throw new AppError('invalid_data', 'Please select at least one product.');
    if (products.length > LIMITS.productsPerAdd) {
      throw new AppError(
        'invalid_data',
        `At most ${LIMITS.productsPerAdd} products can be added at once.`,
      );
    }
    const picked = [...new Set(products.map((p) => p.productId))];
    return underShopLease(this.deps.leases, shop, async () => {
      const others = await this.deps.productRules.countOthers(shop, picked);
      if (others + picked.length > LIMITS.productRulesPerShop) {
        const room = Math.max(0, LIMITS.productRulesPerShop - others);
        throw new AppError(
          'invalid_data',
          `A shop can have at most ${LIMITS.productRulesPerShop} product rules: ` +
            (room ? `at most ${room} more can be added.` : 'delete one you no longer use first.'),
        );
      }
      const added: ProductRuleRecord[] = [];
      const skipped: string[] = [];
      return this.deps.publisher.change(shop, async () => {
        for (const product of products) {
          const result = await this.deps.productRules.add(shop, product);
          if (result === 'exists') skipped.push(product.productId);
          else added.push(result);
        }
        return { added, skipped };
      });
    });
  }

  async toggle(shop: string, id: string): Promise<{ active: boolean }> {
    const { productRules, publisher } = this.deps;
    let rule = await productRules.get(shop, id);
    if (!rule) throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    return publisher.change(
      shop,
      async () => {
        // The first attempt flips the state read above; a lost one reads it again, up to 5 times.
        for (let attempt = 0; attempt <= 5; attempt++) {
          if (attempt > 0) rule = await productRules.get(shop, id);
          if (!rule) throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
          if (await productRules.setActiveIf(shop, id, rule.active, !rule.active))
            return { active: !rule.active };
        }
        throw new AppError('conflict', CONCURRENT_CHANGE);
      },
      { patch: ({ active }) => patchProductRule(id, (entry) => ({ ...entry, active })) },
    );
  }

  async get(shop: string, id: string): Promise<ProductRuleRecord> {
    const found = await this.owner.read(shop, id);
    if (!found) throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    return found.record;
  }

  /** Save All: the one save of a filter list (filter-list.ts), at product scope (at most 50 filters). */
  async saveFilters(
    shop: string,
    id: string,
    inputs: FilterInput[],
    user: string,
  ): Promise<ProductRuleRecord> {
    const request = { shop, id, inputs, user };
    return (await saveFilterList(this.owner, this.deps.versions, request)).saved;
  }

  async delete(shop: string, id: string): Promise<void> {
    const { productRules, publisher, versions } = this.deps;
    if (!(await productRules.get(shop, id)))
      throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    await publisher.change(shop, async () => {
      if (!(await productRules.delete(shop, id)))
        throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    });
    await versions.forget(shop, 'product_rule', id);
  }
}
