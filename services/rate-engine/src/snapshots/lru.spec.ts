import { Lru } from './lru';

describe('Lru', () => {
  it('drops the least recently used entry, a read making an entry the newest', () => {
    const lru = new Lru<string, number>(3);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect(lru.get('a')).toBe(1); // a is now the newest: b is the oldest
    expect(lru.get('a')).toBe(1); // reading the newest again changes nothing
    lru.set('d', 4);
    expect(lru.has('b')).toBe(false);
    expect([lru.has('a'), lru.has('c'), lru.has('d')]).toEqual([true, true, true]);
    expect(lru.get('c')).toBe(3);
    lru.set('e', 5); // a, d, c, e: a is the oldest
    expect(lru.has('a')).toBe(false);
  });

  it('keeps the order right after the newest entry is deleted or replaced', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.delete('b');
    expect(lru.get('b')).toBeUndefined();
    lru.set('c', 3); // a, c
    expect(lru.get('a')).toBe(1); // c, a
    lru.set('d', 4); // a, d: c dropped
    expect(lru.has('c')).toBe(false);
    expect(lru.get('a')).toBe(1);
    lru.set('a', 10); // d, a
    lru.set('e', 5); // a, e: d dropped
    expect(lru.has('d')).toBe(false);
    expect(lru.get('a')).toBe(10);
  });
});
