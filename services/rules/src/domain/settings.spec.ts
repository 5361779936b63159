import { validateSettings, type SettingsInput } from './settings';

const input = (overrides: Partial<SettingsInput> = {}): SettingsInput => ({
  carrier_name: 'Ratesmith',
  carrier_description: 'Calculated at checkout',
  bump_shipping_enabled: false,
  bump_shipping_name: '',
  bump_shipping_description: '',
  bump_shipping_action: null,
  bump_shipping_cost: 0,
  fallback_enabled: false,
  fallback_name: '',
  fallback_description: '',
  fallback_cost: 0,
  recent_checkouts_enabled: true,
  recent_checkouts_per_minute: 6,
  recent_checkouts_days: 14,
  ...overrides,
});

describe('validateSettings', () => {
  it('keeps the Recent checkouts settings within their bounds, each with a clear message', () => {
    const off = validateSettings(
      input({
        recent_checkouts_enabled: false,
        recent_checkouts_per_minute: 30,
        recent_checkouts_days: 1,
      }),
    );
    expect(off.errors).toEqual([]);
    expect(off.settings).toMatchObject({
      recent_checkouts_enabled: false,
      recent_checkouts_per_minute: 30,
      recent_checkouts_days: 1,
    });
    for (const [perMinute, days] of [
      [0, 15],
      [31, 0],
      [2.5, 1.5],
    ])
      expect(
        validateSettings(
          input({ recent_checkouts_per_minute: perMinute, recent_checkouts_days: days }),
        ).errors,
      ).toEqual([
        'Recent checkouts can sample 1 to 30 checkouts a minute.',
        'Recent checkouts can be kept for 1 to 14 days.',
      ]);
  });

  it('accepts valid settings and trims the texts', () => {
    const { errors, settings } = validateSettings(
      input({
        carrier_name: ' Fast ',
        bump_shipping_enabled: true,
        bump_shipping_name: 'Express',
        bump_shipping_action: 1,
        bump_shipping_cost: 15,
      }),
    );
    expect(errors).toEqual([]);
    expect(settings).toMatchObject({
      carrier_name: 'Fast',
      bump_shipping_action: 1,
      bump_shipping_cost: 15,
    });
  });

  it('reports every problem at once', () => {
    const { errors } = validateSettings(
      input({
        carrier_name: 'x'.repeat(161),
        bump_shipping_description: 'y'.repeat(161),
        bump_shipping_action: 3,
        bump_shipping_cost: -1,
        bump_shipping_enabled: true,
      }),
    );
    expect(errors).toEqual([
      'Carrier name must be at most 160 characters.',
      'Bump shipping description must be at most 160 characters.',
      'Bump shipping type must be a percent, a static fee, or not chosen.',
      'Bump shipping cost must be a number from 0 to 1,000,000.',
      'Bump shipping needs a name when it is enabled.',
    ]);
  });

  it('keeps a fallback rate with its trimmed texts', () => {
    const { errors, settings } = validateSettings(
      input({
        fallback_enabled: true,
        fallback_name: ' Standard ',
        fallback_description: 'Backup',
        fallback_cost: 7.5,
      }),
    );
    expect(errors).toEqual([]);
    expect(settings).toMatchObject({
      fallback_enabled: true,
      fallback_name: 'Standard',
      fallback_description: 'Backup',
      fallback_cost: 7.5,
    });
  });

  it('says what is wrong with a fallback rate', () => {
    const { errors } = validateSettings(
      input({
        fallback_enabled: true,
        fallback_name: '  ',
        fallback_description: 'd'.repeat(161),
        fallback_cost: 1_000_000.01,
      }),
    );
    expect(errors).toEqual([
      'Fallback rate description must be at most 160 characters.',
      "The fallback rate's amount must be a number from 0 to 1,000,000.",
      'The fallback rate needs a name when it is enabled.',
    ]);
    expect(validateSettings(input({ fallback_cost: -0.01 })).errors).toEqual([
      "The fallback rate's amount must be a number from 0 to 1,000,000.",
    ]);
  });

  it('keeps a disabled fallback rate without a name (off by default)', () => {
    expect(validateSettings(input({ fallback_cost: 3 })).errors).toEqual([]);
  });

  it('allows exactly 160 characters', () => {
    expect(validateSettings(input({ carrier_description: 'z'.repeat(160) })).errors).toEqual([]);
  });
});
