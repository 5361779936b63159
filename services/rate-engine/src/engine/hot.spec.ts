import { always, and, CART_A, cond, filter, request, snapshot } from '../../test/fixtures/cases';
import { compileSnapshot, type CompiledSnapshot } from './compile';
import { quote } from './evaluate';
import {
  clearHotTier,
  configureHotTier,
  HOT_AFTER,
  hotMatcher,
  hotTierStats,
  matcherSource,
} from './hot';
import { parseSnapshot } from './input';
import { parseRateRequest } from './request';

/** A snapshot whose rules have n filters: n is its shape. */
const shape = (n: number): CompiledSnapshot =>
  compileSnapshot(
    parseSnapshot(snapshot({ filters: Array.from({ length: n }, () => filter(always(), 1, 1)) })),
  );
const req = parseRateRequest(request(CART_A));
const warm = (c: CompiledSnapshot) => {
  for (let i = 0; i < HOT_AFTER; i++) quote(c, req);
};

beforeEach(() => {
  clearHotTier();
  configureHotTier({ size: 1000 });
});
afterAll(() => configureHotTier({ size: 1000 }));

describe('the hot tier', () => {
  it('takes a whole size >= 0 only', () => {
    for (const size of [-1, 1.5, NaN]) {
      expect(() => configureHotTier({ size })).toThrow(
        'The compiled cache size must be a whole number >= 0',
      );
    }
    configureHotTier({ size: 0 });
    expect(hotTierStats().size).toBe(0);
  });

  it('a snapshot gets its code on its HOT_AFTER-th quote, not before', () => {
    expect(HOT_AFTER).toBe(2);
    const c = shape(1);
    expect(hotMatcher(c)).toBeNull();
    expect(c.hot).toBeNull();
    const fn = hotMatcher(c);
    expect(fn).toBeInstanceOf(Function);
    expect(c.hot!.fn).toBe(fn);
    expect(hotMatcher(c)).toBe(fn);
    expect(hotTierStats().held).toBe(1);
  });

  it('size 0: never generates code', () => {
    configureHotTier({ size: 0 });
    const before = hotTierStats().generated;
    const c = shape(1);
    for (let i = 0; i < 5; i++) expect(hotMatcher(c)).toBeNull();
    expect(hotTierStats()).toEqual({ size: 0, held: 0, generated: before });
  });

  it('one function a shape: the same shape is not generated twice', () => {
    const before = hotTierStats().generated;
    const a = shape(2);
    const b = shape(2);
    warm(a);
    warm(b);
    expect(a.hot).toBe(b.hot);
    expect(hotTierStats().generated).toBe(before + 1);
  });

  it('evicts the least recently quoted shape, and its shops need HOT_AFTER quotes again', () => {
    configureHotTier({ size: 2 });
    const [a, b, c] = [shape(1), shape(2), shape(3)];
    warm(a);
    warm(b);
    quote(a, req); // a is now more recent than b
    warm(c);
    expect(hotTierStats().held).toBe(2);
    expect(b.hot!.fn).toBeNull();
    expect(a.hot!.fn).toBeInstanceOf(Function);
    expect(c.hot!.fn).toBeInstanceOf(Function);
    // b is back on the loop: one quote is not enough, the second makes it hot again.
    expect(hotMatcher(b)).toBeNull();
    expect(hotMatcher(b)).toBeInstanceOf(Function);
    expect(hotTierStats().held).toBe(2);
  });

  it('shrinking the tier drops the oldest functions at once', () => {
    const shapes = [shape(1), shape(2), shape(3)];
    for (const s of shapes) warm(s);
    expect(hotTierStats().held).toBe(3);
    configureHotTier({ size: 1 });
    expect(hotTierStats().held).toBe(1);
    expect(shapes.map((s) => s.hot!.fn !== null)).toEqual([false, false, true]);
  });

  it('clearing drops every function', () => {
    const a = shape(1);
    warm(a);
    clearHotTier();
    expect(hotTierStats().held).toBe(0);
    expect(a.hot!.fn).toBeNull();
  });

  it('the source holds only slots, positions, filter numbers and operators', () => {
    const c = compileSnapshot(
      parseSnapshot(
        snapshot({
          filters: [
            filter(and(cond('cart_price', 'greater_than', 12.34)), 1, 1),
            filter(and(cond('shipping_country', 'not_equal', 'ZA')), 1, 1),
          ],
        }),
      ),
    );
    const source = matcherSource(c);
    expect(source).toBe(
      'switch (n) {\ncase 0: return (f[0]>p[3]);\ncase 1: return (f[4]!==p[7]);\n}\nreturn false;',
    );
    expect(source).not.toContain('1234');
  });
});
