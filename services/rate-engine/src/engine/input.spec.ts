import { always, CART_A, filter, request, snapshot } from '../../test/fixtures/cases';
import { parseSnapshot, QuoteInputError, quoteInput } from './input';
import { parseInstant } from './request';

describe('the quote command input', () => {
  it.each([null, [], 'x', 5])('refuses %p: each input must be an object', (input) => {
    expect(() => quoteInput(input)).toThrow(
      new QuoteInputError('Each input must be an object { "snapshot": ..., "request": ... }'),
    );
  });

  it('names the snapshot path that is wrong, or the snapshot itself', () => {
    expect(() => parseSnapshot(5)).toThrow(/^snapshot: /);
    const bad = { ...snapshot({}), settings: { ...snapshot({}).settings, carrier_name: 5 } };
    expect(() => parseSnapshot(bad)).toThrow(/^snapshot\.settings\.carrier_name: /);
    try {
      parseSnapshot(bad);
    } catch (err) {
      expect(err).toBeInstanceOf(QuoteInputError);
      expect((err as Error).name).toBe('QuoteInputError');
    }
  });

  it('says "snapshot:" for rules that cannot be evaluated and "request:" for a bad cart', () => {
    const unknownField = snapshot({
      filters: [
        filter(
          {
            id: 'g',
            type: 'group',
            condition: 'AND',
            rules: [
              { id: 'c', type: 'condition', field: 'nope', operator: 'equal', value: 1 } as never,
            ],
          },
          1,
          1,
        ),
      ],
    });
    expect(() => quoteInput({ snapshot: unknownField, request: request(CART_A) })).toThrow(
      /^snapshot: The rules cannot be evaluated: The enabled ruleset rule #1 has a condition on an unknown field$/,
    );
    expect(() =>
      quoteInput({ snapshot: snapshot({}), request: request(CART_A, 'US', 'US') }),
    ).toThrow(/^request: rate\.currency must be a three-letter currency code$/);
  });

  it('answers rates and the trace', () => {
    const result = quoteInput({
      snapshot: snapshot({ filters: [filter(always(), 1, 2)] }),
      request: request(CART_A),
    });
    expect(result.rates.map((r) => r.total_price)).toEqual(['200']);
    expect(result.trace.fee).toBe(200);
  });

  describe('now, the request time of delivery dates', () => {
    const windowed = snapshot({
      filters: [filter(always(), 1, 1)],
      settings: { delivery_min_days: 0, delivery_max_days: 0 },
    });
    const dateOf = (now: unknown) =>
      quoteInput({ snapshot: windowed, request: request(CART_A), now }).rates[0]!.min_delivery_date;

    it.each([
      ['2026-12-01T23:59:59Z', '2026-12-01 00:00:00 +0000'],
      // 23:30 at -01:00 is 00:30 UTC the next day.
      ['2026-12-01T23:30:00-01:00', '2026-12-02 00:00:00 +0000'],
      ['2026-12-02T00:30:00.5+01:00', '2026-12-01 00:00:00 +0000'],
      ['2026-12-01T10:00Z', '2026-12-01 00:00:00 +0000'],
    ])('takes %s', (now, date) => {
      expect(dateOf(now)).toBe(date);
    });

    it.each([
      '2026-12-01',
      '2026-12-01T10:00:00',
      '2026-02-30T10:00:00Z',
      '2026-12-01T24:00:00Z',
      '2026-12-01 10:00:00Z',
      '2026-12-01T10:00:00+0530',
      '',
      null,
      1_795_000_000_000,
    ])('refuses %p with one line', (now) => {
      expect(() => dateOf(now)).toThrow(
        new QuoteInputError(
          'now must be an ISO 8601 instant with Z or an offset, such as 2026-11-27T15:30:00-05:00',
        ),
      );
    });

    it('is the current time when missing', () => {
      const before = Date.now();
      const date = dateOf(undefined);
      const after = Date.now();
      const day = (ms: number) => `${new Date(ms).toISOString().slice(0, 10)} 00:00:00 +0000`;
      // Monday to Friday only: on a weekend the order counts from Monday.
      const weekday = new Date(before).getUTCDay();
      if (weekday !== 0 && weekday !== 6) expect([day(before), day(after)]).toContain(date);
      else expect(date! > day(before)).toBe(true);
    });

    it('parses an instant to the millisecond, offsets included', () => {
      expect(parseInstant('2026-11-27T15:30:00-05:00')).toBe(Date.UTC(2026, 10, 27, 20, 30));
      expect(parseInstant('2026-11-27T15:30:00.123456+05:30')).toBe(
        Date.UTC(2026, 10, 27, 10, 0, 0, 123),
      );
      expect(parseInstant('2028-02-29T00:00:00Z')).toBe(Date.UTC(2028, 1, 29));
      expect(parseInstant('2027-02-29T00:00:00Z')).toBeUndefined();
    });
  });
});
