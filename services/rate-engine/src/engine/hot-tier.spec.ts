import { always, and, CART_A, cond, filter, request, snapshot } from '../../test/fixtures/cases';
import { compileSnapshot } from './compile';
import type { CompiledSnapshot } from './compiled-snapshot';
import { Quoter } from './evaluate';
import {
  BUSY_WINDOW_MS,
  COMPILES_PER_SECOND,
  generateMatcher,
  HOT_AFTER,
  HotTier,
  matcherSource,
} from './hot-tier';
import { parseSnapshot } from './input';
import { matches } from './interpreter';
import { AND, EQ, FILTER_WORDS, OR } from './program-layout';
import { parseRateRequest } from './request';

/** A snapshot whose rules have n filters: n is its shape. */
const shape = (n: number): CompiledSnapshot =>
  compileSnapshot(
    parseSnapshot(snapshot({ filters: Array.from({ length: n }, () => filter(always(), 1, 1)) })),
  );
const req = parseRateRequest(request(CART_A));
// Each test gets its own tier and a quoter that uses it.
let tier: HotTier;
let quoter: Quoter;
/** The tiers' clock in these tests (ms), moved by hand. */
let clock: number;
const quote = (c: CompiledSnapshot) => quoter.quote(c, req);
const warm = (c: CompiledSnapshot) => {
  for (let i = 0; i < HOT_AFTER; i++) quote(c);
};

beforeEach(() => {
  clock = 1_000_000;
  tier = new HotTier({ size: 1000, now: () => clock });
  quoter = new Quoter(tier);
});

describe('the hot tier', () => {
  it('takes a whole size >= 0 only', () => {
    for (const size of [-1, 1.5, NaN]) {
      expect(() => new HotTier({ size })).toThrow(
        'The compiled cache size must be a whole number >= 0',
      );
      expect(() => tier.resize(size)).toThrow(
        'The compiled cache size must be a whole number >= 0',
      );
    }
    tier.resize(0);
    expect(tier.stats().size).toBe(0);
    expect(new HotTier({ size: 0 }).stats().size).toBe(0);
  });

  it('takes busy quotes and compiles a second as whole numbers >= 1 only', () => {
    for (const bad of [0, -1, 1.5, NaN]) {
      expect(() => new HotTier({ size: 10, busyQuotes: bad })).toThrow(
        'The busy quote count must be a whole number >= 1',
      );
      expect(() => new HotTier({ size: 10, compilesPerSecond: bad })).toThrow(
        'The compiles a second must be a whole number >= 1',
      );
    }
  });

  it('a snapshot gets its code on its HOT_AFTER-th quote within a minute, not before', () => {
    expect(HOT_AFTER).toBe(10);
    const c = shape(1);
    for (let i = 1; i < HOT_AFTER; i++) {
      clock += 10;
      expect(tier.matcher(c)).toBeNull();
    }
    expect(c.hot).toBeNull();
    const fn = tier.matcher(c);
    expect(fn).toBeInstanceOf(Function);
    expect(c.hot!.fn).toBe(fn);
    expect(tier.matcher(c)).toBe(fn);
    expect(tier.stats().held).toBe(1);
  });

  it('a shop quoted now and then (fewer than HOT_AFTER quotes in any minute) never gets code', () => {
    const c = shape(1);
    for (let minute = 0; minute < 5; minute++) {
      for (let i = 1; i < HOT_AFTER; i++) expect(tier.matcher(c)).toBeNull();
      clock += BUSY_WINDOW_MS;
    }
    expect(c.hot).toBeNull();
    expect(tier.stats().generated).toBe(0);
  });

  it('busyQuotes sets the threshold: 1 gives code on the first quote', () => {
    const eager = new HotTier({ size: 10, busyQuotes: 1 });
    expect(eager.matcher(shape(1))).toBeInstanceOf(Function);
  });

  it('generates at most compilesPerSecond functions a second; a busy shop over the budget is quoted by the loop, right, and gets code once the budget refills', () => {
    expect(COMPILES_PER_SECOND).toBe(20);
    tier = new HotTier({ size: 1000, compilesPerSecond: 3, now: () => clock });
    quoter = new Quoter(tier);
    const loop = new Quoter();
    const sizes = [1, 2, 3, 4, 5];
    const shops = sizes.map(shape);
    const expected = sizes.map((n) => loop.quote(shape(n), req));
    for (const c of shops) warm(c);
    expect(tier.stats()).toMatchObject({ generated: 3, held: 3, deferred: 2 });
    expect(shops.map((c) => c.hot !== null)).toEqual([true, true, true, false, false]);
    // Over the budget, every quote still answers, on the loop, with the same rates.
    shops.forEach((c, i) => expect(quote(c).rates).toEqual(expected[i]!.rates));
    expect(tier.stats().generated).toBe(3);
    // A third of a second later one token is back: the next busy shop to be quoted gets code.
    clock += 340;
    quote(shops[3]!);
    expect(shops[3]!.hot?.fn).toBeInstanceOf(Function);
    quote(shops[4]!);
    expect(shops[4]!.hot).toBeNull();
    clock += 1000;
    quote(shops[4]!);
    expect(shops[4]!.hot?.fn).toBeInstanceOf(Function);
    expect(tier.stats()).toMatchObject({ generated: 5, held: 5 });
  });

  it('a shape already held costs no compile budget', () => {
    tier = new HotTier({ size: 1000, compilesPerSecond: 1, now: () => clock });
    quoter = new Quoter(tier);
    const [a, b] = [shape(2), shape(2)];
    warm(a);
    warm(b);
    expect(a.hot).toBe(b.hot);
    expect(tier.stats()).toMatchObject({ generated: 1, deferred: 0 });
  });

  it('size 0: never generates code', () => {
    tier.resize(0);
    const before = tier.stats().generated;
    const c = shape(1);
    for (let i = 0; i < 2 * HOT_AFTER; i++) expect(tier.matcher(c)).toBeNull();
    expect(tier.stats()).toEqual({ size: 0, held: 0, generated: before, deferred: 0 });
  });

  it('one function a shape: the same shape is not generated twice', () => {
    const before = tier.stats().generated;
    const a = shape(2);
    const b = shape(2);
    warm(a);
    warm(b);
    expect(a.hot).toBe(b.hot);
    expect(tier.stats().generated).toBe(before + 1);
  });

  it('evicts the least recently quoted shape, and its shops need HOT_AFTER quotes again', () => {
    tier.resize(2);
    const [a, b, c] = [shape(1), shape(2), shape(3)];
    warm(a);
    warm(b);
    quote(a); // a is now more recent than b
    warm(c);
    expect(tier.stats().held).toBe(2);
    expect(b.hot!.fn).toBeNull();
    // b still points at its old entry, which keeps nothing.
    expect(b.hot!.source).toBe('');
    expect(a.hot!.source).toBe(matcherSource(a));
    expect(a.hot!.fn).toBeInstanceOf(Function);
    expect(c.hot!.fn).toBeInstanceOf(Function);
    // b is back on the loop until it is busy again.
    for (let i = 1; i < HOT_AFTER; i++) expect(tier.matcher(b)).toBeNull();
    expect(tier.matcher(b)).toBeInstanceOf(Function);
    expect(tier.stats().held).toBe(2);
  });

  it('shrinking the tier drops the oldest functions at once', () => {
    const shapes = [shape(1), shape(2), shape(3)];
    for (const s of shapes) warm(s);
    expect(tier.stats().held).toBe(3);
    tier.resize(1);
    expect(tier.stats().held).toBe(1);
    expect(shapes.map((s) => s.hot!.fn !== null)).toEqual([false, false, true]);
  });

  it('clearing drops every function', () => {
    const a = shape(1);
    warm(a);
    tier.clear();
    expect(tier.stats().held).toBe(0);
    expect(a.hot!.fn).toBeNull();
    // The snapshot still points at the entry: it keeps no source.
    expect(a.hot!.source).toBe('');
  });

  it('each tier is its own instance; a quoter without a tier stays on the loop', () => {
    const other = new HotTier({ size: 1000 });
    warm(shape(1));
    expect(tier.stats().held).toBe(1);
    expect(other.stats()).toEqual({ size: 1000, held: 0, generated: 0, deferred: 0 });
    const loopOnly = new Quoter();
    const c = shape(2);
    for (let i = 0; i < 2 * HOT_AFTER; i++) loopOnly.quote(c, req);
    expect(c.hot).toBeNull();
    expect(tier.stats().held).toBe(1);
  });

  it('generated code answers empty groups as matches does: AND holds, OR does not', () => {
    // Hand-written programs (the compiler refuses empty nested groups, and an empty root
    // compiles as AND): filter 0 an empty AND,
    // filter 1 an empty OR, filter 2 an AND holding an empty OR, filter 3 an OR holding an
    // empty AND. The table starts at 8, filter k at 8 + 7k, its root first.
    const program = [AND, 2, OR, 4, AND, 8, OR, 8, OR, 12, AND, 12];
    const roots = [0, 2, 4, 8];
    const words = [...program];
    for (const root of roots) words.push(root, ...Array<number>(FILTER_WORDS - 1).fill(0));
    const c = { code: Int32Array.from(words), table: program.length };
    const fn = generateMatcher(c);
    const f = new Float64Array(8);
    expect(roots.map((root) => matches(c.code, root, f))).toEqual([true, false, false, true]);
    expect(roots.map((_, k) => fn(c.code, f, k))).toEqual([true, false, false, true]);
    expect(matcherSource(c)).toContain('case 2: return (false);');
  });

  it('writes only integers into the source: a program with a fractional position is refused', () => {
    // An AND holding an AND whose end is 4.5 (no compiled program has one): the next
    // condition's position would be 5.5.
    const words = [AND, 6, AND, 4.5, EQ, 0, 0, ...Array<number>(FILTER_WORDS - 1).fill(0)];
    const code = Float64Array.from(words) as unknown as Int32Array;
    expect(() => matcherSource({ code, table: 6 })).toThrow('not an integer');
  });

  it('the source holds only slots, positions, filter numbers and operators', () => {
    const c = compileSnapshot(
      parseSnapshot(
        snapshot({
          filters: [
            filter(and(cond('cart_price', 'greater_than', 12.34)), 1, 1),
            filter(and(cond('shipping_country', 'not_equal', 'ZA')), 1, 1),
            filter(and(cond('shipping_postal_code', 'not_starts_with', 'K1')), 1, 1),
          ],
        }),
      ),
    );
    const source = matcherSource(c);
    // Slots: price 0, country 5, the postal test's own slot 7 (FIRST_X); never the code K1.
    expect(source).toBe(
      'switch (n) {\ncase 0: return (f[0]>p[3]);\ncase 1: return (f[5]!==p[7]);\ncase 2: return (f[7]!==p[11]);\n}\nreturn false;',
    );
    expect(source).not.toContain('K1');
    expect(source).not.toContain('1234');
  });
});
