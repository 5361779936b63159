import { KeyedRateLimiter } from './rate-limiter';

describe('KeyedRateLimiter', () => {
  it('allows a burst of the limit, then refuses with the wait, then refills over time', () => {
    let now = 0;
    const limiter = new KeyedRateLimiter(60, () => now);
    for (let i = 0; i < 60; i++) expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(1);
    now += 1000;
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(1);
  });

  it('keeps keys apart', () => {
    const limiter = new KeyedRateLimiter(1, () => 0);
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('a')).toBe(60);
    expect(limiter.take('b')).toBe(0);
  });

  it('forgets the least recently seen keys beyond its bound', () => {
    const limiter = new KeyedRateLimiter(1, () => 0, 2);
    limiter.take('a');
    limiter.take('b');
    limiter.take('c');
    // 'a' was evicted, so it starts with a full bucket again.
    expect(limiter.take('a')).toBe(0);
    expect(limiter.take('c')).toBe(60);
  });
});
