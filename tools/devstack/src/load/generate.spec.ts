import { figuresOf, quantile, summary } from './generate';

describe('figures', () => {
  const values = Array.from({ length: 100 }, (_, i) => i + 1);

  it('takes quantiles by nearest rank', () => {
    expect([quantile(values, 0.5), quantile(values, 0.99), quantile([], 0.5)]).toEqual([
      50,
      99,
      NaN,
    ]);
  });

  it('summarises latencies, zeros when there are none', () => {
    expect(summary(values)).toEqual({ p50: 50, p99: 99, max: 100 });
    expect(summary([])).toEqual({ p50: 0, p99: 0, max: 0 });
  });

  it('counts statuses and the answers judged wrong', () => {
    const f = figuresOf('calls', [
      { label: 'calls', status: 200, ms: 3, ok: true },
      { label: 'calls', status: 503, ms: 9, ok: false },
      { label: 'calls', status: 200, ms: 5 },
    ]);
    expect(f).toEqual({
      label: 'calls',
      count: 3,
      failures: 1,
      p50: 5,
      p99: 9,
      max: 9,
      statuses: { 200: 2, 503: 1 },
    });
  });
});
