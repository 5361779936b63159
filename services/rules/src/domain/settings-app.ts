import type { SnapshotSettings } from '@ratesmith/contracts';
import { AppError } from '@ratesmith/kit';
import type { SettingsRepository } from '../data/settings.repository';
import { patchSettings, type SnapshotPublisher } from '../snapshots/publisher';
import { validateSettings, type SettingsInput } from './settings';
import type { Versions } from './versions';

/** The Settings page's labels (frontend/src/pages/Settings.tsx), for a version's summary. */
const SETTINGS_LABELS: Record<keyof SnapshotSettings, string> = {
  carrier_name: 'carrier name',
  carrier_description: 'carrier description',
  bump_shipping_enabled: 'offer bump shipping',
  bump_shipping_name: 'bump shipping name',
  bump_shipping_description: 'bump shipping description',
  bump_shipping_action: 'bump shipping action',
  bump_shipping_cost: 'bump shipping cost',
  fallback_enabled: 'offer a fallback rate',
  fallback_name: 'fallback rate name',
  fallback_description: 'fallback rate description',
  fallback_cost: 'fallback rate amount',
  recent_checkouts_enabled: 'keep recent checkouts',
  recent_checkouts_per_minute: 'recent checkouts sampled a minute',
  recent_checkouts_days: 'recent checkouts days kept',
  timezone: 'time zone',
  business_days: 'business days',
  holidays: 'holidays',
  cutoff_time: 'order cutoff time',
  processing_days: 'processing days',
  delivery_min_days: 'regular rate delivery window',
  delivery_max_days: 'regular rate delivery window',
  bump_delivery_min_days: 'bump rate delivery window',
  bump_delivery_max_days: 'bump rate delivery window',
  upgrades: 'services',
};

/** The settings' fields that differ, named as the Settings page does (each name once). */
export function settingsChanges(before: SnapshotSettings, after: SnapshotSettings): string[] {
  const changed = (Object.keys(SETTINGS_LABELS) as (keyof SnapshotSettings)[])
    // Lists (business days, holidays, services) compare by content.
    .filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .map((key) => SETTINGS_LABELS[key]);
  return [...new Set(changed)];
}

/** The shop's settings: read, and saved with a new snapshot and a version. */
export class SettingsApp {
  constructor(
    private readonly deps: {
      settings: SettingsRepository;
      publisher: SnapshotPublisher;
      versions: Versions;
    },
  ) {}

  async get(shop: string): Promise<SnapshotSettings> {
    return (await this.deps.settings.get(shop)).settings;
  }

  async save(shop: string, input: SettingsInput, user: string): Promise<SnapshotSettings> {
    const { errors, settings } = validateSettings(input);
    if (errors.length)
      throw new AppError('invalid_data', 'Please fix the following errors:', errors);
    // The write answers the settings it replaced: no read before it.
    const before = await this.deps.publisher.change(
      shop,
      () => this.deps.settings.save(shop, settings),
      { patch: () => patchSettings(settings) },
    );
    const changed = settingsChanges(before, settings);
    if (changed.length) {
      this.deps.versions.keepLater(shop, () => ({
        kind: 'settings',
        subjectId: 'settings',
        subjectName: 'Settings',
        user,
        event: 'save',
        summary: `Changed ${changed.join(', ')}`,
        checkout: true,
        content: { settings },
      }));
    }
    return settings;
  }
}
