import {
  backwardRates,
  staleRates,
  unansweredCallbacks,
  unclearSaveErrors,
  unsavedRates,
  type CallbackRecord,
  type SaveRecord,
} from './cluster-checks';

const call = (engine: string, startedAt: number, endedAt: number, cents?: number) =>
  ({
    engine,
    startedAt,
    endedAt,
    status: cents === undefined ? 503 : 200,
    cents,
  }) as CallbackRecord;

const save = (n: number, startedAt: number, endedAt: number, acknowledged = true): SaveRecord => ({
  n,
  cents: n * 100,
  gateway: 'gateway-1',
  startedAt,
  endedAt,
  status: acknowledged ? 200 : 503,
  acknowledged,
  message: acknowledged ? undefined : 'The rules service did not answer in time.',
});

describe('the checks of a cluster run', () => {
  const saves = [save(1, 0, 10), save(2, 100, 110), save(3, 200, 210, false), save(4, 300, 310)];

  it('finds callbacks without a rate', () => {
    expect(unansweredCallbacks([call('e1', 0, 5, 100), call('e1', 5, 9)])).toHaveLength(1);
  });

  it('finds a rate no save set, or set only by a save begun after the callback ended', () => {
    const found = unsavedRates(
      [call('e1', 20, 30, 100), call('e1', 20, 30, 150), call('e1', 250, 260, 400)],
      saves,
    );
    expect(found.map((c) => c.cents)).toEqual([150, 400]);
  });

  it('accepts the fee of a failed save (it may have been stored)', () => {
    expect(unsavedRates([call('e1', 250, 260, 300)], saves)).toEqual([]);
  });

  it('finds a rate older than the last save acknowledged a window before the callback', () => {
    const callbacks = [
      call('e1', 150, 155, 100),
      call('e1', 400, 405, 200),
      call('e1', 400, 405, 400),
    ];
    expect(staleRates(callbacks, saves, 50).map((s) => s.callback.cents)).toEqual([200]);
    expect(staleRates(callbacks, saves, 50)[0]!.expectedAtLeast).toBe(400);
    // Within the window, the older fee is still allowed.
    expect(staleRates(callbacks, saves, 200)).toEqual([]);
  });

  it('finds an engine going back, and allows overlapping callbacks to finish out of order', () => {
    const back = [call('e1', 0, 10, 200), call('e1', 20, 30, 100), call('e2', 40, 50, 100)];
    expect(backwardRates(back)).toEqual([{ earlier: back[0], later: back[1] }]);
    const overlapping = [call('e1', 0, 30, 200), call('e1', 10, 20, 100)];
    expect(backwardRates(overlapping)).toEqual([]);
  });

  it('finds failed saves that told the merchant nothing', () => {
    const silent = { ...save(5, 400, 410, false), status: 0 };
    const unexplained = { ...save(6, 500, 510, false), message: '' };
    expect(unclearSaveErrors([...saves, silent, unexplained]).map((s) => s.n)).toEqual([5, 6]);
  });
});
