import {
  SETTINGS_MESSAGES,
  SETTINGS_TEXT_LABELS,
  settingsFieldOf,
  settingsFormProblems,
  textTooLong,
  type SettingsFormValues,
} from './settings-fields';

const form = (overrides: Partial<SettingsFormValues> = {}): SettingsFormValues => ({
  carrier_name: 'Ratesmith',
  carrier_description: '',
  bump_shipping_enabled: false,
  bump_shipping_name: '',
  bump_shipping_description: '',
  bump_shipping_action: null,
  bump_shipping_cost: null,
  fallback_enabled: false,
  fallback_name: '',
  fallback_description: '',
  fallback_cost: 0,
  recent_checkouts_enabled: true,
  recent_checkouts_per_minute: 6,
  recent_checkouts_days: 14,
  ...overrides,
});

describe('settingsFormProblems', () => {
  it('has none for the defaults, bump shipping off with nothing chosen', () => {
    expect(settingsFormProblems(form())).toEqual({});
  });

  it('refuses bump shipping that is on without a name, a pricing or a cost, each at its field', () => {
    expect(settingsFormProblems(form({ bump_shipping_enabled: true }))).toEqual({
      bump_shipping_name: SETTINGS_MESSAGES.bumpName,
      bump_shipping_action: SETTINGS_MESSAGES.bumpActionMissing,
      bump_shipping_cost: SETTINGS_MESSAGES.bumpCostMissing,
    });
    expect(
      settingsFormProblems(
        form({
          bump_shipping_enabled: true,
          bump_shipping_name: 'Express',
          bump_shipping_action: 1,
          bump_shipping_cost: 0,
        }),
      ),
    ).toEqual({});
  });

  it('says the bounds of amounts, counts and texts', () => {
    expect(
      settingsFormProblems(
        form({
          carrier_name: 'c'.repeat(161),
          bump_shipping_cost: -1,
          fallback_enabled: true,
          fallback_cost: 1_000_001,
          recent_checkouts_per_minute: 31,
          recent_checkouts_days: 1.5,
        }),
      ),
    ).toEqual({
      carrier_name: 'Carrier name must be at most 160 characters.',
      bump_shipping_cost: 'Bump shipping cost must be a number from 0 to 1,000,000.',
      fallback_name: 'The fallback rate needs a name when it is enabled.',
      fallback_cost: "The fallback rate's amount must be a number from 0 to 1,000,000.",
      recent_checkouts_per_minute: 'Recent checkouts can sample 1 to 30 checkouts a minute.',
      recent_checkouts_days: 'Recent checkouts can be kept for 1 to 14 days.',
    });
  });
});

describe('settingsFieldOf', () => {
  it("finds the field of every message of a field, and of none of the whole settings'", () => {
    expect(settingsFieldOf(SETTINGS_MESSAGES.bumpActionUnknown)).toBe('bump_shipping_action');
    expect(settingsFieldOf(SETTINGS_MESSAGES.bumpCostRange)).toBe('bump_shipping_cost');
    expect(settingsFieldOf(SETTINGS_MESSAGES.recentDays)).toBe('recent_checkouts_days');
    for (const field of Object.keys(SETTINGS_TEXT_LABELS) as (keyof typeof SETTINGS_TEXT_LABELS)[])
      expect(settingsFieldOf(textTooLong(field))).toBe(field);
    expect(Object.values(SETTINGS_MESSAGES).every((m) => settingsFieldOf(m) !== undefined)).toBe(
      true,
    );
    expect(settingsFieldOf('Business days must list each weekday once.')).toBeUndefined();
  });
});
