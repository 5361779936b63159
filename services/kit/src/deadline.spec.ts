import {
  CALLER_GONE_MESSAGE,
  checkTimeLeft,
  deadlineFromHeader,
  MAX_DEADLINE_AHEAD_MS,
  remainingMs,
  startWrite,
  withDeadline,
} from './deadline';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the deadline in scope', () => {
  it('is none outside a request: no time limit, nothing refused', () => {
    expect(remainingMs()).toBe(Infinity);
    expect(() => checkTimeLeft()).not.toThrow();
    expect(() => startWrite()).not.toThrow();
  });

  it('follows the handler through awaits and timers', async () => {
    await withDeadline(Date.now() + 10_000, async () => {
      await tick(5);
      const left = await new Promise<number>((resolve) =>
        setImmediate(() => resolve(remainingMs())),
      );
      expect(left).toBeGreaterThan(9_000);
      expect(left).toBeLessThanOrEqual(10_000);
    });
    expect(remainingMs()).toBe(Infinity);
  });

  it('keeps concurrent requests apart', async () => {
    const [soon, late] = await Promise.all([
      withDeadline(Date.now() + 100, async () => {
        await tick(5);
        return remainingMs();
      }),
      withDeadline(Date.now() + 60_000, async () => {
        await tick(5);
        return remainingMs();
      }),
    ]);
    expect(soon).toBeLessThanOrEqual(100);
    expect(late).toBeGreaterThan(59_000);
  });

  it('refuses once past, with an unavailable AppError saying the caller stopped waiting', async () => {
    await withDeadline(Date.now() + 20, async () => {
      expect(() => checkTimeLeft()).not.toThrow();
      await tick(30);
      expect(remainingMs()).toBeLessThanOrEqual(0);
      expect(() => checkTimeLeft()).toThrow(
        expect.objectContaining({
          name: 'AppError',
          kind: 'unavailable',
          message: CALLER_GONE_MESSAGE,
        }),
      );
    });
  });

  it('is lifted for work that follows an answer (withDeadline(undefined, …))', () => {
    withDeadline(Date.now() - 1, () => {
      expect(() => checkTimeLeft()).toThrow();
      withDeadline(undefined, () => expect(() => checkTimeLeft()).not.toThrow());
      // The request's own scope keeps its deadline.
      expect(() => checkTimeLeft()).toThrow();
    });
  });
});

describe('startWrite', () => {
  it('refuses a write once the caller stopped waiting, and the deadline stays', () => {
    withDeadline(Date.now() - 1, () => {
      expect(() => startWrite()).toThrow(expect.objectContaining({ kind: 'unavailable' }));
      expect(() => checkTimeLeft()).toThrow();
    });
  });

  it('lifts the deadline for the rest of the request once a write is sent', async () => {
    await withDeadline(Date.now() + 20, async () => {
      startWrite();
      await tick(30);
      expect(remainingMs()).toBe(Infinity);
      expect(() => startWrite()).not.toThrow();
    });
  });

  it('lifts it for the whole request, its parallel branches included, and no other', async () => {
    const other = withDeadline(Date.now() + 20, async () => {
      await tick(30);
      return remainingMs();
    });
    await withDeadline(Date.now() + 20, async () => {
      const branch = (async () => {
        await tick(30);
        return remainingMs();
      })();
      startWrite();
      expect(await branch).toBe(Infinity);
    });
    expect(await other).toBeLessThanOrEqual(0);
  });
});

describe('deadlineFromHeader', () => {
  const now = 1_800_000_000_000;

  it('reads epoch milliseconds, past ones included', () => {
    expect(deadlineFromHeader(String(now + 2000), now)).toBe(now + 2000);
    expect(deadlineFromHeader(String(now - 5), now)).toBe(now - 5);
  });

  it.each([undefined, '', 'soon', '-5', '1.5e12', '12 34', ' 1800000000000', '9'.repeat(16)])(
    'takes a missing or malformed value (%j) as no deadline',
    (value) => {
      expect(deadlineFromHeader(value, now)).toBeUndefined();
    },
  );

  it('caps a deadline further than five minutes ahead to five minutes', () => {
    expect(MAX_DEADLINE_AHEAD_MS).toBe(300_000);
    expect(deadlineFromHeader(String(now + 3_600_000), now)).toBe(now + MAX_DEADLINE_AHEAD_MS);
    expect(deadlineFromHeader(String(now + MAX_DEADLINE_AHEAD_MS), now)).toBe(
      now + MAX_DEADLINE_AHEAD_MS,
    );
  });
});
