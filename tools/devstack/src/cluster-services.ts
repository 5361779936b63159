import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { DEMO_API_KEY, DEMO_API_SECRET, type BusService } from '@ratesmith/kit';
import type { BusTls, BusUsers } from './bus';
import { freePort, nodeOptionsOf, repoRoot, stopProcess } from './servers';

/**
 * Replicas of the services as processes from their dist/main.js, each with
 * the environment `npm start` gives it (tools/devstack/src/start.ts: demo
 * mode, its own NATS user, TLS) plus its own ports. Each replica's output is
 * appended to one log file across restarts, so what it did before a kill is
 * still there to read.
 */
export const SERVICES_IN_START_ORDER = [
  'auth',
  'rules',
  'catalog',
  'rate-engine',
  'gateway',
] as const satisfies readonly BusService[];
export type ServiceName = (typeof SERVICES_IN_START_ORDER)[number];

/** Seals demo tokens only; the same key as `npm start`. */
const DEMO_TOKEN_KEYS = `demo:${Buffer.alloc(32, 42).toString('base64')}`;

export interface SharedEnv {
  natsUrl: string;
  mongoUri: string;
  users: BusUsers;
  tls: BusTls;
  shopifyOrigin: string;
  demoShops: string[];
  /** The first gateway's URL (OAuth redirects) and the first engine's (carrier callbacks). */
  appUrl: string;
  rateEngineUrl: string;
  /** Anything else every replica gets (JETSTREAM_REPLICAS, retry periods, log level). */
  extra: Record<string, string>;
}

/** How a process ended after a SIGTERM. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** From the SIGTERM to the exit. */
  ms: number;
}

export class ServiceReplica {
  private child: ChildProcess | undefined;
  private log: WriteStream | undefined;
  readonly logFile: string;
  /** When it was last started. */
  startedAt = 0;

  constructor(
    readonly service: ServiceName,
    readonly index: number,
    readonly ports: { health: number; http: number },
    private readonly shared: SharedEnv,
    logDir: string,
  ) {
    mkdirSync(logDir, { recursive: true });
    this.logFile = join(logDir, `${this.id}.log`);
  }

  static async create(
    service: ServiceName,
    index: number,
    shared: SharedEnv,
    logDir: string,
    httpPort?: number,
  ): Promise<ServiceReplica> {
    const ports = { health: await freePort(), http: httpPort ?? (await freePort()) };
    return new ServiceReplica(service, index, ports, shared, logDir);
  }

  get id(): string {
    return `${this.service}-${this.index + 1}`;
  }

  /** Where its HTTP port answers: the gateway's API, the engine's carrier callback. */
  get url(): string {
    return `http://127.0.0.1:${this.ports.http}`;
  }

  running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): void {
    if (this.running()) throw new Error(`${this.id} is already running`);
    const { shared } = this;
    this.log ??= createWriteStream(this.logFile, { flags: 'a' });
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'services', this.service, 'dist', 'main.js')],
      {
        env: {
          PATH: process.env.PATH ?? '',
          // scripts/node24.sh's cache of compiled modules, when the caller has one.
          ...(process.env.NODE_COMPILE_CACHE
            ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE }
            : {}),
          NODE_ENV: 'development',
          NODE_OPTIONS: nodeOptionsOf(this.service),
          LOG_LEVEL: 'info',
          NATS_URL: shared.natsUrl,
          NATS_NKEY_SEED: shared.users[this.service].seed,
          NATS_TLS_CA_FILE: shared.tls.caFile,
          MONGODB_URI: shared.mongoUri,
          HEALTH_PORT: String(this.ports.health),
          PORT: String(this.ports.http),
          CARRIER_PORT: String(this.ports.http),
          DEMO_MODE: 'true',
          DEMO_SHOPS: shared.demoShops.join(','),
          SHOPIFY_API_KEY: DEMO_API_KEY,
          SHOPIFY_API_SECRET: DEMO_API_SECRET,
          CARRIER_HMAC_MODE: 'monitor',
          APP_URL: shared.appUrl,
          SHOPIFY_API_ORIGIN: shared.shopifyOrigin,
          PRODUCT_EXPORT_FILE_ORIGINS: `https://storage.googleapis.com,${shared.shopifyOrigin}`,
          TOKEN_ENCRYPTION_KEYS: DEMO_TOKEN_KEYS,
          RATE_ENGINE_URL: shared.rateEngineUrl,
          ...shared.extra,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout!.pipe(this.log, { end: false });
    child.stderr!.pipe(this.log, { end: false });
    this.child = child;
    this.startedAt = Date.now();
  }

  /**
   * Waits until /readyz answers 200 (bounded); fails at once if the process exits.
   * The failure carries the last /readyz answer and the log's tail: the run's folder,
   * logs included, is gone once the stack stops.
   */
  async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let lastAnswer = 'none';
    while (Date.now() < deadline) {
      if (!this.running()) throw new Error(`${this.id} exited\n${this.logTail()}`);
      const ok = await fetch(`http://127.0.0.1:${this.ports.health}/readyz`, {
        signal: AbortSignal.timeout(1000),
      })
        .then(async (r) => {
          lastAnswer = `${r.status} ${(await r.text()).slice(0, 300)}`;
          return r.ok;
        })
        .catch((err: unknown) => {
          lastAnswer = String(err);
          return false;
        });
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(
      `${this.id} was not ready within ${timeoutMs} ms (ports ${JSON.stringify(this.ports)}); last /readyz: ${lastAnswer}\n${this.logTail()}`,
    );
  }

  /** The last lines its process wrote, for a failure's message (its folder goes with the stack). */
  logTail(lines = 30): string {
    try {
      return `log (${this.logFile}), last ${lines} lines:\n${readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')}`;
    } catch (err) {
      return `log ${this.logFile} not read: ${String(err)}`;
    }
  }

  /** SIGKILL, as a node that dies: nothing is drained or closed. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !this.running()) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGKILL');
    await exited;
  }

  /**
   * SIGTERM, as Kubernetes stops a pod: resolves once the process is gone,
   * with its exit code and how long it took; SIGKILL after `timeoutMs`.
   */
  async terminate(timeoutMs: number): Promise<Exit> {
    const child = this.child;
    if (!child || !this.running()) throw new Error(`${this.id} is not running`);
    const started = Date.now();
    const exited = new Promise<Exit>((done) =>
      child.once('exit', (code, signal) => done({ code, signal, ms: Date.now() - started })),
    );
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    try {
      return await exited;
    } finally {
      clearTimeout(killer);
    }
  }

  async stop(): Promise<void> {
    if (this.child) await stopProcess(this.child, 5000);
    await new Promise<void>((done) => (this.log ? this.log.end(done) : done()));
    this.log = undefined;
  }

  /** Everything it logged so far, across restarts. */
  logText(): string {
    try {
      return readFileSync(this.logFile, 'utf8');
    } catch {
      return '';
    }
  }
}
