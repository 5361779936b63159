import { create } from '@bufbuild/protobuf';
import { SettingsSchema } from './gen/ratesmith/rules/v1/rules_pb';
import { settingsFromJson, settingsToJson, type SettingsJson } from './settings-json';
import { DEFAULT_SETTINGS } from './snapshot';

const json: SettingsJson = {
  carrier_name: 'Post',
  carrier_description: 'Tracked',
  bump_shipping_enabled: true,
  bump_shipping_name: 'Express',
  bump_shipping_description: 'Next day',
  bump_shipping_action: 2,
  bump_shipping_cost: 4.5,
  fallback_enabled: true,
  fallback_name: 'Standard',
  fallback_description: 'Backup rate',
  fallback_cost: 7.5,
  recent_checkouts_enabled: false,
  recent_checkouts_per_minute: 12,
  recent_checkouts_days: 3,
  timezone: 'America/New_York',
  business_days: [1, 2, 3, 4, 6],
  holidays: ['2026-12-25', '2027-01-01'],
  cutoff_time: '14:30',
  processing_days: 2,
  delivery_min_days: 2,
  delivery_max_days: 5,
  bump_delivery_min_days: 0,
  bump_delivery_max_days: 1,
  upgrades: [
    {
      name: 'Overnight',
      description: 'By 10 am',
      action: 2,
      cost: 19.99,
      delivery_min_days: 1,
      delivery_max_days: 1,
    },
    {
      name: 'Gift',
      description: '',
      action: 1,
      cost: 5,
      delivery_min_days: null,
      delivery_max_days: null,
    },
  ],
};

describe('settings JSON ⇄ protobuf', () => {
  it('round-trips every field', () => {
    expect(settingsToJson(create(SettingsSchema, settingsFromJson(json)))).toEqual(json);
  });

  it('carries "not chosen" as an unset action, and back as null', () => {
    const message = create(
      SettingsSchema,
      settingsFromJson({ ...json, bump_shipping_action: null }),
    );
    expect(message.bumpShippingAction).toBeUndefined();
    expect(settingsToJson(message).bump_shipping_action).toBeNull();
  });

  it('carries an empty list of business days as sent (the rules service refuses it), unlike unset', () => {
    const message = create(SettingsSchema, settingsFromJson({ ...json, business_days: [] }));
    expect(settingsToJson(message).business_days).toEqual([]);
    expect(settingsToJson(create(SettingsSchema, {})).business_days).toEqual([1, 2, 3, 4, 5]);
  });

  it('carries "no cutoff" and "no window" as unset, and back as null', () => {
    const message = create(
      SettingsSchema,
      settingsFromJson({
        ...json,
        cutoff_time: null,
        delivery_min_days: null,
        delivery_max_days: null,
      }),
    );
    expect(message.cutoffTime).toBeUndefined();
    expect(message.deliveryMinDays).toBeUndefined();
    expect(settingsToJson(message)).toMatchObject({
      cutoff_time: null,
      delivery_min_days: null,
      delivery_max_days: null,
    });
  });

  it('reads missing settings as a shop that never saved any', () => {
    expect(settingsToJson(undefined)).toEqual(DEFAULT_SETTINGS);
  });

  it('lets an action the rules service refuses travel, so it can say why', () => {
    expect(settingsFromJson({ ...json, bump_shipping_action: 7 }).bumpShippingAction).toBe(7);
  });
});
