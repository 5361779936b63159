import type { MessageInitShape } from '@bufbuild/protobuf';
import type { Settings, SettingsSchema } from './gen/ratesmith/rules/v1/rules_pb';
import { DEFAULT_SETTINGS } from './snapshot';

/**
 * A shop's settings as the original app's JSON (the admin's form, the
 * rules service's domain, the snapshot) and as the protobuf message between
 * the gateway and the rules service: the only translation between them.
 * `bump_shipping_action` is 1, 2 or null (not chosen); other numbers travel
 * so the rules service can say what is allowed.
 */
export interface SettingsJson {
  carrier_name: string;
  carrier_description: string;
  bump_shipping_enabled: boolean;
  bump_shipping_name: string;
  bump_shipping_description: string;
  bump_shipping_action: number | null;
  bump_shipping_cost: number;
  fallback_enabled: boolean;
  fallback_name: string;
  fallback_description: string;
  fallback_cost: number;
  recent_checkouts_enabled: boolean;
  recent_checkouts_per_minute: number;
  recent_checkouts_days: number;
  /** The delivery calendar (delivery/calendar.ts), as the snapshot holds it. */
  timezone: string;
  business_days: number[];
  holidays: string[];
  cutoff_time: string | null;
  processing_days: number;
  delivery_min_days: number | null;
  delivery_max_days: number | null;
  bump_delivery_min_days: number | null;
  bump_delivery_max_days: number | null;
  /** `action` is 1 or 2; other numbers travel so the rules service can say what is allowed. */
  upgrades: UpgradeJson[];
}

export interface UpgradeJson {
  name: string;
  description: string;
  action: number;
  cost: number;
  delivery_min_days: number | null;
  delivery_max_days: number | null;
}

/** Missing fields read as a shop that never saved its settings. */
export function settingsToJson(settings: Settings | undefined): SettingsJson {
  return {
    carrier_name: settings?.carrierName ?? '',
    carrier_description: settings?.carrierDescription ?? '',
    bump_shipping_enabled: settings?.bumpShippingEnabled ?? false,
    bump_shipping_name: settings?.bumpShippingName ?? '',
    bump_shipping_description: settings?.bumpShippingDescription ?? '',
    bump_shipping_action: settings?.bumpShippingAction ?? null,
    bump_shipping_cost: settings?.bumpShippingCost ?? 0,
    fallback_enabled: settings?.fallbackEnabled ?? false,
    fallback_name: settings?.fallbackName ?? '',
    fallback_description: settings?.fallbackDescription ?? '',
    fallback_cost: settings?.fallbackCost ?? 0,
    recent_checkouts_enabled:
      settings?.recentCheckoutsEnabled ?? DEFAULT_SETTINGS.recent_checkouts_enabled,
    recent_checkouts_per_minute:
      settings?.recentCheckoutsPerMinute ?? DEFAULT_SETTINGS.recent_checkouts_per_minute,
    recent_checkouts_days: settings?.recentCheckoutsDays ?? DEFAULT_SETTINGS.recent_checkouts_days,
    timezone: settings?.timezone ?? DEFAULT_SETTINGS.timezone,
    business_days: settings?.businessDays
      ? [...settings.businessDays.days]
      : [...DEFAULT_SETTINGS.business_days],
    holidays: [...(settings?.holidays ?? [])],
    cutoff_time: settings?.cutoffTime ?? null,
    processing_days: settings?.processingDays ?? DEFAULT_SETTINGS.processing_days,
    delivery_min_days: settings?.deliveryMinDays ?? null,
    delivery_max_days: settings?.deliveryMaxDays ?? null,
    bump_delivery_min_days: settings?.bumpDeliveryMinDays ?? null,
    bump_delivery_max_days: settings?.bumpDeliveryMaxDays ?? null,
    upgrades: (settings?.upgrades ?? []).map((upgrade) => ({
      name: upgrade.name,
      description: upgrade.description,
      action: upgrade.action,
      cost: upgrade.cost,
      delivery_min_days: upgrade.deliveryMinDays ?? null,
      delivery_max_days: upgrade.deliveryMaxDays ?? null,
    })),
  };
}

export function settingsFromJson(settings: SettingsJson): MessageInitShape<typeof SettingsSchema> {
  return {
    carrierName: settings.carrier_name,
    carrierDescription: settings.carrier_description,
    bumpShippingEnabled: settings.bump_shipping_enabled,
    bumpShippingName: settings.bump_shipping_name,
    bumpShippingDescription: settings.bump_shipping_description,
    bumpShippingAction: settings.bump_shipping_action ?? undefined,
    bumpShippingCost: settings.bump_shipping_cost,
    fallbackEnabled: settings.fallback_enabled,
    fallbackName: settings.fallback_name,
    fallbackDescription: settings.fallback_description,
    fallbackCost: settings.fallback_cost,
    recentCheckoutsEnabled: settings.recent_checkouts_enabled,
    recentCheckoutsPerMinute: settings.recent_checkouts_per_minute,
    recentCheckoutsDays: settings.recent_checkouts_days,
    timezone: settings.timezone,
    businessDays: { days: settings.business_days },
    holidays: settings.holidays,
    cutoffTime: settings.cutoff_time ?? undefined,
    processingDays: settings.processing_days,
    deliveryMinDays: settings.delivery_min_days ?? undefined,
    deliveryMaxDays: settings.delivery_max_days ?? undefined,
    bumpDeliveryMinDays: settings.bump_delivery_min_days ?? undefined,
    bumpDeliveryMaxDays: settings.bump_delivery_max_days ?? undefined,
    upgrades: settings.upgrades.map((upgrade) => ({
      name: upgrade.name,
      description: upgrade.description,
      action: upgrade.action,
      cost: upgrade.cost,
      deliveryMinDays: upgrade.delivery_min_days ?? undefined,
      deliveryMaxDays: upgrade.delivery_max_days ?? undefined,
    })),
  };
}
