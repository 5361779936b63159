import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { quantile, send } from './generate';

/** Resident memory of a running process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) / 1024;
}

/**
 * Watches processes from outside while a run goes on: their RSS every
 * `everyMs`, and the time a health URL of each takes to answer. A process
 * answers its health port on the same event loop as its traffic, so that
 * time is its event-loop delay plus a loopback round trip: an upper bound
 * on the delay, measured without touching the service's code.
 */
export class ProcessWatch {
  private readonly rss = new Map<number, number[]>();
  private readonly probes = new Map<string, number[]>();
  private timer: NodeJS.Timeout | undefined;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });
  private inFlight = 0;

  constructor(
    private readonly targets: { name: string; pid: number; healthUrl?: string }[],
    private readonly everyMs = 100,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.sample(), this.everyMs);
  }

  private sample(): void {
    for (const t of this.targets) {
      try {
        const list = this.rss.get(t.pid) ?? [];
        list.push(rssMb(t.pid));
        this.rss.set(t.pid, list);
      } catch {
        // the process is gone: the test's own checks say so
      }
      // One probe at a time per target, so a stalled process is one long sample, not a pile.
      if (t.healthUrl && this.inFlight < this.targets.length) {
        this.inFlight++;
        void send(this.agent, { label: t.name, method: 'GET', url: t.healthUrl }, 5000).then(
          (s) => {
            this.inFlight--;
            const list = this.probes.get(t.name) ?? [];
            list.push(s.status === 200 ? s.ms : 5000);
            this.probes.set(t.name, list);
          },
        );
      }
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.agent.destroy();
  }

  /** Largest RSS seen of a target, in MB. */
  maxRssMb(name: string): number {
    const pid = this.targets.find((t) => t.name === name)!.pid;
    return Math.max(0, ...(this.rss.get(pid) ?? []));
  }

  /** p99 of the health probe's answer time (ms): the loop-delay bound. */
  probeP99(name: string): number {
    return quantile(this.probes.get(name) ?? [], 0.99);
  }

  probeCount(name: string): number {
    return this.probes.get(name)?.length ?? 0;
  }
}
