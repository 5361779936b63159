import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { natsServerConfig, type BusClusterNode, type BusTls, type BusUsers } from './bus';
import { timed } from './stack-timings';

/**
 * Local stand-ins for the servers production gets from Kubernetes: a NATS
 * server with JetStream, and FerretDB (MongoDB wire protocol on PostgreSQL),
 * each on a free loopback port. Used by `npm start` and by integration tests;
 * every caller gets its own processes, so nothing is shared between runs.
 */

export const repoRoot = resolve(__dirname, '..', '..', '..');
export const toolCache = process.env.RATESMITH_CACHE ?? join(homedir(), '.cache', 'ratesmith');

/**
 * NODE_OPTIONS of every service process the devstack starts: the chart's
 * `nodeOptions` default (charts/ratesmith/values.yaml; charts/test keeps the
 * two equal), so \`npm start\` and the load suites run what production runs.
 */
export const SERVICE_NODE_OPTIONS = '--max-semi-space-size=8';

/**
 * What one service adds to SERVICE_NODE_OPTIONS (the chart's
 * `services.<name>.nodeOptions`). The gateway's heap is capped: its live heap
 * is about 50 MB, but without a cap V8 let it grow to 160 MB under 200 clients
 * and the process to 310-321 MB resident, over R13's 300 MB (docs/reliability.md).
 */
const EXTRA_NODE_OPTIONS: Record<string, string> = { gateway: '--max-old-space-size=160' };

/** NODE_OPTIONS of a service's process, as the chart gives it. */
export function nodeOptionsOf(service: string): string {
  return [SERVICE_NODE_OPTIONS, EXTRA_NODE_OPTIONS[service]].filter(Boolean).join(' ');
}

export interface RunningServer {
  url: string;
  port: number;
  /** Where the server keeps its data; start another on the same port and folder to restart it. */
  dataDir: string;
  process: ChildProcess;
  /** Ends the process (SIGTERM, then SIGKILL after 5 s) and waits for it. */
  stop(): Promise<void>;
}

/** Ports this process was told are taken (e.g. the gateway's PORT): never handed out. */
const reservedPorts = new Set<number>();

/** Marks ports this process will bind later (e.g. the gateway's PORT) so freePort skips them. */
export function reservePorts(...ports: number[]): void {
  for (const port of ports) reservedPorts.add(port);
}

/**
 * Test servers listen below the OS's ephemeral range (32768–60999 here), each
 * process in a slice of its own: a port taken by listening on 0 is one an
 * outgoing connection, or another jest worker's probe, may take before the
 * server binds it, and two servers on one port answer each other's calls. The
 * slices come in three groups: one for processes outside jest's workers (jest's
 * own, whose global setup starts the browser tests' app, and `npm start`), one
 * for each of the two workers (children inherit their worker's id and pick
 * within its group by pid). Within a slice a process moves on from port to port,
 * so a port comes round again only after the whole slice.
 */
const PORT_BASE = 10_000;
const PORT_GROUPS = 3;
const SLICES_PER_GROUP = 8;
const PORT_SLICE_SIZE = 900;
const worker = Number(process.env.JEST_WORKER_ID) || 0;
const portGroup = worker === 0 ? 0 : 1 + ((worker - 1) % (PORT_GROUPS - 1));
const portSlice = portGroup * SLICES_PER_GROUP + (process.pid % SLICES_PER_GROUP);
let portCursor = Math.floor(Math.random() * PORT_SLICE_SIZE);

/** A port nothing listens on now, in this process's slice, not handed out lately. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < PORT_SLICE_SIZE; tries++) {
    const port = PORT_BASE + portSlice * PORT_SLICE_SIZE + (portCursor++ % PORT_SLICE_SIZE);
    if (!reservedPorts.has(port) && (await canListen(port))) return port;
  }
  throw new Error(`no free port in ${PORT_BASE + portSlice * PORT_SLICE_SIZE}+${PORT_SLICE_SIZE}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.unref();
    server.once('error', () => done(false));
    server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
  });
}

export async function waitForPort(
  port: number,
  timeoutMs: number,
  child?: ChildProcess,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`process exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((done) => {
      const socket = tcpConnect({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        done(true);
      });
      socket.once('error', () => done(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
}

export function stopProcess(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

let natsServerPath: string | undefined;

/**
 * The pinned nats-server (scripts/ensure-nats-server.sh: v2.15.2, from PATH when it is
 * that version, else built once with Go into the tool cache), or NATS_SERVER_BIN.
 * `npm start`, every test harness and the cluster run this one binary; Debian's
 * nats-server (2.9.10) is not taken from PATH. Asked once per process.
 */
export function natsServerBinary(): string {
  if (process.env.NATS_SERVER_BIN) return process.env.NATS_SERVER_BIN;
  natsServerPath ??= execFileSync('bash', [join(repoRoot, 'scripts', 'ensure-nats-server.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  return natsServerPath;
}

/** FerretDB, built once into the tool cache by scripts/ensure-ferretdb.sh. */
export function ferretDbBinary(): string {
  if (process.env.FERRETDB_BIN) return process.env.FERRETDB_BIN;
  return execFileSync('bash', [join(repoRoot, 'scripts', 'ensure-ferretdb.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A server on a temporary folder removes the folder when stopped; a given folder is kept. */
function managed(
  url: string,
  port: number,
  dataDir: string,
  child: ChildProcess,
  temporary: boolean,
): RunningServer {
  return {
    url,
    port,
    dataDir,
    process: child,
    stop: async () => {
      await stopProcess(child);
      if (temporary) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startNatsServerUntimed(
  options: {
    port?: number;
    storeDir?: string;
    quiet?: boolean;
    /** Users and permissions (tools/devstack/src/bus.ts); anyone may connect without. */
    users?: BusUsers;
    tls?: BusTls;
    /** A node of a cluster (tools/devstack/src/cluster.ts): its unique name and routes. */
    serverName?: string;
    cluster?: BusClusterNode;
    logFile?: string;
  } = {},
): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const storeDir = options.storeDir ?? tempDir('ratesmith-nats-');
  mkdirSync(storeDir, { recursive: true });
  const configFile = join(storeDir, 'nats-server.conf');
  writeFileSync(
    configFile,
    natsServerConfig({
      port,
      storeDir,
      users: options.users,
      tls: options.tls,
      serverName: options.serverName,
      cluster: options.cluster,
      logFile: options.logFile,
    }),
    { mode: 0o600 },
  );
  const child = spawn(natsServerBinary(), ['-c', configFile], {
    stdio: ['ignore', 'ignore', options.quiet === false ? 'inherit' : 'ignore'],
  });
  await waitForPort(port, 10_000, child);
  const scheme = options.tls ? 'tls' : 'nats';
  return managed(`${scheme}://127.0.0.1:${port}`, port, storeDir, child, !options.storeDir);
}

/** startNatsServer, its duration recorded for the slowest-files table (stack-timings.ts). */
export const startNatsServer = timed('nats-server', startNatsServerUntimed);

/**
 * FerretDB's storage: PostgreSQL unless RATESMITH_FERRETDB_BACKEND=sqlite. On
 * SQLite, FerretDB 1.24 hands SQLite only filters on `_id` alone and reads and
 * decodes every document of the collection for any other (a shop's rulesets,
 * a version history); on PostgreSQL it pushes equality on strings, numbers and
 * booleans down as SQL. Measured on 5,000 rulesets of 1,000 shops: one find by
 * shop 2.5 s on SQLite, 17 ms on PostgreSQL (docs/testing.md, "FerretDB's
 * backend"). Production's MongoDB answers such a find from an index.
 */
function ferretDbBackend(): 'postgresql' | 'sqlite' {
  return process.env.RATESMITH_FERRETDB_BACKEND === 'sqlite' ? 'sqlite' : 'postgresql';
}

let postgres: string | undefined;
/**
 * The PostgreSQL server FerretDB stores into: RATESMITH_POSTGRES_URL, else the
 * one `scripts/ensure-postgres.sh` finds or starts (asked once per process).
 */
export function postgresUrl(): string {
  postgres ??=
    process.env.RATESMITH_POSTGRES_URL ??
    execFileSync('bash', [join(repoRoot, 'scripts', 'ensure-postgres.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: 300_000,
    }).trim();
  return postgres;
}

/** The same server, another database. */
function postgresDatabaseUrl(database: string): string {
  const url = new URL(postgresUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs one SQL statement on the server's maintenance database with psql. */
function psql(sql: string): void {
  execFileSync('psql', ['--no-psqlrc', '-q', '-v', 'ON_ERROR_STOP=1', postgresUrl(), '-c', sql], {
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: 30_000,
  });
}

/**
 * A PostgreSQL database for one FerretDB. A temporary one (tests) is dropped
 * with it. A kept folder (`npm start`'s data) keeps one named after the folder,
 * made anew when the folder is new (deleting the folder resets the data, as it
 * did on SQLite): the folder holds a marker file naming it.
 */
export function ferretDatabase(keptDir: string | undefined): { url: string; drop(): void } {
  const marker = keptDir && join(keptDir, 'postgres-database');
  const name = keptDir
    ? `ratesmith_${createHash('sha256').update(resolve(keptDir)).digest('hex').slice(0, 12)}`
    : `ratesmith_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (!marker || !existsSync(marker)) {
    try {
      if (marker) psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      psql(
        `CREATE DATABASE ${name} ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`,
      );
    } catch (err) {
      const stderr = String((err as { stderr?: Buffer }).stderr ?? err).trim();
      throw new Error(
        `FerretDB needs PostgreSQL at ${postgresUrl()} (\`bash scripts/ensure-test-tools.sh postgresql\` starts one; RATESMITH_FERRETDB_BACKEND=sqlite does without): ${stderr}`,
        { cause: err },
      );
    }
    if (marker) writeFileSync(marker, `${name}\n`);
  }
  return {
    url: postgresDatabaseUrl(name),
    drop: () => {
      if (!keptDir) psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * Drops the PostgreSQL database a kept FerretDB folder names, for a caller that
 * deletes the folder (a fault stack, the demo app a browser test starts).
 */
export function dropFerretDbDatabase(ferretDataDir: string): void {
  const marker = join(ferretDataDir, 'postgres-database');
  if (!existsSync(marker)) return;
  psql(`DROP DATABASE IF EXISTS ${readFileSync(marker, 'utf8').trim()} WITH (FORCE)`);
}

async function startFerretDbUntimed(
  options: { port?: number; dataDir?: string; quiet?: boolean } = {},
): Promise<RunningServer> {
  const binary = ferretDbBinary();
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? tempDir('ratesmith-ferretdb-');
  mkdirSync(dataDir, { recursive: true });
  const debugPort = await freePort();
  const database = ferretDbBackend() === 'postgresql' ? ferretDatabase(options.dataDir) : undefined;
  const child = spawn(
    binary,
    [
      ...(database
        ? ['--handler=pg', `--postgresql-url=${database.url}`]
        : ['--handler=sqlite', `--sqlite-url=file:${dataDir}/`]),
      `--state-dir=${dataDir}`,
      `--listen-addr=127.0.0.1:${port}`,
      `--debug-addr=127.0.0.1:${debugPort}`,
      '--telemetry=disable',
      '--log-level=error',
    ],
    { stdio: ['ignore', 'ignore', options.quiet === false ? 'inherit' : 'ignore'] },
  );
  await waitForPort(port, 30_000, child);
  const server = managed(`mongodb://127.0.0.1:${port}/`, port, dataDir, child, !options.dataDir);
  if (!database) return server;
  return {
    ...server,
    stop: async () => {
      await server.stop();
      database.drop();
    },
  };
}

/** startFerretDb, its duration recorded for the slowest-files table (stack-timings.ts). */
export const startFerretDb = timed('FerretDB', startFerretDbUntimed);
