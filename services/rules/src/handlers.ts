import {
  filterFromJson,
  filterToJson,
  isLineId,
  LIMITS,
  productFactsSchema,
  settingsFromJson,
  settingsToJson,
  shopifyIdDigits,
  type rulesV1,
} from '@ratesmith/contracts';
import { AppError, type HandlersOf, type HeavyCallsPerShop } from '@ratesmith/kit';
import type { ProductFactInput } from './data/product-facts.repository';
import type { NewProductRule, ProductRuleRecord } from './data/product-rules.repository';
import type { RulesetRecord, RulesetSummary } from './data/rulesets.repository';
import type { FilterVersionKind, VersionRecord } from './data/version-history.repository';
import type { ConfigTransfer } from './domain/config-transfer';
import type { RulesApps } from './domain/apps';
import type { SnapshotPublisher } from './snapshots/publisher';

/** `handler` run in one of its shop's heavy-call slots (services/kit/src/heavy-calls.ts). */
function inHeavySlot<R extends { shop: string }, A>(
  heavy: HeavyCallsPerShop,
  handler: (request: R) => Promise<A>,
): (request: R) => Promise<A> {
  return (request) => heavy.run(request.shop, () => handler(request));
}

/** NATS handlers: protobuf in, one use case on the domain's own types, protobuf out. */
export function createRulesHandlers(
  app: RulesApps,
  publisher: SnapshotPublisher,
  heavy: HeavyCallsPerShop,
): Omit<
  HandlersOf<typeof rulesV1.RulesService>,
  | 'setRateKey'
  | 'recordCheckoutOutcomes'
  | 'getCheckoutOutcomes'
  | 'getAnalytics'
  | 'getFilterAnalytics'
  | 'exportConfig'
  | 'importConfig'
  | 'listRecentCheckouts'
  | 'getRecentCheckout'
  | 'startShadow'
  | 'stopShadow'
  | 'getShadowReport'
  | 'goLive'
  | 'undoGoLive'
> {
  return {
    listRulesets: async ({ shop }) => {
      const { rulesets, globalRuleId } = await app.rulesets.list(shop);
      return {
        shop,
        globalRuleId: globalRuleId ?? '',
        rulesets: rulesets.map((r) => rulesetToProto(r, r.id === globalRuleId)),
      };
    },
    createRuleset: async ({ shop, name, requestKey }) => ({
      ruleset: rulesetToProto(await app.rulesets.create(shop, name, requestKey), false),
    }),
    toggleRuleset: async ({ shop, id, user }) => app.rulesets.toggle(shop, id, user),
    renameRuleset: async ({ shop, id, name, user }) => {
      const { ruleset, active } = await app.rulesets.rename(shop, id, name, user);
      return { ruleset: rulesetToProto(ruleset, active) };
    },
    deleteRuleset: async ({ shop, id }) => {
      await app.rulesets.delete(shop, id);
      return {};
    },
    duplicateRuleset: async ({ shop, id, requestKey }) => ({
      ruleset: rulesetToProto(await app.rulesets.duplicate(shop, id, requestKey), false),
    }),
    getRulesetFilters: async ({ shop, id }) => {
      const { ruleset, active } = await app.rulesets.get(shop, id);
      return {
        ruleset: rulesetToProto(ruleset, active),
        filters: ruleset.filters.map(filterFromJson),
      };
    },
    saveRulesetFilters: inHeavySlot(heavy, async ({ shop, id, filters, user }) => {
      const saved = await app.rulesets.saveFilters(shop, id, filters.map(filterToJson), user);
      return { filters: saved.filters.map(filterFromJson) };
    }),
    listVersions: async ({ shop, kind, id }) => ({
      versions: (await app.history.list(shop, filterVersionKind(kind), id)).map(versionToProto),
    }),
    getVersion: async ({ shop, kind, id, number }) => {
      const { version, previous } = await app.history.get(
        shop,
        filterVersionKind(kind),
        id,
        number,
      );
      return {
        version: versionToProto(version),
        filters: (version.content.filters ?? []).map(filterFromJson),
        previousNumber: previous?.number,
        previousFilters: (previous?.content.filters ?? []).map(filterFromJson),
      };
    },
    restoreVersion: inHeavySlot(heavy, async ({ shop, kind, id, number, user }) => {
      const { saved, version } = await app.history.restore(
        shop,
        filterVersionKind(kind),
        id,
        number,
        user,
      );
      return { filters: saved.filters.map(filterFromJson), number: version?.number };
    }),
    listActivity: async ({ shop }) => ({
      versions: (await app.history.activity(shop)).map(versionToProto),
    }),
    listProductRules: async ({ shop }) => ({
      productRules: (await app.productRules.list(shop)).map(productRuleToProto),
    }),
    addProductRules: async ({ shop, products }) => {
      const { added, skipped } = await app.productRules.add(shop, products.map(productFromProto));
      return { added: added.map(productRuleToProto), skipped };
    },
    putProductFacts: async ({ shop, products, removedProductIds, exportBatch, exportFinished }) => {
      if (!removedProductIds.every(isLineId))
        throw new AppError('invalid_data', 'Product ids must be decimal numbers.');
      await app.productFacts.put(shop, products.map(productFactFromProto), removedProductIds, {
        exportBatch,
        exportFinished,
      });
      return {};
    },
    toggleProductRule: async ({ shop, id }) => app.productRules.toggle(shop, id),
    deleteProductRule: async ({ shop, id }) => {
      await app.productRules.delete(shop, id);
      return {};
    },
    getProductRuleFilters: async ({ shop, id }) => {
      const rule = await app.productRules.get(shop, id);
      return { productRule: productRuleToProto(rule), filters: rule.filters.map(filterFromJson) };
    },
    saveProductRuleFilters: inHeavySlot(heavy, async ({ shop, id, filters, user }) => {
      const saved = await app.productRules.saveFilters(shop, id, filters.map(filterToJson), user);
      return { filters: saved.filters.map(filterFromJson) };
    }),
    getSettings: async ({ shop }) => ({ settings: settingsFromJson(await app.settings.get(shop)) }),
    saveSettings: async ({ shop, settings, user }) => {
      const saved = await app.settings.save(shop, settingsToJson(settings), user);
      return { settings: settingsFromJson(saved) };
    },
    rebuildSnapshots: async ({ shop }) => ({
      published: await publisher.rebuild(shop || undefined),
    }),
  };
}

/** Export and import of a shop's whole configuration. */
export function configHandlers(
  transfer: ConfigTransfer,
  heavy: HeavyCallsPerShop,
): Pick<HandlersOf<typeof rulesV1.RulesService>, 'exportConfig' | 'importConfig'> {
  return {
    exportConfig: inHeavySlot(heavy, async ({ shop }) => {
      const config = await transfer.exportConfig(shop);
      return {
        rulesets: config.rulesets.map((r) => ({ ...r, filters: r.filters.map(filterFromJson) })),
        productRules: config.productRules.map((rule) => ({
          productId: rule.productId,
          variantIds: rule.variantIds,
          enabled: rule.active,
          filters: rule.filters.map(filterFromJson),
        })),
        settings: settingsFromJson(config.settings),
      };
    }),
    importConfig: inHeavySlot(heavy, async ({ shop, rulesets, productRules, settings, dryRun }) => {
      const plan = await transfer.importConfig(
        shop,
        {
          rulesets: rulesets.map(({ name, enabled, filters }) => ({
            name,
            enabled,
            filters: filters.map(filterToJson),
          })),
          productRules: productRules.map((rule) => {
            if (!rule.product) throw new AppError('invalid_data', 'A product rule has no product.');
            return {
              product: productFromProto(rule.product),
              enabled: rule.enabled,
              filters: rule.filters.map(filterToJson),
            };
          }),
          settings: settingsToJson(settings),
        },
        dryRun,
      );
      return plan;
    }),
  };
}

function rulesetToProto(ruleset: RulesetRecord | RulesetSummary, active: boolean) {
  return {
    id: ruleset.id,
    name: ruleset.name,
    position: ruleset.position,
    filterCount: 'filters' in ruleset ? ruleset.filters.length : ruleset.filterCount,
    active,
    createdAt: ruleset.createdAt.toISOString(),
  };
}

/** The kinds whose versions are filter lists; anything else is a caller's mistake. */
function filterVersionKind(kind: string): FilterVersionKind {
  if (kind === 'ruleset' || kind === 'product_rule') return kind;
  throw new AppError('invalid_data', 'Unknown kind of versions.');
}

function versionToProto(version: VersionRecord) {
  return {
    kind: version.kind,
    subjectId: version.subjectId,
    subjectName: version.subjectName,
    number: version.number,
    at: version.at.toISOString(),
    user: version.user,
    event: version.event,
    summary: version.summary,
    checkout: version.checkout,
  };
}

function productRuleToProto(rule: ProductRuleRecord) {
  return {
    id: rule.id,
    productId: rule.productId,
    name: rule.name,
    image: rule.image,
    variants: rule.variants,
    variantIds: rule.variantIds,
    active: rule.active,
    filters: rule.filters.map(filterFromJson),
    createdAt: rule.createdAt.toISOString(),
  };
}

/** Shopify ids arrive as numbers or as gid://shopify/Product/123; rules store the number. */
export function productIdOf(raw: string): string | undefined {
  return shopifyIdDigits(raw, { resource: 'Product', trim: true });
}

function productFromProto(product: rulesV1.ProductToAdd): NewProductRule {
  const productId = productIdOf(product.productId);
  if (!productId)
    throw new AppError('invalid_data', 'One of the selected products has an unknown id.');
  const name = product.name.trim();
  if (!name || name.length > 255)
    throw new AppError('invalid_data', 'Every product needs a name of at most 255 characters.');
  if (product.image.length > 2048 || product.variants.length > LIMITS.variantsPerProduct) {
    throw new AppError('invalid_data', 'A selected product has too much data.');
  }
  // A rule limited to some variants names only variants of its product (the engine scopes by them).
  const known = new Set(product.variants.map((v) => v.id));
  if (product.variantIds.some((id) => !known.has(id)))
    throw new AppError('invalid_data', "A picked variant is not one of the product's.");
  return {
    productId,
    name,
    image: product.image,
    variants: product.variants.map((v) => ({
      id: v.id,
      title: v.title.slice(0, 255),
      price: v.price.slice(0, 32),
    })),
    variantIds: [...new Set(product.variantIds)],
  };
}

/** A product fact from the catalog, checked: the bus is not trusted with what reaches the snapshot. */
function productFactFromProto(fact: rulesV1.ProductFact): ProductFactInput {
  const checked = productFactsSchema.safeParse({
    product_type: fact.productType,
    tags: fact.tags,
  });
  const updatedAt = new Date(fact.updatedAt);
  if (!isLineId(fact.productId) || !checked.success || Number.isNaN(+updatedAt))
    throw new AppError('invalid_data', 'A product fact is not one Shopify would send.');
  return { productId: fact.productId, ...checked.data, updatedAt };
}
