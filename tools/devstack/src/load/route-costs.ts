import { readFileSync } from 'node:fs';
import { startFaultStack, type FaultStack } from '../faults/stack';
import { AdminCalls } from './admin-api';
import { startFerretDbWithCommandLog, type LoggedMongo } from './mongo-commands';

/**
 * What one API call costs the stack, counted rather than timed, so the
 * figures hold on a machine shared with other work: the MongoDB
 * commands it caused (FerretDB's command log), the NATS requests each
 * service answered (the services' `ratesmith_rpc_server_duration` counts on
 * /metrics) and the CPU time each process spent (/proc, Linux).
 */

/** CPU time (user + system) a process has used so far, in ms. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  // Linux reports clock ticks of 1/100 s (USER_HZ) on every architecture Node runs on.
  return ticks * 10;
}

/** NATS requests a service answered so far, by method, from its /metrics. */
export async function rpcCounts(healthPort: number): Promise<Record<string, number>> {
  const res = await fetch(`http://127.0.0.1:${healthPort}/metrics`, {
    signal: AbortSignal.timeout(5000),
  });
  const text = await res.text();
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^ratesmith_rpc_server_duration_count\{([^}]*)\} (\d+)/gm)) {
    const method = /rpc_method="([^"]+)"|method="([^"]+)"/.exec(m[1]!);
    const name = method?.[1] ?? method?.[2] ?? 'unknown';
    counts[name] = (counts[name] ?? 0) + Number(m[2]);
  }
  return counts;
}

export interface Process {
  name: string;
  pid: number;
  /** Where its /metrics answer (services; not FerretDB). */
  healthPort?: number;
}

export interface RouteCost {
  label: string;
  calls: number;
  /** MongoDB commands per call, by name, until each answer. */
  commandsBeforeAnswer: Record<string, number>;
  /** The same by `command collection` (`insert versions`). */
  targetsBeforeAnswer: Record<string, number>;
  /** MongoDB commands per call, by name, including what followed the answer (settled). */
  commands: Record<string, number>;
  /** NATS requests answered per call, as `service.method`. */
  rpcs: Record<string, number>;
  /** KB FerretDB answered per call (what the services decoded), incl. after the answer. */
  replyKb: number;
  /** CPU ms per call, by process. */
  cpuMs: Record<string, number>;
  /** FerretDB's answer time per call, by `command collection`, incl. after the answer. */
  mongoMs: Record<string, number>;
  /** Wall-clock ms of each call, sorted (secondary: it depends on the machine's load). */
  wallMs: number[];
}

function countNames(names: string[], into: Record<string, number>): void {
  for (const n of names) into[n] = (into[n] ?? 0) + 1;
}

function perCall(totals: Record<string, number>, calls: number): Record<string, number> {
  return Object.fromEntries(
    Object.entries(totals)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => [k, Math.round((n / calls) * 100) / 100]),
  );
}

/** Sum of a count map's values. */
export function total(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/** Resolves once no MongoDB command came for `quietMs` (at most 20 s). */
export async function settled(mongo: LoggedMongo, quietMs: number): Promise<void> {
  const until = Date.now() + 20_000;
  let seen = mongo.mark();
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, quietMs));
    const now = mongo.mark();
    if (now === seen) return;
    seen = now;
  }
}

/**
 * Makes `calls` calls one after another with `call(i)` and counts their cost.
 * After each answer it waits until MongoDB is quiet for `settleMs` (or as long
 * as the call took, if longer), so work
 * that follows an answer (a version's write) counts in `commands`, not in the
 * next call's commands before its answer.
 */
export async function measureRoute(options: {
  label: string;
  calls: number;
  call: (i: number) => Promise<void>;
  mongo: LoggedMongo;
  processes: Process[];
  settleMs?: number;
}): Promise<RouteCost> {
  const { mongo, processes, calls } = options;
  const rpcsOf = async (p: Process): Promise<Record<string, number>> =>
    p.healthPort ? rpcCounts(p.healthPort) : {};
  const rpcBefore = await Promise.all(processes.map(rpcsOf));
  const bytesBefore = mongo.replyBytes();
  const cpuBefore = processes.map((p) => cpuMs(p.pid));
  const before: Record<string, number> = {};
  const targetsBefore: Record<string, number> = {};
  const wallMs: number[] = [];
  const start = mongo.mark();
  for (let i = 0; i < calls; i++) {
    const mark = mongo.mark();
    const t0 = performance.now();
    await options.call(i);
    wallMs.push(performance.now() - t0);
    // FerretDB logs a request as it reads it: what is there now came before the answer.
    countNames(mongo.commandsSince(mark), before);
    countNames(
      mongo.timesSince(mark).map((t) => t.command),
      targetsBefore,
    );
    // Work after the answer belongs to this call, not the next one's "before".
    // As long as the call took, at least: what follows a slow answer is slow too.
    await settled(mongo, Math.max(options.settleMs ?? 400, wallMs.at(-1)!));
  }
  const all: Record<string, number> = {};
  countNames(mongo.commandsSince(start), all);
  const mongoMs: Record<string, number> = {};
  for (const { command, ms } of mongo.timesSince(start))
    mongoMs[command] = (mongoMs[command] ?? 0) + (ms ?? 0);
  const cpuAfter = processes.map((p) => cpuMs(p.pid));
  const rpcAfter = await Promise.all(processes.map(rpcsOf));
  const replyKb = (mongo.replyBytes() - bytesBefore) / 1024 / calls;
  const rpcs: Record<string, number> = {};
  processes.forEach((p, k) => {
    for (const [method, n] of Object.entries(rpcAfter[k]!)) {
      const delta = n - (rpcBefore[k]![method] ?? 0);
      if (delta > 0) rpcs[`${p.name}.${method}`] = delta;
    }
  });
  return {
    label: options.label,
    calls,
    commandsBeforeAnswer: perCall(before, calls),
    targetsBeforeAnswer: perCall(targetsBefore, calls),
    commands: perCall(all, calls),
    rpcs: perCall(rpcs, calls),
    replyKb: Math.round(replyKb * 10) / 10,
    cpuMs: Object.fromEntries(
      processes.map((p, k) => [
        p.name,
        Math.round(((cpuAfter[k]! - cpuBefore[k]!) / calls) * 10) / 10,
      ]),
    ),
    mongoMs: Object.fromEntries(
      Object.entries(mongoMs)
        .sort(([, a], [, b]) => b - a)
        .map(([command, ms]) => [command, Math.round((ms / calls) * 10) / 10]),
    ),
    wallMs: wallMs.sort((a, b) => a - b),
  };
}

/** A Markdown table of the costs, for docs/performance.md. */
export function formatCosts(costs: RouteCost[]): string {
  const counts = (c: Record<string, number>) =>
    `${total(c)} (${Object.entries(c)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ')})`;
  const lines = [
    '| route | MongoDB commands before the answer | all, incl. after | KB from MongoDB | NATS requests | CPU ms per call | wall p50 |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const c of costs) {
    const cpu = Object.entries(c.cpuMs)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    const p50 = c.wallMs[Math.floor(c.wallMs.length / 2)]!;
    lines.push(
      `| ${c.label} | ${counts(c.commandsBeforeAnswer)} | ${counts(c.commands)} | ${c.replyKb} | ${counts(c.rpcs)} | ${cpu} | ${p50.toFixed(0)} ms |`,
    );
  }
  lines.push(
    '',
    '| route | FerretDB answer time per call, by command and collection (ms; the 4 longest) |',
    '|---|---|',
  );
  for (const c of costs) {
    const top = Object.entries(c.mongoMs)
      .slice(0, 4)
      .map(([command, ms]) => `${command} ${ms}`)
      .join(', ');
    lines.push(`| ${c.label} | ${top} |`);
  }
  return lines.join('\n');
}

/** A stack whose MongoDB commands are logged, and a call that must answer 200. */
export interface CountedStack {
  mongo: LoggedMongo;
  stack: FaultStack;
  calls: AdminCalls;
  /** The body of a 200, else an error naming the call, its answer and the last log lines. */
  ok(method: string, path: string, body?: unknown): Promise<any>;
}

/**
 * The services as `npm start` runs them on a FerretDB that logs every
 * command, for `shop`: what the cost suites count. FerretDB's debug log slows
 * every command, so the time limits are long (only counts matter).
 */
export async function startCountedStack(shop: string): Promise<CountedStack> {
  const mongo = await startFerretDbWithCommandLog();
  const stack = await startFaultStack({
    demoShops: [shop],
    base: 'npm-start',
    mongo: async () => mongo,
    env: {
      API_RATE_LIMIT: '0',
      NATS_REQUEST_TIMEOUT_MS: '30000',
      MONGODB_TIMEOUT_MS: '25000',
      // The counts are of each call and what follows it; the prune of old versions waits
      // for a quiet shop (services/rules/src/domain/version-pruning.ts), never in a count.
      VERSION_PRUNE_QUIET_MS: '600000',
    },
  });
  const calls = new AdminCalls(stack.service('gateway').url, shop);
  await calls.refreshToken();
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await calls.call(method, path, body);
    if (res.status !== 200) {
      const logs = (['rules', 'gateway'] as const)
        .map((name) => `${name}: ${stack.service(name).logText().split('\n').slice(-6).join('\n')}`)
        .join('\n');
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}\n${logs}`);
    }
    return res.body;
  };
  return { mongo, stack, calls, ok };
}
