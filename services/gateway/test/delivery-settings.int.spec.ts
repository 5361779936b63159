import type { Snapshot } from '@ratesmith/contracts';
import { sentFilter } from '@ratesmith/contracts/testing';
import { carrierRateRequest } from '@ratesmith/shopify-double';
import { ratesmithInEveryZone, startStack, until, type Stack } from './harness';

/**
 * The delivery calendar, the windows and the upgrades end to end: saved through
 * the gateway, checked and stored by the rules service (FerretDB), published in
 * the shop's snapshot (NATS KV), and answered by the carrier callback through
 * the Shopify double, dated by the time the callback arrived.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(() => stack?.stop());

const SHOP = 'dated.myshopify.com';
const token = () => stack.token(SHOP);

async function snapshotOf(shop: string): Promise<Snapshot | undefined> {
  const entry = await stack.kv.get(shop);
  return entry && entry.length ? (entry.json() as Snapshot) : undefined;
}

/** The settings a merchant saves: every day ships, UTC, so a date is the arrival day + n. */
const SETTINGS = {
  carrier_name: 'Ratesmith',
  bump_shipping_enabled: true,
  bump_shipping_name: 'Priority',
  bump_shipping_action: 1,
  bump_shipping_cost: 10,
  timezone: 'UTC',
  business_days: [1, 2, 3, 4, 5, 6, 7],
  holidays: ['2031-01-01', '2030-12-25'],
  cutoff_time: null,
  processing_days: 0,
  delivery_min_days: 3,
  delivery_max_days: 5,
  bump_delivery_min_days: 0,
  bump_delivery_max_days: 0,
  upgrades: [
    {
      name: ' Overnight ',
      description: 'By 10 am',
      action: 2,
      cost: 15,
      delivery_min_days: 1,
      delivery_max_days: 1,
    },
    {
      name: 'Gift wrapped',
      description: '',
      action: 1,
      cost: 50,
      delivery_min_days: null,
      delivery_max_days: null,
    },
  ],
};

/** Every cart: 10.00, its names overridden, with its own window of 1 to 2 days. */
const EVERY_CART = sentFilter({
  name: 'Every cart',
  raw_query: { condition: 'AND', rules: [] },
  action_data: '10',
  shipping_name: 'Ground',
  delivery_min_days: '1',
  delivery_max_days: '2',
});

/** `YYYY-MM-DD 00:00:00 +0000` of the UTC day of `at`, `days` later. */
const utcDay = (at: number, days: number) =>
  `${new Date(at + days * 86_400_000).toISOString().slice(0, 10)} 00:00:00 +0000`;

/** The answer expected of a callback that arrived at `at` (worked out from the settings above). */
const expectedAt = (at: number) => [
  // The override's window (1 to 2 days) wins over the settings' 3 to 5.
  {
    service_name: 'Ground',
    service_code: 'RATESMITH_STANDARD',
    total_price: '1000',
    description: '',
    currency: 'USD',
    min_delivery_date: utcDay(at, 1),
    max_delivery_date: utcDay(at, 2),
  },
  // 1000 + 10 %, the bump window 0 to 0: the day it arrived.
  {
    service_name: 'Priority',
    service_code: 'RATESMITH_BUMP',
    total_price: '1100',
    description: '',
    currency: 'USD',
    min_delivery_date: utcDay(at, 0),
    max_delivery_date: utcDay(at, 0),
  },
  // 1000 + 15.00, one day.
  {
    service_name: 'Overnight',
    service_code: 'RATESMITH_UPGRADE_1',
    total_price: '2500',
    description: 'By 10 am',
    currency: 'USD',
    min_delivery_date: utcDay(at, 1),
    max_delivery_date: utcDay(at, 1),
  },
  // 1000 + 50 %, no window: no date keys.
  {
    service_name: 'Gift wrapped',
    service_code: 'RATESMITH_UPGRADE_2',
    total_price: '1500',
    description: '',
    currency: 'USD',
  },
];

describe('delivery dates and upgrades', () => {
  it('a saved calendar, windows and upgrades reach the snapshot and the carrier callback', async () => {
    const created = await stack.api('/api/global-rules', {
      token: token(),
      method: 'POST',
      json: { name: 'Dated' },
    });
    const id = created.body.rule.id as string;
    const filters = await stack.api(`/api/global-rules/update/${id}`, {
      token: token(),
      method: 'POST',
      json: { rules: [EVERY_CART] },
    });
    expect(filters.status).toBe(200);
    expect((await stack.api(`/api/global-rules/${id}/toggle`, { token: token() })).status).toBe(
      200,
    );
    const saved = await stack.api('/api/settings', {
      token: token(),
      method: 'POST',
      json: SETTINGS,
    });
    expect(saved.status).toBe(200);

    const stored = {
      ...SETTINGS,
      // Trimmed, and the holidays in date order.
      holidays: ['2030-12-25', '2031-01-01'],
      upgrades: [{ ...SETTINGS.upgrades[0], name: 'Overnight' }, SETTINGS.upgrades[1]],
    };
    const read = await stack.api('/api/settings', { token: token() });
    expect(read.body.settings).toMatchObject(stored);
    const snapshot = await snapshotOf(SHOP);
    expect(snapshot?.settings).toMatchObject(stored);
    expect(snapshot?.globalRuleset?.filters).toEqual([
      expect.objectContaining({
        shipping_name: 'Ground',
        delivery_min_days: 1,
        delivery_max_days: 2,
      }),
    ]);

    ratesmithInEveryZone(stack, SHOP);
    let before = 0;
    let after = 0;
    const rates = await until(
      async () => {
        before = Date.now();
        const [answer] = await stack.shopify.checkout(SHOP, carrierRateRequest());
        after = Date.now();
        expect(answer!.status).toBe(200);
        return (answer!.body as { rates: Record<string, string>[] }).rates;
      },
      (r) => r.length === 4,
      'the upgrades at checkout',
    );
    // Dated by the callback's arrival, between the two readings (either side of a midnight).
    expect([expectedAt(before), expectedAt(after)]).toContainEqual(rates);

    // Recent checkouts keep each rate's dates as answered.
    const listed = await until(
      async () =>
        (await stack.api('/api/recent-checkouts', { token: token() })).body.checkouts as {
          rates: Record<string, string>[];
        }[],
      (checkouts) => checkouts.some((c) => c.rates.length === 4),
      'the dated checkout in Recent checkouts',
    );
    expect(listed.find((c) => c.rates.length === 4)!.rates).toEqual(
      rates.map(
        ({ service_name, service_code, total_price, min_delivery_date, max_delivery_date }) => ({
          service_name,
          service_code,
          total_price,
          ...(min_delivery_date ? { min_delivery_date, max_delivery_date } : {}),
        }),
      ),
    );
  });

  it("the admin's rate preview answers the same services with the dates of an order placed now", async () => {
    const before = Date.now();
    const res = await stack.api('/api/rate-preview', {
      token: token(),
      method: 'POST',
      json: {
        rate: {
          destination: { country: 'CA' },
          currency: 'USD',
          items: [{ price: 2500, quantity: 1, name: 'Shirt' }],
        },
      },
    });
    const after = Date.now();
    expect(res.status).toBe(200);
    expect([expectedAt(before), expectedAt(after)]).toContainEqual(res.body.rates);
  });

  it('the preview takes an order time, with an offset, and refuses one that is not a time', async () => {
    const preview = (ordered_at: string) =>
      stack.api('/api/rate-preview', {
        token: token(),
        method: 'POST',
        json: {
          rate: {
            destination: { country: 'CA' },
            currency: 'USD',
            items: [{ price: 2500, quantity: 1, name: 'Shirt' }],
          },
          ordered_at,
        },
      });
    // 31 December 2026, 23:30 in New York is 1 January 2027 at 04:30 UTC.
    const late = await preview('2026-12-31T23:30:00-05:00');
    expect(late.status).toBe(200);
    expect(late.body.rates).toEqual(expectedAt(Date.parse('2027-01-01T04:30:00Z')));
    const bad = await preview('2026-02-30T10:00:00Z');
    expect(bad.status).toBe(400);
  });

  it('refuses a bad calendar, windows and upgrades with every message, and keeps the stored ones', async () => {
    const res = await stack.api('/api/settings', {
      token: token(),
      method: 'POST',
      json: {
        ...SETTINGS,
        timezone: 'Atlantis/Capital',
        business_days: [],
        holidays: ['2030-02-30'],
        cutoff_time: '17:60',
        processing_days: 40,
        delivery_min_days: 5,
        delivery_max_days: 2,
        bump_delivery_min_days: 1,
        bump_delivery_max_days: null,
        upgrades: [{ ...SETTINGS.upgrades[0], name: '  ', action: 5, cost: 2_000_000 }],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      status: false,
      message: 'Please fix the following errors:',
      errors: [
        '"Atlantis/Capital" is not a time zone name, such as America/New_York.',
        'Choose at least one business day.',
        'Holiday "2030-02-30" is not a real date written YYYY-MM-DD.',
        'The order cutoff time must be HH:MM on a 24-hour clock, 00:00 to 23:59, or none; "17:60" is not.',
        'Processing days must be a whole number from 0 to 30.',
        "The regular rate's delivery window has a minimum of 5 days, more than its maximum of 2 days.",
        "The bump rate's delivery window needs both a minimum and a maximum number of days, or neither.",
        'Service 1 needs a name.',
        'Service 1 must cost a percent or a static fee on top of the regular rate.',
        "Service 1's cost must be a number from 0 to 1,000,000.",
      ],
    });
    const tooMany = await stack.api('/api/settings', {
      token: token(),
      method: 'POST',
      json: {
        ...SETTINGS,
        upgrades: [1, 2, 3, 4].map((n) => ({ ...SETTINGS.upgrades[1], name: `S${n}` })),
      },
    });
    expect(tooMany.body.errors).toEqual(['At most 3 extra services can be offered; there are 4.']);
    const fraction = await stack.api('/api/settings', {
      token: token(),
      method: 'POST',
      json: { ...SETTINGS, delivery_min_days: 1.5 },
    });
    expect([fraction.status, fraction.body.errors]).toEqual([
      400,
      ['delivery_min_days: must be a whole number'],
    ]);
    expect((await stack.api('/api/settings', { token: token() })).body.settings.timezone).toBe(
      'UTC',
    );
    expect((await snapshotOf(SHOP))?.settings.delivery_min_days).toBe(3);
  });

  it("refuses a filter's window the calendar's check refuses, naming the rule", async () => {
    const created = await stack.api('/api/global-rules', {
      token: token(),
      method: 'POST',
      json: { name: 'Bad window' },
    });
    const res = await stack.api(`/api/global-rules/update/${created.body.rule.id}`, {
      token: token(),
      method: 'POST',
      json: { rules: [{ ...EVERY_CART, delivery_min_days: '5', delivery_max_days: '2' }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      'Rule #1 delivery window has a minimum of 5 days, more than its maximum of 2 days.',
    ]);
  });
});
