import { monitorEventLoopDelay } from 'node:perf_hooks';
import { metrics } from '@opentelemetry/api';

/**
 * The process's own health on /metrics, measured inside it.
 *
 * The event loop's delay measured inside the process (a timer every 10 ms
 * and how late it fires), exported as the p99 and the max since the previous
 * collection, in seconds: `nodejs_eventloop_delay_p99` and
 * `nodejs_eventloop_delay_max` on /metrics. A loop that is seconds
 * behind answers every request late however few are in flight (R13 in
 * docs/reliability.md); from outside, a probe's answer time also counts the
 * operating system's queue.
 */
export function observeRuntime(): void {
  observeEventLoopDelay();
  observeMemory();
}

function observeEventLoopDelay(): void {
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

/**
 * Memory as the process sees it, in bytes: resident (`nodejs_memory_rss`), V8's
 * heap committed and in use (`nodejs_memory_heap_total`, `_heap_used`), and
 * memory outside the heap held by JavaScript objects (`_external`, of which
 * `_array_buffers` is Buffers). Resident far above the heap points at native
 * memory; a heap that keeps growing, at something kept.
 */
function observeMemory(): void {
  const meter = metrics.getMeter('ratesmith-runtime');
  const gauge = (name: string, description: string) =>
    meter.createObservableGauge(`nodejs.memory.${name}`, { unit: 'By', description });
  const gauges = {
    rss: gauge('rss', 'Resident memory of the process.'),
    heapTotal: gauge('heap_total', "V8's heap, committed."),
    heapUsed: gauge('heap_used', "V8's heap, in use."),
    external: gauge('external', 'Memory outside the heap held by JavaScript objects.'),
    arrayBuffers: gauge('array_buffers', 'ArrayBuffers and Buffers (part of external).'),
  };
  meter.addBatchObservableCallback((result) => {
    const usage = process.memoryUsage();
    for (const key of Object.keys(gauges) as (keyof typeof gauges)[])
      result.observe(gauges[key], usage[key]);
  }, Object.values(gauges));
}
