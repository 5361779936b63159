import type { ShadowCartJson } from '../edge';
import { SHADOW_LARGEST, shadowFigures, shadowVerdict } from './shadow-report';

const cart = (ratesmith: number | null, native: number | null, at = '2026-11-30T00:00:00Z') => {
  const r = (cents: number | null) => (cents === null ? null : { name: 'Rate', cents });
  return {
    at,
    country: 'US',
    currency: 'USD',
    lines: [],
    ratesmith: r(ratesmith),
    native: r(native),
    ...shadowVerdict(ratesmith, native),
  } satisfies ShadowCartJson;
};

describe('shadowVerdict', () => {
  it.each([
    [500, 500, 'same', 0],
    [400, 500, 'cheaper', -100],
    [600, 500, 'dearer', 100],
    [null, 500, 'no_rate', null],
    [500, null, 'only_ratesmith', null],
    [null, null, 'same', null],
  ] as const)('Ratesmith %p, native %p: %s', (ours, theirs, verdict, difference) => {
    expect(shadowVerdict(ours, theirs)).toEqual({ verdict, difference });
  });
});

describe('shadowFigures', () => {
  it('counts each verdict, puts every difference in one range, and lists the largest first', () => {
    const carts = [
      cart(500, 500),
      cart(400, 500),
      cart(100, 2600),
      cart(3000, 900),
      cart(null, 500),
      cart(700, null),
      cart(501, 500),
    ];
    const figures = shadowFigures(carts);
    expect(figures.seen).toBe(7);
    expect(figures.counts).toEqual({
      same: 1,
      cheaper: 2,
      dearer: 2,
      no_rate: 1,
      only_ratesmith: 1,
    });
    const counted = figures.distribution.reduce((n, r) => n + r.count, 0);
    expect(counted).toBe(5);
    const at = (d: number) =>
      figures.distribution.find((r) => (r.from ?? -Infinity) <= d && d <= (r.to ?? Infinity))!
        .count;
    expect([at(-2500), at(-100), at(0), at(1), at(2100)]).toEqual([1, 1, 1, 1, 1]);
    // Ranges touch and never overlap.
    figures.distribution
      .slice(1)
      .forEach((r, i) => expect(r.from).toBe(figures.distribution[i]!.to! + 1));
    expect(figures.largest.map((c) => c.difference)).toEqual([-2500, 2100, -100, 1]);
  });

  it(`lists at most ${SHADOW_LARGEST}`, () => {
    const carts = Array.from({ length: 50 }, (_, i) => cart(1000 + i, 1000));
    const { largest } = shadowFigures(carts);
    expect(largest).toHaveLength(SHADOW_LARGEST);
    expect(largest[0]!.difference).toBe(49);
  });
});
