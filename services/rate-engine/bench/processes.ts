import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, SERVICE_NODE_OPTIONS, stopProcess, waitForPort } from '@ratesmith/devstack';

/** A built Ratesmith process for the benchmarks, its output kept for errors. */
export interface BenchProcess {
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

export function startNode(
  script: string,
  args: string[],
  env: Record<string, string>,
): BenchProcess {
  let output = '';
  const child = spawn(process.execPath, [script, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'warn',
      // The flags production runs every service with (the chart's nodeOptions), unless a
      // run tries others (BENCH_NODE_OPTIONS, e.g. --max-semi-space-size=4; empty: Node's defaults).
      NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS ?? SERVICE_NODE_OPTIONS,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output, stop: () => stopProcess(child, 5000) };
}

export function serviceMain(name: string): string {
  return join(repoRoot, 'services', name, 'dist', 'main.js');
}

export async function waitReady(healthPort: number, what: BenchProcess, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (what.child.exitCode !== null) throw new Error(`process exited:\n${what.output()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${healthPort}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not ready within ${timeoutMs} ms:\n${what.output()}`);
}

export { waitForPort };

/** Resident memory of a process in MB, from /proc: now, or its peak so far (VmHWM). */
export function rssMb(pid: number, which: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${which}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return kb / 1024;
}
