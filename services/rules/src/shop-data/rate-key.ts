import { RATE_KEY, type rulesV1 } from '@ratesmith/contracts';
import { AppError, retryOnDuplicateKey, type HandlersOf } from '@ratesmith/kit';
import type { SettingsRepository } from '../data/settings.repository';
import type { SnapshotPublisher } from '../snapshots/publisher';

/**
 * The carrier-callback key of a shop, set by the auth service after install
 * (and cleared at uninstall), stored on the shop-settings document and put
 * in the shop's snapshot so the rate engine can map a callback to its shop.
 */
export function rateKeyHandlers(deps: {
  settings: SettingsRepository;
  publisher: SnapshotPublisher;
}): Pick<HandlersOf<typeof rulesV1.RulesService>, 'setRateKey'> {
  return {
    setRateKey: async ({ shop, rateKey }) => {
      if (rateKey && !RATE_KEY.test(rateKey))
        throw new AppError('invalid_data', 'The rate key is not valid.');
      const value = rateKey || null;
      const result = await retryOnDuplicateKey(() =>
        deps.settings.model.updateOne(
          { shop },
          { $set: { rate_key: value } },
          { upsert: value !== null },
        ),
      );
      if (result.modifiedCount > 0 || result.upsertedCount > 0) await deps.publisher.publish(shop);
      return {};
    },
  };
}
