/**
 * A bounded map that drops the least recently used entry when full. A Map
 * keeps insertion order, so re-inserting on access keeps the oldest first.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  /** The key inserted last (the most recently used), if it is still there. */
  private newest: K | undefined;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.map.size;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    // Re-inserting the newest entry changes nothing but costs the Map a new
    // slot (and, every few calls, a new table that outlives the young generation).
    if (key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, value);
      this.newest = key;
    }
    return value;
  }

  /** The value without touching its place. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    this.newest = key;
    while (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value as K;
      this.map.delete(oldest);
    }
  }

  delete(key: K): void {
    this.map.delete(key);
    if (key === this.newest) this.newest = undefined;
  }
}
