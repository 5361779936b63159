import type { Snapshot } from '@ratesmith/contracts';
import { createLogger } from '@ratesmith/kit';
import { always, filter, snapshot } from '../../test/fixtures/cases';
import { NO_METRICS as metrics } from '../../test/fixtures/metrics';
import { benchRequest, benchSnapshot, inShadow, withTagIndex } from '../../bench/fixture';
import { parseRateRequest, parseSnapshot, Quoter } from '../engine';
import { Lru } from './lru';
import { prepareSnapshot, SnapshotStore, type SnapshotSource } from './store';

/** Kinds a structured clone copies as they are: plain objects and arrays, maps, sets, typed arrays. */
const CLONED_AS_IS = new Set<unknown>([
  Object.prototype,
  Array.prototype,
  Map.prototype,
  Set.prototype,
  Int32Array.prototype,
  Float64Array.prototype,
  null,
]);

/** Where a value holds anything else (a class instance, a function): paths. */
function unclonable(value: unknown, path = '$'): string[] {
  if (typeof value === 'function') return [path];
  if (typeof value !== 'object' || value === null) return [];
  if (!CLONED_AS_IS.has(Object.getPrototypeOf(value))) return [path];
  if (ArrayBuffer.isView(value)) return [];
  const entries: [string, unknown][] =
    value instanceof Map
      ? [...value].flatMap(([k, v], i) => [
          [`${path}<key ${i}>`, k],
          [`${path}<${String(k)}>`, v],
        ])
      : value instanceof Set
        ? [...value].map((v, i) => [`${path}{${i}}`, v])
        : Object.entries(value).map(([k, v]) => [`${path}.${k}`, v]);
  return entries.flatMap(([p, v]) => unclonable(v, p));
}

const snap = (shop: string, version: number, rateKey: string | null, cents = 100): Snapshot =>
  parseSnapshot({
    ...snapshot({ filters: [filter(always(), 1, cents / 100)] }),
    shop,
    version,
    rateKey,
  });

function store(source: SnapshotSource = async () => undefined, capacity = 2) {
  return new SnapshotStore({
    capacity,
    source,
    fetchTimeoutMs: 100,
    logger: createLogger('test', 'silent'),
    metrics,
  });
}

describe('Lru', () => {
  it('drops the least recently used entry when full', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect([lru.has('a'), lru.has('b'), lru.has('c')]).toEqual([true, false, true]);
  });
});

describe('SnapshotStore', () => {
  it('maps a rate key to its shop, and forgets the old key when it changes', () => {
    const s = store();
    s.apply(snap('a.myshopify.com', 1, 'key-one-1234567890'), 0);
    expect(s.shopForKey('key-one-1234567890')).toBe('a.myshopify.com');
    s.apply(snap('a.myshopify.com', 2, 'key-two-1234567890'), 0);
    expect(s.shopForKey('key-one-1234567890')).toBeUndefined();
    expect(s.shopForKey('key-two-1234567890')).toBe('a.myshopify.com');
  });

  it('never lets an older version replace a newer one', () => {
    const s = store();
    s.apply(snap('a.myshopify.com', 5, 'k', 500), 0);
    s.apply(snap('a.myshopify.com', 4, 'k', 400), 0);
    expect(s.cached('a.myshopify.com')?.compiled.version).toBe(5);
    s.apply(snap('a.myshopify.com', 6, 'k', 600), 0);
    expect(s.cached('a.myshopify.com')?.compiled.version).toBe(6);
  });

  it('keeps the previous version when a new one cannot be compiled', () => {
    const s = store();
    s.apply(snap('a.myshopify.com', 1, 'k'), 0);
    const broken = snap('a.myshopify.com', 2, 'k');
    // An empty nested group: incomplete, never compiled.
    broken.globalRuleset!.filters[0]!.raw_query.rules = [
      { id: 'g2', type: 'group', condition: 'AND', rules: [] },
    ];
    s.apply(broken, 0);
    expect(s.cached('a.myshopify.com')?.compiled.version).toBe(1);
  });

  it('takes a snapshot compiled elsewhere by the same rules: versions forward only, keys, the initial load', () => {
    const s = store();
    const prepared = (version: number, key: string | null) =>
      prepareSnapshot(snap('a.myshopify.com', version, key));
    expect(s.applyPrepared(prepared(1, 'old'), 0, false)).toBeUndefined();
    expect([s.knownCount, s.cachedCount, s.shopForKey('old')]).toEqual([1, 0, 'a.myshopify.com']);
    s.applyPrepared(prepared(2, 'new'), 5);
    s.applyPrepared(prepared(1, 'old'), 6);
    s.apply(snap('a.myshopify.com', 2, 'new', 999), 7);
    const cached = s.cached('a.myshopify.com');
    expect([cached?.compiled.version, cached?.writtenAt]).toEqual([2, 5]);
    expect([s.shopForKey('old'), s.shopForKey('new')]).toEqual([undefined, 'a.myshopify.com']);
  });

  it('prepares a snapshot as plain data, which a structured clone (how the lane hands it over) keeps: the copy quotes the same', () => {
    const rich = parseSnapshot(
      inShadow(
        withTagIndex(
          benchSnapshot('rich.myshopify.com', 0, null, { filters: 20, productRules: 6 }),
          20,
          40,
        ),
      ),
    );
    rich.globalRuleset!.filters[0]!.delivery_min_days = 2;
    rich.globalRuleset!.filters[0]!.delivery_max_days = 5;
    const prepared = prepareSnapshot(rich);
    // Every kind of part the clone must keep: maps, sets, typed arrays, the shadow.
    expect(prepared.compiled.productRules.some((r) => r.variantIds instanceof Set)).toBe(true);
    expect(prepared.compiled.itemTests.length).toBeGreaterThan(0);
    expect(prepared.compiled.overrideWindows.some((w) => w !== null)).toBe(true);
    expect(prepared.shadow).not.toBeNull();
    // A structured clone keeps these kinds; a class instance would come back a plain object.
    expect(unclonable(prepared)).toEqual([]);
    // (Made in Node's own realm, not jest's, so compared by what it answers.)
    const copy = structuredClone(prepared);
    const request = parseRateRequest(benchRequest(), 1000, Date.UTC(2026, 11, 1, 9));
    const quote = (p: typeof prepared) => new Quoter().quote(p.compiled, request, true);
    expect(quote(copy)).toEqual(quote(prepared));
    expect(quote(prepared).rates.length).toBeGreaterThan(0);
  });

  it('evicts beyond its capacity and reads a missing shop from the source, once for concurrent misses', async () => {
    let reads = 0;
    const s = store(async (shop) => {
      reads++;
      await new Promise((r) => setTimeout(r, 10));
      return { snapshot: snap(shop, 3, null), writtenAt: 0 };
    });
    s.apply(snap('a.myshopify.com', 1, null), 0);
    s.apply(snap('b.myshopify.com', 1, null), 0);
    s.apply(snap('c.myshopify.com', 1, null), 0);
    expect(s.cachedCount).toBe(2);
    expect(s.cached('a.myshopify.com')).toBeUndefined();
    const [one, two] = await Promise.all([s.get('a.myshopify.com'), s.get('a.myshopify.com')]);
    expect(reads).toBe(1);
    expect(one?.compiled.version).toBe(3);
    expect(two).toBe(one);
  });

  it('gives up on a read that takes longer than the fetch timeout', async () => {
    const s = store(() => new Promise(() => undefined));
    await expect(s.get('slow.myshopify.com')).rejects.toThrow(/timed out/);
  });

  it('records only the version and key of an initial entry when asked not to compile', () => {
    const s = store();
    expect(s.apply(snap('a.myshopify.com', 1, 'k-initial'), 0, false)).toBeUndefined();
    expect(s.shopForKey('k-initial')).toBe('a.myshopify.com');
    expect(s.cachedCount).toBe(0);
  });

  it('reports how long it has been stale: 0 while live, growing once the watch is lost', async () => {
    const s = store();
    s.setLive(true);
    expect(s.staleSeconds()).toBe(0);
    s.setLive(false);
    await new Promise((r) => setTimeout(r, 30));
    expect(s.staleSeconds()).toBeGreaterThan(0.02);
    s.setLive(true);
    expect(s.staleSeconds()).toBe(0);
  });
});
