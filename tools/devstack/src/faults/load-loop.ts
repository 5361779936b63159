import { summary } from '../cluster-checks';

/**
 * A bounded load loop: calls `call` at a steady pace until `durationMs` has
 * passed or `count` calls were made, whichever comes first, with at most
 * `concurrency` in flight, and records every answer with its latency. It
 * never runs on past its bounds, so a test that forgets it cannot hang on it.
 */
export interface Answer {
  /** Milliseconds since the loop started. */
  at: number;
  ms: number;
  /** HTTP status, 0 when no answer arrived. */
  status: number;
  /** Whether the answer was the right one, as `call` judged it. */
  ok: boolean;
  detail?: string;
}

export interface LoadLoopOptions {
  durationMs: number;
  /** Most calls; unbounded by count unless set. */
  count?: number;
  /** Pause between starting two calls (default 20 ms, i.e. about 50 a second). */
  intervalMs?: number;
  /** Calls in flight at once (default 4). */
  concurrency?: number;
  call(i: number): Promise<Omit<Answer, 'at' | 'ms'>>;
  /** Stops the loop early (e.g. a test's afterAll). */
  signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runLoadLoop(options: LoadLoopOptions): Promise<Answer[]> {
  const answers: Answer[] = [];
  const started = Date.now();
  const interval = options.intervalMs ?? 20;
  const count = options.count ?? Number.POSITIVE_INFINITY;
  const inFlight = new Set<Promise<void>>();
  const over = () => Date.now() - started >= options.durationMs || options.signal?.aborted === true;
  for (let i = 0; i < count && !over(); i++) {
    const at = Date.now() - started;
    const one = options
      .call(i)
      .catch((err: Error) => ({ status: 0, ok: false, detail: err.message }))
      .then((answer) => {
        answers.push({ ...answer, at, ms: Date.now() - started - at });
      });
    const tracked = one.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    if (inFlight.size >= (options.concurrency ?? 4)) await Promise.race(inFlight);
    await sleep(interval);
  }
  await Promise.all(inFlight);
  return answers.sort((a, b) => a.at - b.at);
}

export interface LoadFigures {
  calls: number;
  failures: number;
  p50: number;
  p99: number;
  max: number;
  /** Count per HTTP status (0: no answer). */
  statuses: Record<string, number>;
}

export function loadFigures(answers: Answer[]): LoadFigures {
  const statuses: Record<string, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  return {
    calls: answers.length,
    failures: answers.filter((a) => !a.ok).length,
    ...summary(answers.map((a) => a.ms)),
    statuses,
  };
}

/** One line for a test's output: `label: 812 calls, 0 failures, p50 4 ms, p99 30 ms, max 61 ms`. */
export function figuresLine(label: string, f: LoadFigures): string {
  return (
    `${label}: ${f.calls} calls, ${f.failures} failures, p50 ${f.p50} ms, p99 ${f.p99} ms, ` +
    `max ${f.max} ms, statuses ${JSON.stringify(f.statuses)}`
  );
}
