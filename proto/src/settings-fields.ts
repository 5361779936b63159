import { LIMITS } from './filters/limits';
import type { SettingsJson } from './settings-json';

/**
 * The settings' problems that belong to one field of the Settings form, each
 * message written once: the rules service refuses with them
 * (`validateSettings`), the gateway answers each with its field
 * (`settingsFieldOf`, a 400's `fields`), and the admin checks them before it
 * saves (`settingsFormProblems`), so the page shows every one at its field.
 */

/** A field of the settings' JSON (the form's and the 400's `fields` keys). */
export type SettingsField = keyof SettingsJson;

const thousands = (n: number) => n.toLocaleString('en-US');

/** The bounds of the Recent checkouts settings (the rules service refuses others; the Settings page shows them). */
export const RECENT_CHECKOUT_BOUNDS = {
  perMinute: { min: 1, max: 30 },
  days: { min: 1, max: 14 },
} as const;

/** The texts of a rate (the carrier's, bump shipping's, the fallback's), by field. */
export const SETTINGS_TEXT_LABELS = {
  carrier_name: 'Carrier name',
  carrier_description: 'Carrier description',
  bump_shipping_name: 'Bump shipping name',
  bump_shipping_description: 'Bump shipping description',
  fallback_name: 'Fallback rate name',
  fallback_description: 'Fallback rate description',
} as const satisfies Partial<Record<SettingsField, string>>;

const { perMinute, days } = RECENT_CHECKOUT_BOUNDS;

/** Each message says what to type or choose. */
export const SETTINGS_MESSAGES = {
  bumpName: 'Bump shipping needs a name when it is enabled.',
  bumpActionMissing: 'Choose how bump shipping is priced: a percent or a static fee on top.',
  bumpActionUnknown: 'Bump shipping type must be a percent, a static fee, or not chosen.',
  bumpCostMissing:
    'Enter the bump shipping cost: a number such as 15 (a percent) or 4.99 (a fee), 0 for none.',
  bumpCostRange: `Bump shipping cost must be a number from 0 to ${thousands(LIMITS.maxAmount)}.`,
  fallbackName: 'The fallback rate needs a name when it is enabled.',
  fallbackCostRange: `The fallback rate's amount must be a number from 0 to ${thousands(LIMITS.maxAmount)}.`,
  recentPerMinute: `Recent checkouts can sample ${perMinute.min} to ${perMinute.max} checkouts a minute.`,
  recentDays: `Recent checkouts can be kept for ${days.min} to ${days.max} days.`,
} as const;

/** "Carrier name must be at most 160 characters." */
export const textTooLong = (field: keyof typeof SETTINGS_TEXT_LABELS): string =>
  `${SETTINGS_TEXT_LABELS[field]} must be at most ${LIMITS.shortText} characters.`;

const FIELD_OF_MESSAGE = new Map<string, SettingsField>([
  [SETTINGS_MESSAGES.bumpName, 'bump_shipping_name'],
  [SETTINGS_MESSAGES.bumpActionMissing, 'bump_shipping_action'],
  [SETTINGS_MESSAGES.bumpActionUnknown, 'bump_shipping_action'],
  [SETTINGS_MESSAGES.bumpCostMissing, 'bump_shipping_cost'],
  [SETTINGS_MESSAGES.bumpCostRange, 'bump_shipping_cost'],
  [SETTINGS_MESSAGES.fallbackName, 'fallback_name'],
  [SETTINGS_MESSAGES.fallbackCostRange, 'fallback_cost'],
  [SETTINGS_MESSAGES.recentPerMinute, 'recent_checkouts_per_minute'],
  [SETTINGS_MESSAGES.recentDays, 'recent_checkouts_days'],
  ...(Object.keys(SETTINGS_TEXT_LABELS) as (keyof typeof SETTINGS_TEXT_LABELS)[]).map(
    (field) => [textTooLong(field), field] as const,
  ),
]);

/** The field a settings message is about; undefined for one of the whole settings (the delivery calendar's). */
export function settingsFieldOf(message: string): SettingsField | undefined {
  return FIELD_OF_MESSAGE.get(message);
}

/**
 * What the Settings form sends, before the gateway fills its blanks: an
 * amount may be null (left blank), which bump shipping's cost may not be
 * while bump shipping is on.
 */
export type SettingsFormValues = Pick<
  SettingsJson,
  | keyof typeof SETTINGS_TEXT_LABELS
  | 'bump_shipping_enabled'
  | 'bump_shipping_action'
  | 'fallback_enabled'
  | 'recent_checkouts_enabled'
> & {
  bump_shipping_cost: number | null;
  fallback_cost: number | null;
  recent_checkouts_per_minute: number | null;
  recent_checkouts_days: number | null;
};

const isAmount = (n: number | null) =>
  n === null || (Number.isFinite(n) && n >= 0 && n <= LIMITS.maxAmount);
const isWithin = (n: number | null, bounds: { min: number; max: number }) =>
  n === null || (Number.isInteger(n) && n >= bounds.min && n <= bounds.max);

/**
 * The problems of the form's fields, the first of each field, in the form's
 * order. Bump shipping that is on needs its pricing chosen and its cost typed
 * (a bump rate without them offers nothing); blank counts are the defaults.
 */
export function settingsFormProblems(
  values: SettingsFormValues,
): Partial<Record<SettingsField, string>> {
  const problems: Partial<Record<SettingsField, string>> = {};
  const add = (field: SettingsField, message: string) => {
    problems[field] ??= message;
  };
  for (const field of Object.keys(SETTINGS_TEXT_LABELS) as (keyof typeof SETTINGS_TEXT_LABELS)[]) {
    if (values[field].trim().length > LIMITS.shortText) add(field, textTooLong(field));
  }
  const bumpOn = values.bump_shipping_enabled;
  if (bumpOn && !values.bump_shipping_name.trim())
    add('bump_shipping_name', SETTINGS_MESSAGES.bumpName);
  const action = values.bump_shipping_action;
  if (action !== null && action !== 1 && action !== 2)
    add('bump_shipping_action', SETTINGS_MESSAGES.bumpActionUnknown);
  if (bumpOn && action === null) add('bump_shipping_action', SETTINGS_MESSAGES.bumpActionMissing);
  if (!isAmount(values.bump_shipping_cost))
    add('bump_shipping_cost', SETTINGS_MESSAGES.bumpCostRange);
  if (bumpOn && values.bump_shipping_cost === null)
    add('bump_shipping_cost', SETTINGS_MESSAGES.bumpCostMissing);
  if (values.fallback_enabled && !values.fallback_name.trim())
    add('fallback_name', SETTINGS_MESSAGES.fallbackName);
  if (!isAmount(values.fallback_cost)) add('fallback_cost', SETTINGS_MESSAGES.fallbackCostRange);
  if (!isWithin(values.recent_checkouts_per_minute, perMinute))
    add('recent_checkouts_per_minute', SETTINGS_MESSAGES.recentPerMinute);
  if (!isWithin(values.recent_checkouts_days, days))
    add('recent_checkouts_days', SETTINGS_MESSAGES.recentDays);
  return problems;
}
