import { always, CART_A, filter, request, snapshot } from '../../test/fixtures/cases';
import { parseSnapshot, QuoteInputError, quoteInput } from './input';

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
      /^snapshot: The rules cannot be evaluated: The active ruleset rule #1 has a condition on an unknown field$/,
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
});
