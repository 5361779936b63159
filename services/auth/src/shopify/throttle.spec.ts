import { FALLBACK_WAIT_MS, throttleWaitMs } from './throttle';

const cost = (requested: number, available: number, restoreRate: number, max = 2000) => ({
  requestedQueryCost: requested,
  actualQueryCost: null,
  throttleStatus: { maximumAvailable: max, currentlyAvailable: available, restoreRate },
});

describe('throttleWaitMs', () => {
  it('waits until the bucket has refilled what the query needs', () => {
    expect(throttleWaitMs(cost(47, 0, 100))).toBe(470 + 50);
    expect(throttleWaitMs(cost(500, 300, 50))).toBe(4000 + 50);
    expect(throttleWaitMs(cost(47, 40, 1000))).toBe(7 + 50);
  });

  it('waits only the margin when enough is already available', () => {
    expect(throttleWaitMs(cost(47, 100, 100))).toBe(50);
  });

  it('never waits for a query that costs more than the bucket holds', () => {
    expect(throttleWaitMs(cost(2500, 0, 100, 2000))).toBe(Infinity);
  });

  it('falls back to a fixed wait without usable cost data', () => {
    expect(throttleWaitMs(undefined)).toBe(FALLBACK_WAIT_MS);
    expect(throttleWaitMs({ requestedQueryCost: 10 })).toBe(FALLBACK_WAIT_MS);
    expect(throttleWaitMs(cost(10, 0, 0))).toBe(FALLBACK_WAIT_MS);
  });
});
