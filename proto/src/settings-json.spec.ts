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

  it('reads missing settings as a shop that never saved any', () => {
    expect(settingsToJson(undefined)).toEqual(DEFAULT_SETTINGS);
  });

  it('lets an action the rules service refuses travel, so it can say why', () => {
    expect(settingsFromJson({ ...json, bump_shipping_action: 7 }).bumpShippingAction).toBe(7);
  });
});
