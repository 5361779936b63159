import { z } from 'zod';
import { DEFAULT_SETTINGS, type SettingsJson } from '@ratesmith/contracts';
import { booleanField, integerField, numberField } from '../../http/fields';
import type { SchemaAccepts } from '../../http/validate';

const text = z.string().max(1000).default('');

/** Checkboxes and selects may send strings; the rules service checks the values. */
export const saveSettingsBody = z.object({
  carrier_name: text,
  carrier_description: text,
  bump_shipping_enabled: booleanField,
  bump_shipping_name: text,
  bump_shipping_description: text,
  // 1, 2, or blank for "not chosen"; other numbers reach the rules service, which says what is allowed.
  bump_shipping_action: integerField(null),
  bump_shipping_cost: numberField(0),
  fallback_enabled: booleanField,
  fallback_name: text,
  fallback_description: text,
  fallback_cost: numberField(0),
  // Recent checkouts: a body without them keeps the defaults (on, 6 a minute, 14 days), not "off".
  recent_checkouts_enabled: z.preprocess(
    (v) => (v === undefined ? DEFAULT_SETTINGS.recent_checkouts_enabled : v),
    booleanField,
  ),
  recent_checkouts_per_minute: integerField(DEFAULT_SETTINGS.recent_checkouts_per_minute),
  recent_checkouts_days: integerField(DEFAULT_SETTINGS.recent_checkouts_days),
  // The delivery calendar, windows and services (docs/rates.md). A body without them
  // keeps the defaults; the rules service checks the values (calendarProblems,
  // windowProblems, upgradeProblems), these bounds only keep a body small.
  timezone: z.string().max(64).default(DEFAULT_SETTINGS.timezone),
  business_days: z
    .array(integerField(0))
    .max(7, { error: 'can list each of the 7 weekdays at most once' })
    .default(() => [...DEFAULT_SETTINGS.business_days]),
  holidays: z
    .array(z.string().max(32))
    .max(1000)
    .default(() => []),
  // Blank is "no cutoff".
  cutoff_time: z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z.string().max(16).nullable(),
  ),
  processing_days: integerField(DEFAULT_SETTINGS.processing_days),
  delivery_min_days: integerField(null),
  delivery_max_days: integerField(null),
  bump_delivery_min_days: integerField(null),
  bump_delivery_max_days: integerField(null),
  upgrades: z
    .array(
      z.object({
        name: text,
        description: text,
        // 1 or 2; other numbers reach the rules service, which says what is allowed.
        action: integerField(0),
        cost: numberField(0),
        delivery_min_days: integerField(null),
        delivery_max_days: integerField(null),
      }),
    )
    .max(10)
    .default(() => []),
});

/** What the admin's Settings page sends passes the schema. */
export type AdminSettingsRequest = SchemaAccepts<typeof saveSettingsBody, SettingsJson>;
