import type { Logger } from '@ratesmith/kit';
import type { ProductFactsRepository } from '../data/product-facts.repository';
import type { ProductRulesRepository } from '../data/product-rules.repository';
import type { RequestKeysRepository } from '../data/request-keys.repository';
import type { RulesetsRepository } from '../data/rulesets.repository';
import type { SettingsRepository } from '../data/settings.repository';
import type { ShopLeasesRepository } from '../data/shop-leases.repository';
import type { VersionHistoryRepository } from '../data/version-history.repository';
import type { SnapshotPublisher } from '../snapshots/publisher';
import { HistoryApp } from './history-app';
import { ProductFactsApp } from './product-facts-app';
import type { ProductExportTrigger } from './product-export-trigger';
import { ProductRulesApp, productRuleOwner } from './product-rules-app';
import { RulesetsApp, rulesetOwner } from './rulesets-app';
import { SettingsApp } from './settings-app';
import { Versions } from './versions';

/**
 * The rules service's use cases, one class a subject, sharing the shop's
 * version history. Every call is scoped to one shop, the one the gateway took
 * from a verified session token.
 */
export function createRulesApps(deps: {
  rulesets: RulesetsRepository;
  productRules: ProductRulesRepository;
  productFacts: ProductFactsRepository;
  settings: SettingsRepository;
  history: VersionHistoryRepository;
  leases: ShopLeasesRepository;
  requestKeys: RequestKeysRepository;
  publisher: SnapshotPublisher;
  exportTrigger?: ProductExportTrigger;
  logger: Logger;
  /** How long a shop keeps no new version before its old ones are deleted. */
  pruneWhenQuietMs: number;
}) {
  const versions = new Versions(deps);
  return {
    versions,
    rulesets: new RulesetsApp({ ...deps, versions }),
    productRules: new ProductRulesApp({ ...deps, versions }),
    settings: new SettingsApp({ ...deps, versions }),
    productFacts: new ProductFactsApp(deps),
    history: new HistoryApp({
      versions,
      owners: { ruleset: rulesetOwner(deps), product_rule: productRuleOwner(deps) },
    }),
  };
}

export type RulesApps = ReturnType<typeof createRulesApps>;
