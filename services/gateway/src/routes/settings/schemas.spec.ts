import { DEFAULT_SETTINGS, SETTINGS_MESSAGES } from '@ratesmith/contracts';
import { FieldsError, parseInput } from '../../http/validate';
import { saveSettingsBody, settingsBody } from './schemas';

/** What the Settings page sends with bump shipping turned on, its pricing as given. */
const bumpOn = (pricing: Record<string, unknown>) => ({
  bump_shipping_enabled: true,
  bump_shipping_name: 'Express',
  ...pricing,
});

function refusal(body: unknown): FieldsError {
  try {
    parseInput(saveSettingsBody, body);
  } catch (err) {
    if (err instanceof FieldsError) return err;
    throw err;
  }
  throw new Error('the body was accepted');
}

describe("the admin's settings body", () => {
  it('refuses bump shipping that is on without its pricing chosen or its cost, each at its field', () => {
    const refused = refusal(bumpOn({ bump_shipping_action: '', bump_shipping_cost: '' }));
    expect(refused.kind).toBe('invalid_data');
    expect(refused.fields).toEqual({
      bump_shipping_action: SETTINGS_MESSAGES.bumpActionMissing,
      bump_shipping_cost: SETTINGS_MESSAGES.bumpCostMissing,
    });
    expect(refused.details).toEqual([
      'bump_shipping_action: Choose how bump shipping is priced: a percent or a static fee on top.',
      'bump_shipping_cost: Enter the bump shipping cost: a number such as 15 (a percent) or 4.99 (a fee), 0 for none.',
    ]);
    // Left out of the body reads as blank too.
    expect(Object.keys(refusal(bumpOn({})).fields)).toEqual([
      'bump_shipping_action',
      'bump_shipping_cost',
    ]);
  });

  it('takes a cost of 0 and a chosen pricing; with bump shipping off, blanks are the defaults', () => {
    expect(
      parseInput(saveSettingsBody, bumpOn({ bump_shipping_action: 2, bump_shipping_cost: '0' })),
    ).toMatchObject({ bump_shipping_action: 2, bump_shipping_cost: 0 });
    expect(
      parseInput(saveSettingsBody, { bump_shipping_action: '', bump_shipping_cost: '' }),
    ).toMatchObject({
      bump_shipping_enabled: false,
      bump_shipping_action: null,
      bump_shipping_cost: 0,
      recent_checkouts_days: DEFAULT_SETTINGS.recent_checkouts_days,
    });
  });

  it('answers a value of the wrong type at its field', () => {
    expect(refusal({ bump_shipping_cost: 'ten' }).fields).toEqual({
      bump_shipping_cost: 'must be a number',
    });
  });

  it('leaves a configuration file its bump shipping as stored (the check is the Settings page’s)', () => {
    expect(parseInput(settingsBody, bumpOn({ bump_shipping_action: null }))).toMatchObject({
      bump_shipping_enabled: true,
      bump_shipping_action: null,
      bump_shipping_cost: 0,
    });
  });
});
