import { DEFAULT_SETTINGS } from '../snapshot';
import { deliverySettingsProblems, upgradeCode, upgradeProblems } from './services';

const upgrade = (over: Record<string, unknown> = {}) => ({
  name: 'Express',
  description: '',
  action: 1,
  cost: 10,
  delivery_min_days: null,
  delivery_max_days: null,
  ...over,
});

describe('upgradeProblems', () => {
  it('takes up to three valid upgrades', () => {
    expect(upgradeProblems([])).toEqual([]);
    expect(
      upgradeProblems([
        upgrade(),
        upgrade({ action: 2, cost: 1_000_000, name: 'x'.repeat(100) }),
        upgrade({ description: 'd'.repeat(160), delivery_min_days: 0, delivery_max_days: 60 }),
      ]),
    ).toEqual([]);
  });

  it('names every problem of every upgrade', () => {
    expect(
      upgradeProblems([
        upgrade({ name: '' }),
        upgrade({ name: 'x'.repeat(101), action: 3, cost: -1 }),
        upgrade({ description: 'd'.repeat(161), delivery_min_days: 2, delivery_max_days: null }),
        upgrade(),
      ]),
    ).toEqual([
      'At most 3 extra services can be offered; there are 4.',
      'Service 1 needs a name.',
      "Service 2's name must be at most 100 characters.",
      'Service 2 must cost a percent or a static fee on top of the regular rate.',
      "Service 2's cost must be a number from 0 to 1,000,000.",
      "Service 3's description must be at most 160 characters.",
      "Service 3's delivery window needs both a minimum and a maximum number of days, or neither.",
    ]);
  });

  it('refuses what is not a list, and a cost that is not a finite number', () => {
    expect(upgradeProblems(null)).toEqual(['The extra services must be a list.']);
    expect(upgradeProblems([upgrade({ cost: NaN })])).toEqual([
      "Service 1's cost must be a number from 0 to 1,000,000.",
    ]);
  });

  it('codes the i-th upgrade RATESMITH_UPGRADE_<i>, from 1', () => {
    expect([0, 1, 2].map(upgradeCode)).toEqual([
      'RATESMITH_UPGRADE_1',
      'RATESMITH_UPGRADE_2',
      'RATESMITH_UPGRADE_3',
    ]);
  });
});

describe('deliverySettingsProblems', () => {
  it('finds nothing wrong with the defaults', () => {
    expect(deliverySettingsProblems(DEFAULT_SETTINGS)).toEqual([]);
  });

  it('checks the calendar, both windows and the upgrades at once', () => {
    expect(
      deliverySettingsProblems({
        ...DEFAULT_SETTINGS,
        business_days: [],
        delivery_min_days: 4,
        delivery_max_days: 2,
        bump_delivery_min_days: null,
        bump_delivery_max_days: 3,
        upgrades: [upgrade({ name: '' })],
      }),
    ).toEqual([
      'Choose at least one business day.',
      "The regular rate's delivery window has a minimum of 4 days, more than its maximum of 2 days.",
      "The bump rate's delivery window needs both a minimum and a maximum number of days, or neither.",
      'Service 1 needs a name.',
    ]);
  });
});
