import { RATE_KEY, type rulesV1 } from '@ratesmith/contracts';
import { AppError, type HandlersOf } from '@ratesmith/kit';
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
      await deps.publisher.change(shop, () => deps.settings.setRateKey(shop, rateKey || null));
      return {};
    },
  };
}
