import { Agent, request } from 'node:http';

/**
 * Load generators for the load suites (tools/devstack/test/load): plain
 * node:http with a keep-alive agent, so what a run measures is the service,
 * not a client library. Every run stops by itself after `durationMs`.
 */

export interface LoadRequest {
  /** The route's name in the figures (e.g. "list rulesets"). */
  label: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Sample {
  label: string;
  status: number;
  ms: number;
  error?: string;
}

export interface LoadResult {
  samples: Sample[];
  elapsedMs: number;
}

/** Sends one request and reads the whole answer; status 0 and `error` when it failed. */
export function send(agent: Agent, req: LoadRequest, timeoutMs: number): Promise<Sample> {
  const started = performance.now();
  return new Promise((done) => {
    const finish = (status: number, error?: string) =>
      done({ label: req.label, status, ms: performance.now() - started, error });
    const r = request(
      req.url,
      { method: req.method, headers: req.headers, agent, timeout: timeoutMs },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => finish(res.statusCode ?? 0));
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

/** The q-quantile (0..1) of a list of numbers, nearest rank; NaN when empty. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

export interface RouteFigures {
  label: string;
  count: number;
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
  return [...byLabel].map(([label, list]) => {
    const ms = list.map((s) => s.ms);
    const statuses: Record<number, number> = {};
    for (const s of list) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
    return {
      label,
      count: list.length,
      p50: quantile(ms, 0.5),
      p99: quantile(ms, 0.99),
      max: ms.reduce((a, b) => Math.max(a, b), 0),
      statuses,
    };
  });
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
