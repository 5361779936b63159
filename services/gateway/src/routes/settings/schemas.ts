import { z } from 'zod';
import {
  DEFAULT_SETTINGS,
  SETTINGS_MESSAGES,
  type SettingsField,
  type SettingsJson,
} from '@ratesmith/contracts';
import { booleanField, integerField, numberField } from '../../http/fields';
import type { SchemaAccepts } from '../../http/validate';

const text = z.string().max(1000).default('');

/** Checkboxes and selects may send strings; the rules service checks the values. */
const settingsFields = z.object({
  carrier_name: text,
  carrier_description: text,
  bump_shipping_enabled: booleanField,
  bump_shipping_name: text,
  bump_shipping_description: text,
  // 1, 2, or blank for "not chosen"; other numbers reach the rules service, which says what is allowed.
  bump_shipping_action: integerField(null),
  // Blank is kept apart from 0 here: bump shipping that is on needs a cost (below).
  bump_shipping_cost: numberField(null),
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

function blankCostIsZero<T extends { bump_shipping_cost: number | null }>(body: T) {
  return { ...body, bump_shipping_cost: body.bump_shipping_cost ?? 0 };
}

/**
 * The admin's settings. Bump shipping that is on needs its pricing chosen and
 * its cost typed: a bump rate without them offers checkout nothing, so the
 * Settings page refuses them (settingsFormProblems) and so does this route,
 * each at its field. Saved settings of other sources (a configuration file)
 * keep what they hold; the rules service checks everything else.
 */
export const saveSettingsBody = settingsFields
  .superRefine((body, ctx) => {
    const refuse = (field: SettingsField, message: string) =>
      ctx.addIssue({ code: 'custom', path: [field], message });
    if (!body.bump_shipping_enabled) return;
    if (body.bump_shipping_action === null)
      refuse('bump_shipping_action', SETTINGS_MESSAGES.bumpActionMissing);
    if (body.bump_shipping_cost === null)
      refuse('bump_shipping_cost', SETTINGS_MESSAGES.bumpCostMissing);
  })
  .transform(blankCostIsZero);

/** Settings as a configuration file holds them: blank is the default, 0 for a cost. */
export const settingsBody = settingsFields.transform(blankCostIsZero);

/** What the admin's Settings page sends passes the schema. */
export type AdminSettingsRequest = SchemaAccepts<typeof saveSettingsBody, SettingsJson>;
