import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { catalogV1 } from '@ratesmith/contracts';
import { freePort, repoRoot, startNatsServer, type RunningServer } from '@ratesmith/devstack';
import { connectNats, createLogger, RpcClient } from '@ratesmith/kit';

/** The built catalog service as Kubernetes runs it: one process, signals, probes. */
const main = join(repoRoot, 'services', 'catalog', 'dist', 'main.js');

function run(env: Record<string, string>) {
  let stderr = '';
  const child = spawn(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, exited, stderr: () => stderr };
}

async function probe(port: number, path: string): Promise<number> {
  try {
    return (await fetch(`http://127.0.0.1:${port}${path}`)).status;
  } catch {
    return 0;
  }
}

beforeAll(() => {
  if (!existsSync(main))
    throw new Error('services/catalog is not built: run `npm run build` (npm test does)');
});

it('refuses to start with bad configuration, naming every problem on one line', async () => {
  const { exited, stderr } = run({ CATALOG_DEADLINE_MS: '-1', NATS_REQUEST_TIMEOUT_MS: 'x' });
  expect(await exited).toBe(1);
  const lines = stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^catalog: Invalid configuration: /);
  expect(lines[0]).toContain('NATS_URL is required');
  expect(lines[0]).toContain('CATALOG_DEADLINE_MS');
  expect(lines[0]).toContain('NATS_REQUEST_TIMEOUT_MS');
});

describe('a running catalog service', () => {
  let nats: RunningServer;
  let natsDir: string;
  beforeAll(async () => {
    natsDir = mkdtempSync(join(tmpdir(), 'catalog-nats-'));
    nats = await startNatsServer({ storeDir: natsDir });
  });
  afterAll(async () => {
    await nats?.stop();
    rmSync(natsDir, { recursive: true, force: true });
  });

  it('becomes ready, answers over NATS when auth is away, and stops cleanly on SIGTERM', async () => {
    const healthPort = await freePort();
    const service = run({
      NATS_URL: nats.url,
      HEALTH_PORT: String(healthPort),
      LOG_LEVEL: 'silent',
      NATS_REQUEST_TIMEOUT_MS: '500',
    });
    const deadline = Date.now() + 20_000;
    while ((await probe(healthPort, '/readyz')) !== 200) {
      if (Date.now() > deadline) throw new Error(`not ready: ${service.stderr()}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const nc = await connectNats({
      url: nats.url,
      name: 'test',
      logger: createLogger('t', 'silent'),
    });
    const catalog = new RpcClient(nc, catalogV1.CatalogService, {
      timeoutMs: 3000,
      displayName: 'catalog',
    });
    // No auth service on this NATS: a clear "unavailable", never a hang.
    await expect(
      catalog.call('listProducts', { shop: 'shop.myshopify.com' }),
    ).rejects.toMatchObject({
      kind: 'unavailable',
      message: 'The auth service is not available right now. Please try again shortly.',
    });
    // The shop becomes a Shopify host name: anything but a shop domain is refused first.
    await expect(
      catalog.call('listProducts', { shop: 'evil.example.com/x?' }),
    ).rejects.toMatchObject({ kind: 'invalid_data', message: 'That is not a valid shop domain.' });
    await nc.close();

    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  });
});
