import { monitorEventLoopDelay } from 'node:perf_hooks';
import { metrics } from '@opentelemetry/api';

/**
 * The event loop's delay measured inside the process (a timer every 10 ms
 * and how late it fires), exported as the p99 and the max since the previous
 * collection, in seconds: `nodejs_eventloop_delay_p99` and
 * `nodejs_eventloop_delay_max` on /metrics. A loop that is seconds
 * behind answers every request late however few are in flight (R13 in
 * docs/reliability.md); from outside, a probe's answer time also counts the
 * operating system's queue.
 */
export function observeEventLoopDelay(): void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const meter = metrics.getMeter('ratesmith-runtime');
  const p99 = meter.createObservableGauge('nodejs.eventloop.delay.p99', {
    unit: 's',
    description: "The event loop's delay, 99th percentile since the previous collection.",
  });
  const max = meter.createObservableGauge('nodejs.eventloop.delay.max', {
    unit: 's',
    description: "The event loop's longest delay since the previous collection.",
  });
  meter.addBatchObservableCallback(
    (result) => {
      // Before the first sample the histogram reads NaN / a huge minimum: nothing to say.
      if (delay.count > 0) {
        result.observe(p99, delay.percentile(99) / 1e9);
        result.observe(max, delay.max / 1e9);
      }
      delay.reset();
    },
    [p99, max],
  );
}
