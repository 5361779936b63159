import type { Connection } from '@ratesmith/kit';
import { OutcomeDaysRepository, SampleCartsRepository } from './checkout-outcomes.repository';
import { RecentCheckoutsRepository } from './recent-checkouts.repository';
import { RequestKeysRepository } from './request-keys.repository';
import { ProductFactsRepository } from './product-facts.repository';
import { ProductRulesRepository } from './product-rules.repository';
import { RulesetsRepository } from './rulesets.repository';
import { SettingsRepository } from './settings.repository';
import { ShadowCheckoutsRepository } from './shadow-checkouts.repository';
import { ShopLeasesRepository } from './shop-leases.repository';
import { SnapshotVersionsRepository } from './snapshot-versions.repository';
import { VersionHistoryRepository } from './version-history.repository';

/** Every store of the rules service, on one connection. */
export function createRepositories(conn: Connection) {
  return {
    rulesets: new RulesetsRepository(conn),
    productRules: new ProductRulesRepository(conn),
    productFacts: new ProductFactsRepository(conn),
    settings: new SettingsRepository(conn),
    versions: new SnapshotVersionsRepository(conn),
    outcomeDays: new OutcomeDaysRepository(conn),
    sampleCarts: new SampleCartsRepository(conn),
    history: new VersionHistoryRepository(conn),
    recentCheckouts: new RecentCheckoutsRepository(conn),
    shadowCheckouts: new ShadowCheckoutsRepository(conn),
    leases: new ShopLeasesRepository(conn),
    requestKeys: new RequestKeysRepository(conn),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
