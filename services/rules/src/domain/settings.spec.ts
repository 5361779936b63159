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
  timezone: 'UTC',
  business_days: [1, 2, 3, 4, 5],
  holidays: [],
  cutoff_time: null,
  processing_days: 0,
  delivery_min_days: null,
  delivery_max_days: null,
  bump_delivery_min_days: null,
  bump_delivery_max_days: null,
  upgrades: [],
  ...overrides,
});

describe('validateSettings', () => {
  it('keeps a delivery calendar, windows and upgrades; trims the upgrade texts, sorts the holidays', () => {
    const { errors, settings } = validateSettings(
      input({
        timezone: 'America/New_York',
        business_days: [1, 2, 3, 4, 5, 6],
        holidays: ['2026-12-25', '2026-12-24'],
        cutoff_time: '14:30',
        processing_days: 1,
        delivery_min_days: 2,
        delivery_max_days: 5,
        bump_delivery_min_days: 1,
        bump_delivery_max_days: 2,
        upgrades: [
          {
            name: ' Overnight ',
            description: ' By 10 am ',
            action: 2,
            cost: 19.99,
            delivery_min_days: 1,
            delivery_max_days: 1,
          },
        ],
      }),
    );
    expect(errors).toEqual([]);
    expect(settings).toMatchObject({
      timezone: 'America/New_York',
      business_days: [1, 2, 3, 4, 5, 6],
      holidays: ['2026-12-24', '2026-12-25'],
      cutoff_time: '14:30',
      processing_days: 1,
      delivery_min_days: 2,
      delivery_max_days: 5,
      bump_delivery_min_days: 1,
      bump_delivery_max_days: 2,
      upgrades: [
        {
          name: 'Overnight',
          description: 'By 10 am',
          action: 2,
          cost: 19.99,
          delivery_min_days: 1,
          delivery_max_days: 1,
        },
      ],
    });
  });

  it('refuses a bad calendar, windows and upgrades with the shared messages, all at once', () => {
    const upgrade = {
      name: '',
      description: '',
      action: 3,
      cost: 5,
      delivery_min_days: null,
      delivery_max_days: null,
    };
    const { errors } = validateSettings(
      input({
        timezone: 'Nowhere/City',
        business_days: [1, 1, 8],
        holidays: ['2026-13-01'],
        cutoff_time: '5pm',
        processing_days: 31,
        delivery_min_days: 3,
        delivery_max_days: null,
        bump_delivery_min_days: 4,
        bump_delivery_max_days: 2,
        upgrades: [upgrade, { ...upgrade, name: 'A', action: 1 }, upgrade, upgrade],
      }),
    );
    expect(errors).toEqual([
      '"Nowhere/City" is not a time zone name, such as America/New_York.',
      'Monday is listed more than once in the business days.',
      'Business day 8 is not a weekday from 1 (Monday) to 7 (Sunday).',
      'Holiday "2026-13-01" is not a real date written YYYY-MM-DD.',
      'The order cutoff time must be HH:MM on a 24-hour clock, 00:00 to 23:59, or none; "5pm" is not.',
      'Processing days must be a whole number from 0 to 30.',
      "The regular rate's delivery window needs both a minimum and a maximum number of days, or neither.",
      "The bump rate's delivery window has a minimum of 4 days, more than its maximum of 2 days.",
      'At most 3 extra services can be offered; there are 4.',
      'Service 1 needs a name.',
      'Service 1 must cost a percent or a static fee on top of the regular rate.',
      'Service 3 needs a name.',
      'Service 3 must cost a percent or a static fee on top of the regular rate.',
    ]);
  });

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
