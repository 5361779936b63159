import { Agent, request } from 'node:http';

/**
 * The load generators and their figures, for the load suites
 * (tools/devstack/test/load) and the fault suites (tools/devstack/test/faults):
 * plain node:http with a keep-alive agent, so what a run measures is the
 * service, not a client library. Every run stops by itself after `durationMs`.
 */

export interface LoadRequest {
  /** The route's name in the figures (e.g. "list rulesets"). */
  label: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Keep the answer's body in the sample (off under heavy load: it costs memory). */
  readBody?: boolean;
}

export interface Sample {
  label: string;
  /** HTTP status, 0 when no answer arrived. */
  status: number;
  ms: number;
  error?: string;
  /** Whether the answer was the right one, when the caller judged it (paced loops). */
  ok?: boolean;
  /** Milliseconds from the run's start to this request's (paced loops). */
  at?: number;
  /** The answer's body, when the request asked for it. */
  body?: string;
}

export interface LoadResult {
  samples: Sample[];
  elapsedMs: number;
}

/** Sends one request and reads the whole answer; status 0 and `error` when it failed. */
export function send(agent: Agent, req: LoadRequest, timeoutMs: number): Promise<Sample> {
  const started = performance.now();
  return new Promise((done) => {
    const finish = (status: number, error?: string, body?: string) =>
      done({ label: req.label, status, ms: performance.now() - started, error, body });
    const r = request(
      req.url,
      { method: req.method, headers: req.headers, agent, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => req.readBody && chunks.push(chunk));
        res.on('end', () =>
          finish(
            res.statusCode ?? 0,
            undefined,
            req.readBody ? Buffer.concat(chunks).toString('utf8') : undefined,
          ),
        );
        res.on('error', (err) => finish(0, err.message));
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on('error', (err) => finish(0, err.message));
    r.end(req.body);
  });
}

/**
 * Open loop: `rate` requests a second on a fixed schedule, whether or not
 * earlier ones answered (as checkout traffic arrives). Latency counts from
 * the scheduled start, so a stalled server is not hidden by the generator
 * waiting for it.
 */
export async function openLoop(options: {
  rate: number;
  durationMs: number;
  next: (i: number) => LoadRequest;
  timeoutMs?: number;
}): Promise<LoadResult> {
  const { rate, durationMs, next } = options;
  // FIFO: every pooled socket is reused in turn, so none sits idle until the server's
  // keep-alive timeout closes it just as it is picked (a reset no server would cause).
  const agent = new Agent({ keepAlive: true, maxSockets: 256, scheduling: 'fifo' });
  const total = Math.round((rate * durationMs) / 1000);
  const start = performance.now();
  const pending: Promise<Sample>[] = [];
  try {
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const lateBy = Math.max(0, performance.now() - due);
      pending.push(
        send(agent, next(i), options.timeoutMs ?? 10_000).then((s) => ({
          ...s,
          ms: s.ms + lateBy,
        })),
      );
    }
    const samples = await Promise.all(pending);
    return { samples, elapsedMs: performance.now() - start };
  } finally {
    agent.destroy();
  }
}

/**
 * Closed loop: `concurrency` clients, each sending its next request as soon
 * as the last one answered (as a crowd of browsers or a bot does). Shows
 * what the service does past its capacity.
 */
export async function closedLoop(options: {
  concurrency: number;
  durationMs: number;
  /** Stop after this many requests, if that comes before `durationMs`. */
  maxRequests?: number;
  next: (i: number) => LoadRequest;
  timeoutMs?: number;
}): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const samples: Sample[] = [];
  const start = performance.now();
  const end = start + options.durationMs;
  const max = options.maxRequests ?? Infinity;
  let i = 0;
  const client = async () => {
    while (performance.now() < end && i < max) {
      samples.push(await send(agent, options.next(i++), options.timeoutMs ?? 10_000));
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, client));
    return { samples, elapsedMs: performance.now() - start };
  } finally {
    agent.destroy();
  }
}

/** What a paced loop's call reports: its status and the caller's verdict. */
export interface JudgedAnswer {
  status: number;
  ok: boolean;
  /** What to show when it is wrong (an error, the body's message). */
  error?: string;
}

/**
 * Paced loop: starts a call every `intervalMs` with at most `concurrency`
 * in flight, until `durationMs` has passed or `count` calls were made (the
 * fault suites' traffic during a fault). Any call, not only one request: the
 * caller judges each answer. A call that throws counts as status 0, not ok.
 */
export async function pacedLoop(options: {
  label: string;
  durationMs: number;
  /** Most calls; unbounded by count unless set. */
  count?: number;
  /** Pause between starting two calls (default 20 ms, i.e. about 50 a second). */
  intervalMs?: number;
  /** Calls in flight at once (default 4). */
  concurrency?: number;
  call(i: number): Promise<JudgedAnswer>;
  /** Stops the loop early (e.g. a test's afterAll). */
  signal?: AbortSignal;
}): Promise<Sample[]> {
  const samples: Sample[] = [];
  const started = Date.now();
  const count = options.count ?? Number.POSITIVE_INFINITY;
  const inFlight = new Set<Promise<void>>();
  const over = () => Date.now() - started >= options.durationMs || options.signal?.aborted === true;
  for (let i = 0; i < count && !over(); i++) {
    const at = Date.now() - started;
    const one = options
      .call(i)
      .catch((err: Error): JudgedAnswer => ({ status: 0, ok: false, error: err.message }))
      .then((answer) => {
        samples.push({ label: options.label, ...answer, at, ms: Date.now() - started - at });
      });
    const tracked = one.finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
    if (inFlight.size >= (options.concurrency ?? 4)) await Promise.race(inFlight);
    await new Promise((r) => setTimeout(r, options.intervalMs ?? 20));
  }
  await Promise.all(inFlight);
  return samples.sort((a, b) => a.at! - b.at!);
}

/** The q-quantile (0..1) of a list of numbers, nearest rank; NaN when empty. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** p50, p99 and max of a list (0 each when empty): the one latency summary of tools/devstack. */
export function summary(values: number[]): { p50: number; p99: number; max: number } {
  if (values.length === 0) return { p50: 0, p99: 0, max: 0 };
  return {
    p50: quantile(values, 0.5),
    p99: quantile(values, 0.99),
    max: values.reduce((a, b) => Math.max(a, b), 0),
  };
}

export interface RouteFigures {
  label: string;
  count: number;
  /** Answers the caller judged wrong (paced loops; 0 where nothing is judged). */
  failures: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers by status (0: no answer). */
  statuses: Record<number, number>;
}

/** p50/p99/max and status counts per label, in the order labels first appear. */
export function figuresByRoute(samples: Sample[]): RouteFigures[] {
  const byLabel = new Map<string, Sample[]>();
  for (const s of samples) {
    const list = byLabel.get(s.label);
    if (list) list.push(s);
    else byLabel.set(s.label, [s]);
  }
  return [...byLabel].map(([label, list]) => figuresOf(label, list));
}

/** The figures of one run's samples under one label (zeros when there are none). */
export function figuresOf(label: string, samples: Sample[]): RouteFigures {
  const statuses: Record<number, number> = {};
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  return {
    label,
    count: samples.length,
    failures: samples.filter((s) => s.ok === false).length,
    ...summary(samples.map((s) => s.ms)),
    statuses,
  };
}

/** One line per route, for the test's output and the docs. */
export function formatFigures(figures: RouteFigures[]): string {
  return figures
    .map(
      (f) =>
        `${f.label.padEnd(22)} n=${String(f.count).padStart(6)}  p50 ${f.p50.toFixed(1)} ms  p99 ${f.p99.toFixed(1)} ms  max ${f.max.toFixed(1)} ms  ${JSON.stringify(f.statuses)}`,
    )
    .join('\n');
}

/** One line for a fault suite's output: `label: 812 calls, 0 failures, p50 4 ms, p99 30 ms, max 61 ms, statuses {...}`. */
export function figuresLine(f: RouteFigures): string {
  return (
    `${f.label}: ${f.count} calls, ${f.failures} failures, p50 ${f.p50} ms, p99 ${f.p99} ms, ` +
    `max ${f.max} ms, statuses ${JSON.stringify(f.statuses)}`
  );
}
