/**
 * `npm start`: the whole app on one machine in demo mode. Starts NATS and
 * FerretDB unless NATS_URL / MONGODB_URI name servers, then every service,
 * waits until each is ready, and prints the URL. Data lives in .data/ (or
 * RATESMITH_DATA_DIR) and survives a restart. Ctrl-C stops everything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DEMO_API_KEY, DEMO_API_SECRET } from '@ratesmith/kit';
import { makeBusTls, newBusUsers, type BusTls, type BusUsers } from './bus';
import {
  freePort,
  reservePorts,
  repoRoot,
  startFerretDb,
  startNatsServer,
  stopProcess,
  type RunningServer,
  nodeOptionsOf,
} from './servers';

const dataDir = process.env.RATESMITH_DATA_DIR ?? join(repoRoot, '.data');
const lockFile = join(dataDir, 'ratesmith.lock');
/** Seals demo tokens in .data/ only; production supplies its own keys. */
const DEMO_TOKEN_KEYS = `demo:${Buffer.alloc(32, 42).toString('base64')}`;

/** The services in start order; the gateway last, once the others answer. */
const SERVICES = ['auth', 'rules', 'catalog', 'rate-engine', 'gateway'] as const;

interface Running {
  name: string;
  child: ChildProcess;
  healthPort: number;
}

function alreadyRunning(): { pid: number; url: string } | undefined {
  if (!existsSync(lockFile)) return undefined;
  try {
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number; url: string };
    process.kill(lock.pid, 0);
    return lock;
  } catch {
    return undefined;
  }
}

const colors: Record<string, string> = {
  auth: '35',
  rules: '36',
  catalog: '96',
  'rate-engine': '94',
  gateway: '32',
  devstack: '33',
  shopify: '34',
};

function say(source: string, line: string): void {
  process.stdout.write(`\x1b[${colors[source] ?? '0'}m${source.padEnd(8)}\x1b[0m ${line}\n`);
}

/** Services log JSON; show it as one readable line. */
function pipeLogs(name: string, child: ChildProcess): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => {
      try {
        const {
          level,
          msg,
          time: _time,
          service: _service,
          ...rest
        } = JSON.parse(line) as Record<string, unknown>;
        const extra = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
        say(name, `${String(level).padEnd(5)} ${String(msg)}${extra}`);
      } catch {
        say(name, line);
      }
    });
  }
}

async function waitReady(service: Running, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null)
      throw new Error(`${service.name} exited with code ${service.child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${service.healthPort}/readyz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${service.name} was not ready within ${timeoutMs / 1000} s`);
}

async function waitForHealthz(service: Running, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null)
      throw new Error(`${service.name} exited with code ${service.child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${service.healthPort}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${service.name} was not ready within ${timeoutMs / 1000} s`);
}

async function main(): Promise<void> {
  const running = alreadyRunning();
  if (running) {
    process.stderr.write(
      `Ratesmith is already running (pid ${running.pid}) at ${running.url}\nStop it first (Ctrl-C in its terminal, or kill ${running.pid}).\n`,
    );
    process.exit(1);
  }
  mkdirSync(dataDir, { recursive: true });

  const port = Number(process.env.PORT ?? 3000);
  const url = `http://localhost:${port}`;
  // The rate engine's carrier callback has its own port.
  const carrierPort = Number(process.env.CARRIER_PORT ?? port + 1000);
  reservePorts(port, carrierPort);
  // Demo mode runs only with the demo credentials (the gateway refuses any other).
  const apiKey = DEMO_API_KEY;
  const apiSecret = DEMO_API_SECRET;
  const demoShops = process.env.DEMO_SHOPS ?? 'ratesmith-demo.myshopify.com';

  const servers: RunningServer[] = [];
  const services: Running[] = [];
  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('devstack', 'stopping...');
    for (const service of [...services].reverse()) await stopProcess(service.child, 12_000);
    for (const server of [...servers].reverse()) await server.stop();
    rmSync(lockFile, { force: true });
    say('devstack', 'stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  writeFileSync(lockFile, JSON.stringify({ pid: process.pid, url }));

  try {
    let natsUrl = process.env.NATS_URL || undefined;
    // Our own NATS runs as production's does: a user per service, its permissions, TLS.
    let bus: { users: BusUsers; tls: BusTls } | undefined;
    if (!natsUrl) {
      bus = { users: newBusUsers(), tls: makeBusTls(join(dataDir, 'nats-tls')) };
      const nats = await startNatsServer({ storeDir: join(dataDir, 'nats'), ...bus });
      servers.push(nats);
      natsUrl = nats.url;
      say('devstack', `NATS with JetStream at ${natsUrl} (a user per service, TLS)`);
    }
    let mongoUri = process.env.MONGODB_URI || undefined;
    if (!mongoUri) {
      const mongo = await startFerretDb({ dataDir: join(dataDir, 'ferretdb') });
      servers.push(mongo);
      mongoUri = mongo.url;
      say('devstack', `FerretDB (MongoDB wire protocol) at ${mongoUri}`);
    }
    // The local Shopify double stands in for Shopify (OAuth, tokens, Admin GraphQL).
    const doublePort = await freePort();
    const double = spawn(
      process.execPath,
      [join(repoRoot, 'tools', 'shopify-double', 'dist', 'main.js')],
      {
        env: {
          ...process.env,
          SHOPIFY_DOUBLE_PORT: String(doublePort),
          SHOPIFY_API_KEY: apiKey,
          SHOPIFY_API_SECRET: apiSecret,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const doubleService = { name: 'shopify', child: double, healthPort: doublePort };
    services.push(doubleService);
    pipeLogs('shopify', double);
    await waitForHealthz(doubleService, 30_000);
    const shopifyOrigin = `http://127.0.0.1:${doublePort}`;
    say('devstack', `Shopify double at ${shopifyOrigin}`);
    const frontendDist = join(repoRoot, 'frontend', 'dist');
    for (const name of SERVICES) {
      const healthPort = await freePort();
      const child = spawn(process.execPath, [join(repoRoot, 'services', name, 'dist', 'main.js')], {
        env: {
          ...process.env,
          NODE_ENV: 'development',
          NODE_OPTIONS: process.env.NODE_OPTIONS ?? nodeOptionsOf(name),
          LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
          NATS_URL: natsUrl,
          ...(bus
            ? { NATS_NKEY_SEED: bus.users[name].seed, NATS_TLS_CA_FILE: bus.tls.caFile }
            : {}),
          MONGODB_URI: mongoUri,
          HEALTH_PORT: String(healthPort),
          PORT: String(port),
          DEMO_MODE: 'true',
          DEMO_SHOPS: demoShops,
          SHOPIFY_API_KEY: apiKey,
          SHOPIFY_API_SECRET: apiSecret,
          CARRIER_PORT: String(carrierPort),
          CARRIER_HMAC_MODE: process.env.CARRIER_HMAC_MODE ?? 'monitor',
          APP_URL: url,
          SHOPIFY_API_ORIGIN: shopifyOrigin,
          // The double's bulk export files, beside Shopify's storage (the catalog reads them).
          PRODUCT_EXPORT_FILE_ORIGINS: `https://storage.googleapis.com,${shopifyOrigin}`,
          TOKEN_ENCRYPTION_KEYS: process.env.TOKEN_ENCRYPTION_KEYS ?? DEMO_TOKEN_KEYS,
          RATE_ENGINE_URL: process.env.RATE_ENGINE_URL ?? `http://localhost:${carrierPort}`,
          ...(existsSync(join(frontendDist, 'index.html')) ? { FRONTEND_DIST: frontendDist } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const service = { name, child, healthPort };
      services.push(service);
      pipeLogs(name, child);
      child.once('exit', (code, signal) => {
        if (stopping) return;
        say(
          'devstack',
          `${name} stopped unexpectedly (${signal ?? `code ${code}`}); stopping everything`,
        );
        void stopAll(1);
      });
      await waitReady(service, 60_000);
    }
    const shop = demoShops.split(',')[0]!.trim();
    const gatewayHealth = services.find((s) => s.name === 'gateway')!.healthPort;
    say(
      'devstack',
      [
        '',
        `Ratesmith is running in demo mode at ${url}`,
        `  demo shop:  ${shop}`,
        `  the admin:  ${url}/?shop=${shop}&host=${demoHost(shop)}`,
        `  carrier:    http://localhost:${carrierPort}/carrier/rates/<rate key> (the rate engine)`,
        `  metrics:    http://127.0.0.1:${gatewayHealth}/metrics (the gateway's, the admin's web vitals among them)`,
        `  try it:     TOKEN=$(curl -s '${url}/demo/session-token?shop=${shop}' | sed 's/.*"token":"\\([^"]*\\)".*/\\1/')`,
        `              curl -H "Authorization: Bearer $TOKEN" ${url}/api/global-rules`,
        `  install:    curl -s -H 'content-type: application/json' -d '{"shop":"${shop}","email":"you@example.com"}' ${url}/api/install`,
        '              then open the url it answers: the local Shopify double approves at once',
        '  Ctrl-C stops everything; data is kept in .data/',
        '',
      ].join('\n'),
    );
  } catch (err) {
    say('devstack', `start failed: ${(err as Error).message}`);
    await stopAll(1);
  }
}

/** The `host` parameter the Shopify admin would pass: base64url of the shop's admin path. */
function demoHost(shop: string): string {
  return Buffer.from(`admin.shopify.com/store/${shop.replace(/\.myshopify\.com$/, '')}`).toString(
    'base64url',
  );
}

void main();
