import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rulesV1 } from '@ratesmith/contracts';
import {
  freePort,
  newBusUsers,
  repoRoot,
  startFerretDb,
  startNatsServer,
  type RunningServer,
} from '@ratesmith/devstack';
import { connectMongo, connectNats, createLogger, RpcClient } from '@ratesmith/kit';

/** The built rules service as Kubernetes runs it: one process, signals, probes. */
const main = join(repoRoot, 'services', 'rules', 'dist', 'main.js');

function run(env: Record<string, string>) {
  let stderr = '';
  let stdout = '';
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, exited, stderr: () => stderr, logs: () => stdout };
}

async function probe(port: number, path: string): Promise<number> {
  try {
    return (await fetch(`http://127.0.0.1:${port}${path}`)).status;
  } catch {
    return 0;
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - started;
}

beforeAll(() => {
  if (!existsSync(main))
    throw new Error('services/rules is not built: run `npm run build` (npm test does)');
});

it('refuses to start with bad configuration, naming every problem on one line', async () => {
  const { exited, stderr } = run({ HEALTH_PORT: 'x' });
  expect(await exited).toBe(1);
  const lines = stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^rules: Invalid configuration: /);
  expect(lines[0]).toContain('NATS_URL is required');
  expect(lines[0]).toContain('MONGODB_URI is required');
  expect(lines[0]).toContain('HEALTH_PORT');
});

describe('a running rules service', () => {
  let nats: RunningServer;
  let natsDir: string;
  // The rules service connects as its own NATS user, as in production.
  const users = newBusUsers();
  let mongo: RunningServer;
  let healthPort: number;
  let service: ReturnType<typeof run>;
  let child: ChildProcess;

  beforeAll(async () => {
    // A folder of our own, kept across the NATS restart below.
    natsDir = mkdtempSync(join(tmpdir(), 'ratesmith-nats-'));
    [nats, mongo] = await Promise.all([
      startNatsServer({ storeDir: natsDir, users }),
      startFerretDb(),
    ]);
    healthPort = await freePort();
    service = run({
      NATS_URL: nats.url,
      NATS_NKEY_SEED: users.rules.seed,
      MONGODB_URI: mongo.url,
      HEALTH_PORT: String(healthPort),
      LOG_LEVEL: 'info',
      SNAPSHOT_RETRY_MS: '500',
    });
    child = service.child;
    await waitFor(async () => (await probe(healthPort, '/readyz')) === 200, 20_000);
  }, 60_000);

  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await Promise.all([nats?.stop(), mongo?.stop()]);
    rmSync(natsDir, { recursive: true, force: true });
  });

  it('serves Prometheus metrics', async () => {
    const res = await fetch(`http://127.0.0.1:${healthPort}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
  });

  it('goes unready when NATS is down, stays live, and reconnects by itself when NATS is back', async () => {
    const logger = createLogger('test', 'silent');
    await nats.stop();
    const unready = await waitFor(async () => (await probe(healthPort, '/readyz')) === 503, 10_000);
    expect(unready).toBeLessThan(5000);
    expect(await probe(healthPort, '/healthz')).toBe(200);

    const restarted = Date.now();
    nats = await startNatsServer({ port: nats.port, storeDir: natsDir, users });
    await waitFor(async () => (await probe(healthPort, '/readyz')) === 200, 15_000);

    // Request/reply works again within 5 s of the restart (research/reliability.md R3).
    // As the gateway, the one service that creates rulesets.
    const nc = await connectNats({
      url: nats.url,
      name: 'gateway',
      logger,
      nkeySeed: users.gateway.seed,
    });
    try {
      const rules = new RpcClient(nc, rulesV1.RulesService, {
        timeoutMs: 1000,
        displayName: 'rules',
      });
      let name: string | undefined;
      await waitFor(async () => {
        const reply = await rules
          .call('createRuleset', { shop: 'a.myshopify.com', name: 'After outage' })
          .catch(() => undefined);
        name = reply?.ruleset?.name;
        return name !== undefined;
      }, 10_000);
      expect(Date.now() - restarted).toBeLessThan(5000);
      expect(name).toBe('After outage');
    } finally {
      await nc.close();
    }
  }, 60_000);

  it('counts snapshot writes and reports the backlog while NATS is away', async () => {
    const metric = async (pattern: RegExp) => {
      const text = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
      return Number(pattern.exec(text)?.[1] ?? NaN);
    };
    const backlog = /^ratesmith_snapshots_unpublished(?:\{[^}]*\})? (\S+)$/m;
    const writes = (result: string) =>
      new RegExp(
        `^ratesmith_snapshot_publish_total\\{[^}]*result="${result}"[^}]*\\} (\\S+)$`,
        'm',
      );
    const conn = await connectMongo({
      uri: mongo.url,
      dbName: 'ratesmith_rules',
      logger: createLogger('test', 'silent'),
      timeoutMs: 5000,
    });
    try {
      await nats.stop();
      // A saved change whose snapshot has not reached the bucket yet.
      await conn
        .db!.collection('snapshot_versions')
        .insertOne({ shop: 'backlog.myshopify.com', version: 1, dirty: true });
      await waitFor(async () => (await metric(backlog)) === 1, 15_000);
      await waitFor(async () => (await metric(writes('failed'))) >= 1, 15_000);

      nats = await startNatsServer({ port: nats.port, storeDir: natsDir, users });
      await waitFor(async () => (await metric(backlog)) === 0, 20_000);
      expect(await metric(writes('published'))).toBeGreaterThanOrEqual(1);
    } finally {
      await conn.close();
    }
  }, 60_000);

  it('stops on SIGTERM: readiness fails, then a clean exit 0 in time', async () => {
    const started = Date.now();
    child.kill('SIGTERM');
    const code = await service.exited;
    expect([code, code === 0 ? '' : service.logs() + service.stderr()]).toEqual([0, '']);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);
});
