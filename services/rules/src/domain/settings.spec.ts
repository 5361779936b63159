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
  ...overrides,
});

describe('validateSettings', () => {
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
