import {
  deliverySettingsProblems,
  LIMITS,
  RECENT_CHECKOUT_BOUNDS,
  SETTINGS_MESSAGES,
  SETTINGS_TEXT_LABELS,
  textTooLong,
  type SettingsJson,
  type SnapshotSettings,
  type SnapshotUpgrade,
} from '@ratesmith/contracts';

const isWithin = (n: number, bounds: { min: number; max: number }) =>
  Number.isInteger(n) && n >= bounds.min && n <= bounds.max;

/** What a merchant may send: the rules below decide what is stored. */
export type SettingsInput = SettingsJson;

/** Every problem at once; settings are stored only when there is none. */
export function validateSettings(input: SettingsInput): {
  errors: string[];
  settings: SnapshotSettings;
} {
  const errors: string[] = [];
  const texts = {} as Record<keyof typeof SETTINGS_TEXT_LABELS, string>;
  // The messages are the Settings form's too (settings-fields.ts in the contracts): the gateway
  // answers each with its field.
  for (const key of Object.keys(SETTINGS_TEXT_LABELS) as (keyof typeof SETTINGS_TEXT_LABELS)[]) {
    texts[key] = input[key].trim();
    if (texts[key].length > LIMITS.shortText) errors.push(textTooLong(key));
  }
  const action = input.bump_shipping_action;
  if (action !== null && action !== 1 && action !== 2) {
    errors.push(SETTINGS_MESSAGES.bumpActionUnknown);
  }
  const cost = input.bump_shipping_cost;
  if (!Number.isFinite(cost) || cost < 0 || cost > LIMITS.maxAmount) {
    errors.push(SETTINGS_MESSAGES.bumpCostRange);
  }
  if (input.bump_shipping_enabled && !texts.bump_shipping_name) {
    errors.push(SETTINGS_MESSAGES.bumpName);
  }
  const fallbackCost = input.fallback_cost;
  if (!Number.isFinite(fallbackCost) || fallbackCost < 0 || fallbackCost > LIMITS.maxAmount) {
    errors.push(SETTINGS_MESSAGES.fallbackCostRange);
  }
  if (input.fallback_enabled && !texts.fallback_name) {
    errors.push(SETTINGS_MESSAGES.fallbackName);
  }
  const { perMinute, days } = RECENT_CHECKOUT_BOUNDS;
  const recentPerMinute = input.recent_checkouts_per_minute;
  if (!isWithin(recentPerMinute, perMinute)) {
    errors.push(SETTINGS_MESSAGES.recentPerMinute);
  }
  const recentDays = input.recent_checkouts_days;
  if (!isWithin(recentDays, days)) {
    errors.push(SETTINGS_MESSAGES.recentDays);
  }
  // The calendar, the windows and the upgrades: the checks the rate engine and the page run too.
  const delivery = {
    timezone: input.timezone,
    business_days: input.business_days,
    // Kept in date order, as the page lists them.
    holidays: [...input.holidays].sort(),
    cutoff_time: input.cutoff_time,
    processing_days: input.processing_days,
    delivery_min_days: input.delivery_min_days,
    delivery_max_days: input.delivery_max_days,
    bump_delivery_min_days: input.bump_delivery_min_days,
    bump_delivery_max_days: input.bump_delivery_max_days,
    upgrades: input.upgrades.map((upgrade) => ({
      ...upgrade,
      name: upgrade.name.trim(),
      description: upgrade.description.trim(),
    })) as SnapshotUpgrade[],
  };
  errors.push(...deliverySettingsProblems(delivery));
  return {
    errors,
    settings: {
      ...delivery,
      ...texts,
      bump_shipping_enabled: input.bump_shipping_enabled,
      bump_shipping_action: action === 1 || action === 2 ? action : null,
      bump_shipping_cost: Number.isFinite(cost) ? cost : 0,
      fallback_enabled: input.fallback_enabled,
      fallback_cost: Number.isFinite(fallbackCost) ? fallbackCost : 0,
      recent_checkouts_enabled: input.recent_checkouts_enabled,
      recent_checkouts_per_minute: recentPerMinute,
      recent_checkouts_days: recentDays,
    },
  };
}
