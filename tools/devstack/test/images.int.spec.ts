import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { carrierRateRequest, signBody, startShopifyDouble } from '@ratesmith/shopify-double';
import type { ShopifyDouble } from '@ratesmith/shopify-double';
import {
  GenericContainer,
  Network,
  Wait,
  type StartedNetwork,
  type StartedTestContainer,
} from 'testcontainers';
import { mintSessionToken } from '../../../services/gateway/src/auth/session-token';
import { makeBusTls, natsServerConfig, newBusUsers } from '../src/bus';
import { ferretDatabase, freePort, repoRoot } from '../src/servers';
import { timed } from '../src/stack-timings';
import { chartContainers, type ChartContainer } from './chart-pods';

/**
 * The images SREs deploy, run as the chart runs them: the five service images
 * `npm run images` builds from the Dockerfile (scripts/images.sh), with the
 * command, environment, user, read-only root filesystem and volumes `helm
 * template` renders, on a Docker network with NATS (a user per service, TLS)
 * and FerretDB in containers too, and the Shopify double in this process. Then
 * a shop's life through them: install, a saved ruleset, a signed carrier
 * callback quoted, uninstall; and what an SRE relies on in a container.
 *
 * Images only from this machine (nothing is pulled) and no Ryuk reaper (its
 * image would be pulled): every container carries the label below and is
 * removed here, leftovers of an aborted run at the start. The Docker engine:
 * scripts/ensure-docker.sh's (Debian's client, BuildKit).
 */
process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
// The engine runs on this machine, its published ports on localhost. Without this,
// testcontainers on a machine that is itself a container (/.dockerenv) looks for the
// host's address by running alpine:3.14, a pull from Docker Hub.
process.env.TESTCONTAINERS_HOST_OVERRIDE ??= 'localhost';
const LABEL = { 'ratesmith.suite': 'images' };
const docker = execFileSync('bash', [join(repoRoot, 'scripts', 'ensure-docker.sh')], {
  encoding: 'utf8',
}).trim();
const dockerOut = (...args: string[]) => execFileSync(docker, args, { encoding: 'utf8' }).trim();

const API_KEY = 'images-api-key';
const API_SECRET = 'images-api-secret';
const TOKEN_KEYS = `images:${Buffer.alloc(32, 9).toString('base64')}`;
const APP_URL = 'https://ratesmith.test';
const SHOP = 'container-store.myshopify.com';
const NATS_IMAGE = 'ratesmith-local/nats-server:v2.15.2';
const FERRETDB_IMAGE = 'ratesmith-local/ferretdb:v1.24.0';

/**
 * What differs from the chart's environment, and why: Shopify is the double
 * (SHOPIFY_API_ORIGIN, read by the services that call Shopify and accepted only
 * outside production, so NODE_ENV is `development`). Everything else is the chart's.
 */
const standIns = (double: ShopifyDouble) => ({
  NODE_ENV: 'development',
  SHOPIFY_API_ORIGIN: double.url,
});

/** A container as the chart's pod spec sets it: its user, read-only root, no capabilities, /tmp. */
class PodContainer extends GenericContainer {
  constructor(spec: ChartContainer, env: Record<string, string>, caDir: string) {
    super(spec.image);
    this.withCommand(spec.command)
      .withEnvironment(env)
      .withUser(`${spec.runAsUser}:${spec.runAsGroup}`)
      .withDroppedCapabilities(...spec.droppedCapabilities)
      .withLabels(LABEL);
    if (!spec.allowPrivilegeEscalation) this.withSecurityOpt('no-new-privileges');
    this.hostConfig.ReadonlyRootfs = spec.readOnlyRootFilesystem;
    for (const volume of spec.volumes) {
      if (volume.emptyDirSizeLimit) {
        const size = volume.emptyDirSizeLimit.replace(/Mi$/, 'm');
        this.withTmpFs({ [volume.path]: `rw,size=${size},mode=1777` });
      } else if (volume.secretName === 'ratesmith-nats-ca') {
        this.withBindMounts([{ source: caDir, target: volume.path, mode: 'ro' }]);
      } else {
        throw new Error(`${spec.name}: no stand-in for the volume at ${volume.path}`);
      }
    }
  }
}

let network: StartedNetwork;
let hostIp: string;
let double: ShopifyDouble;
let database: { drop(): void } | undefined;
const dir = mkdtempSync(join(tmpdir(), 'ratesmith-images-'));
const started = new Map<string, StartedTestContainer>();
let specs: ChartContainer[];
let envOf: (spec: ChartContainer) => Record<string, string>;
let caDir: string;

const url = (service: string, port: 'health' | 'http') => {
  const c = started.get(service)!;
  const spec = specs.find((s) => s.name === service)!;
  return `http://${c.getHost()}:${c.getMappedPort(spec.ports[port]!)}`;
};

function removeLeftovers(): void {
  const ids = dockerOut('ps', '-aq', '--filter', 'label=ratesmith.suite=images');
  if (ids) dockerOut('rm', '-f', ...ids.split('\n'));
}

/**
 * Each container's start, until ready. On the vfs storage driver every container's
 * root is a full copy of its image (about 240 MB): starting seven while jest's other
 * worker runs a suite is slow on a busy disk, so the limits leave room for it.
 */
const STARTUP_MS = 120_000;

async function startPod(spec: ChartContainer): Promise<StartedTestContainer> {
  const container = new PodContainer(spec, envOf(spec), caDir)
    .withNetwork(network)
    .withNetworkAliases(spec.name)
    .withExposedPorts(...Object.values(spec.ports))
    .withWaitStrategy(Wait.forHttp('/readyz', spec.ports.health!).forStatusCode(200))
    .withStartupTimeout(STARTUP_MS);
  return container.start();
}

/** Everything up and ready; its time shows as the file's "starting stacks" (stack-timings.ts). */
const startContainers = timed('containers', async () => {
  removeLeftovers();
  const services = ['auth', 'rules', 'catalog', 'rate-engine', 'gateway'];
  for (const image of [
    NATS_IMAGE,
    FERRETDB_IMAGE,
    ...services.map((s) => `ratesmith/${s}:local`),
  ]) {
    if (!dockerOut('images', '-q', image))
      throw new Error(`no image ${image}: run \`npm run images\` (npm test does)`);
  }
  network = await new Network().start();
  hostIp = dockerOut(
    'network',
    'inspect',
    '-f',
    '{{(index .IPAM.Config 0).Gateway}}',
    network.getName(),
  );

  // NATS as the chart expects it: TLS (a certificate for `nats`), a user per service.
  const tls = makeBusTls(join(dir, 'tls'), ['nats']);
  caDir = join(dir, 'nats-ca');
  mkdirSync(caDir);
  copyFileSync(tls.caFile, join(caDir, 'ca.pem'));
  // The server runs as uid 1000: it reads its key through the bind mount.
  chmodSync(tls.keyFile, 0o644);
  const users = newBusUsers();
  const natsConfig = natsServerConfig({
    port: 4222,
    host: '0.0.0.0',
    storeDir: '/data',
    users,
    tls: { caFile: '/tls/ca.pem', certFile: '/tls/server.pem', keyFile: '/tls/server.key' },
  });
  // FerretDB on the host's network: its storage is this machine's PostgreSQL (127.0.0.1).
  const ferretPort = await freePort();
  const db = ferretDatabase(undefined);
  database = db;
  const [nats, ferret] = await Promise.all([
    new GenericContainer(NATS_IMAGE)
      .withLabels(LABEL)
      .withNetwork(network)
      .withNetworkAliases('nats')
      .withBindMounts([{ source: join(dir, 'tls'), target: '/tls', mode: 'ro' }])
      .withCopyContentToContainer([{ content: natsConfig, target: '/etc/nats.json' }])
      .withTmpFs({ '/data': 'rw,size=128m,mode=1777' })
      .withCommand(['-c', '/etc/nats.json'])
      .withWaitStrategy(Wait.forLogMessage('Server is ready'))
      .start(),
    new GenericContainer(FERRETDB_IMAGE)
      .withLabels(LABEL)
      .withNetworkMode('host')
      .withTmpFs({ '/state': 'rw,size=16m,mode=1777' })
      .withCommand([
        '--handler=pg',
        `--postgresql-url=${db.url}`,
        '--state-dir=/state',
        `--listen-addr=${hostIp}:${ferretPort}`,
        '--debug-addr=127.0.0.1:0',
        '--telemetry=disable',
        '--log-level=info',
      ])
      .withWaitStrategy(Wait.forLogMessage(/Listening on TCP/))
      .start(),
  ]);
  started.set('nats', nats);
  started.set('ferretdb', ferret);

  // Shopify: the double, on the network's gateway address the containers reach.
  double = await startShopifyDouble({ apiKey: API_KEY, apiSecret: API_SECRET, host: hostIp });

  specs = chartContainers(
    {
      appUrl: APP_URL,
      'shopify.apiKey': API_KEY,
      existingSecret: 'ratesmith-secrets',
      'nats.url': 'tls://nats:4222',
      // One NATS server here: the bucket and the stream keep one copy (docs/operations.md).
      'nats.jetstreamReplicas': 1,
      'nats.tls.caSecret': 'ratesmith-nats-ca',
      'nats.auth.existingSecret': 'ratesmith-nats-users',
      ...Object.fromEntries(
        Object.entries(users)
          .filter(([name]) => name !== 'admin')
          .map(([name, user]) => [`nats.auth.publicKeys.${name}`, user.publicKey]),
      ),
      'image.repositoryPrefix': 'ratesmith',
      'image.tag': 'local',
    },
    {
      'ratesmith-secrets': {
        MONGODB_URI: `mongodb://${hostIp}:${ferretPort}/`,
        SHOPIFY_API_SECRET: API_SECRET,
        TOKEN_ENCRYPTION_KEYS: TOKEN_KEYS,
      },
      'ratesmith-nats-users': Object.fromEntries(
        Object.entries(users).map(([name, user]) => [name, user.seed]),
      ),
    },
  );
  envOf = (spec) => ({ ...spec.env, ...standIns(double) });

  // The migration Jobs first (Helm's pre-install hooks, one weight: together), each to
  // exit 0; then the Deployments, all at once as a rollout starts them, each until ready.
  await Promise.all(
    specs
      .filter((s) => s.kind === 'Job')
      .map((job) =>
        new PodContainer(job, envOf(job), caDir)
          .withNetwork(network)
          .withWaitStrategy(Wait.forOneShotStartup())
          .withStartupTimeout(STARTUP_MS)
          .start(),
      ),
  );
  // The exited Jobs' containers go with the rest in afterAll: removing one takes seconds on vfs.
  await Promise.all(
    specs
      .filter((s) => s.kind === 'Deployment')
      .map(async (spec) => started.set(spec.name, await startPod(spec))),
  );
});

beforeAll(() => startContainers(), 3 * STARTUP_MS);

afterAll(async () => {
  await double?.stop();
  removeLeftovers();
  await network?.stop();
  database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the chart as rendered', () => {
  it('runs the five services and their two migrations from the local images', () => {
    expect(specs.map((s) => `${s.kind} ${s.name} ${s.image}`).sort()).toEqual([
      'Deployment auth ratesmith/auth:local',
      'Deployment catalog ratesmith/catalog:local',
      'Deployment gateway ratesmith/gateway:local',
      'Deployment rate-engine ratesmith/rate-engine:local',
      'Deployment rules ratesmith/rules:local',
      'Job auth-migrate ratesmith/auth:local',
      'Job rules-migrate ratesmith/rules:local',
    ]);
  });
});

describe('a shop through the images', () => {
  const token = () => mintSessionToken({ shop: SHOP, apiKey: API_KEY, apiSecret: API_SECRET });
  const api = async (path: string, init: { method?: string; json?: unknown } = {}) => {
    const res = await fetch(`${url('gateway', 'http')}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('installs through the double: OAuth, the sealed token, the carrier service', async () => {
    const install = await fetch(`${url('gateway', 'http')}/api/install`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ shop: SHOP, email: 'owner@example.com' }),
    });
    expect(install.status).toBe(200);
    const authorizeUrl = ((await install.json()) as { url: string }).url;
    expect(authorizeUrl.startsWith(`${double.url}/admin/oauth/authorize?`)).toBe(true);
    const authorize = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(authorize.status).toBe(302);
    // Shopify sends the merchant to APP_URL; the Ingress would send /auth to the gateway.
    const callback = new URL(authorize.headers.get('location')!);
    expect(callback.origin).toBe(APP_URL);
    const intoApp = await fetch(`${url('gateway', 'http')}${callback.pathname}${callback.search}`, {
      redirect: 'manual',
    });
    expect(intoApp.status).toBe(302);
    expect(intoApp.headers.get('location')).toBe(
      `https://admin.shopify.com/store/container-store/apps/${API_KEY}`,
    );
    const [carrier] = double.carrierServices.list(SHOP);
    expect(carrier).toMatchObject({ name: 'Ratesmith', active: true });
    expect(carrier!.callbackUrl.startsWith(`${APP_URL}/carrier/`)).toBe(true);
  });

  it('saves a ruleset and makes it the active one', async () => {
    const created = await api('/api/global-rules', { method: 'POST', json: { name: 'Flat' } });
    expect(created.status).toBe(200);
    const id = created.body.rule.id;
    const saved = await api(`/api/global-rules/update/${id}`, {
      method: 'POST',
      json: {
        rules: [
          {
            name: 'Flat fee',
            raw_query: {
              condition: 'AND',
              rules: [
                { type: 'condition', field: 'cart_price', operator: 'greater_than', value: 0 },
              ],
            },
            action_type: 1,
            action_data: 5,
          },
        ],
      },
    });
    expect(saved.body.status).toBe(true);
    expect((await api(`/api/global-rules/${id}/toggle`)).body.message).toBe('Ruleset enabled.');
  });

  it('quotes the saved fee to a signed carrier callback, and refuses a forged one', async () => {
    // The path Shopify calls on APP_URL; the Ingress sends /carrier to the rate engine.
    const path = new URL(double.carrierServices.list(SHOP)[0]!.callbackUrl).pathname;
    const body = JSON.stringify(carrierRateRequest());
    const call = (signature: string) =>
      fetch(`${url('rate-engine', 'http')}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-shopify-shop-domain': SHOP,
          'x-shopify-hmac-sha256': signature,
        },
        body,
      });
    // The snapshot reaches the engine over NATS: ask until the saved ruleset answers.
    const deadline = Date.now() + 15_000;
    let rates: { total_price: string }[] = [];
    while (Date.now() < deadline) {
      const res = await call(signBody(body, API_SECRET));
      expect(res.status).toBe(200);
      rates = ((await res.json()) as { rates: { total_price: string }[] }).rates;
      if (rates.length > 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(rates.map((r) => r.total_price)).toEqual(['500']);
    expect((await call(signBody(body, 'another-secret'))).status).toBe(401);
  });

  it('uninstalls: the webhook is taken, the shop’s session no longer opens the API', async () => {
    double.uninstall(SHOP);
    const hook = await double.sendWebhook(
      `${url('gateway', 'http')}/webhooks/app/uninstalled`,
      'app/uninstalled',
      SHOP,
    );
    expect(hook.status).toBe(200);
    // The gateway remembers an installed shop for INSTALLED_CACHE_MS (10 s by default).
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && (status = (await api('/api/global-rules')).status) !== 401)
      await new Promise((r) => setTimeout(r, 500));
    expect(status).toBe(401);
  }, 30_000);
});

describe('what the images carry', () => {
  const services = ['auth', 'rules', 'catalog', 'rate-engine', 'gateway'];
  /** A shell command's output in the service's running container. */
  const inContainer = async (name: string, command: string) =>
    (await started.get(name)!.exec(['sh', '-c', command])).output.trim();
  /** package-lock.json marks `dev` the packages only development needs, in every workspace. */
  const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const devOnly = (pkg: string) => lock.packages[`node_modules/${pkg}`]?.dev === true;

  it('no package in node_modules that only development needs (typescript, jest, eslint…)', async () => {
    expect(['typescript', 'jest', 'eslint', 'lighthouse'].every(devOnly)).toBe(true);
    for (const name of services) {
      const installed = (
        await inContainer(name, 'cd /app/node_modules && ls -d * @*/* | grep -v "^@[^/]*$"')
      ).split('\n');
      expect(installed).toContain('zod');
      expect({ name, dev: installed.filter(devOnly) }).toEqual({ name, dev: [] });
    }
  });

  it('no secret in any layer’s command or in the environment', () => {
    for (const name of services) {
      const image = `ratesmith/${name}:local`;
      const history = dockerOut('history', '--no-trunc', '--format', '{{.CreatedBy}}', image);
      const env = dockerOut('image', 'inspect', '-f', '{{json .Config.Env}}', image);
      expect(history).toContain('COPY /app ./');
      for (const text of [history, env]) {
        expect(text).not.toMatch(/SECRET|TOKEN|NKEY|PASSWORD|_authToken|PRIVATE KEY/i);
      }
    }
  });

  it('the admin frontend only in the gateway, which serves it', async () => {
    for (const name of services) {
      const files = await inContainer(name, 'ls -A /app/frontend');
      expect({ name, files }).toEqual({ name, files: name === 'gateway' ? 'dist' : '' });
    }
    expect(await inContainer('gateway', 'ls /app/frontend/dist')).toContain('index.html');
  });
});

describe('what an SRE relies on in the containers', () => {
  const services = ['auth', 'rules', 'catalog', 'rate-engine', 'gateway'];

  it('each runs as uid 1000 on a read-only root filesystem; only /tmp takes writes', async () => {
    for (const name of services) {
      const c = started.get(name)!;
      expect((await c.exec(['id', '-u'])).output.trim()).toBe('1000');
      const root = await c.exec(['sh', '-c', 'touch /app/x']);
      expect(root.exitCode).not.toBe(0);
      expect(root.output).toContain('Read-only file system');
      expect((await c.exec(['sh', '-c', 'touch /tmp/x && rm /tmp/x'])).exitCode).toBe(0);
    }
  });

  it('answers /readyz 503 while it cannot reach NATS, /healthz 200 all along', async () => {
    const spec = specs.find((s) => s.name === 'catalog')!;
    const container = await new PodContainer(
      spec,
      { ...envOf(spec), NATS_URL: 'tls://nats-absent:4222' },
      caDir,
    )
      .withNetwork(network)
      .withExposedPorts(spec.ports.health!)
      .withWaitStrategy(Wait.forHttp('/healthz', spec.ports.health!).forStatusCode(200))
      .start();
    try {
      const health = `http://${container.getHost()}:${container.getMappedPort(spec.ports.health!)}`;
      for (let i = 0; i < 5; i++) {
        expect((await fetch(`${health}/readyz`)).status).toBe(503);
        expect((await fetch(`${health}/healthz`)).status).toBe(200);
        await new Promise((r) => setTimeout(r, 400));
      }
    } finally {
      // Removed with the rest in afterAll: removing a container takes seconds on vfs.
      await container.stop({ remove: false });
    }
  });

  it('stops on SIGTERM within SHUTDOWN_TIMEOUT_MS with exit code 0, and wrote no file in its image', async () => {
    for (const name of [...services].reverse()) {
      const c = started.get(name)!;
      const limitMs = Number(specs.find((s) => s.name === name)!.env.SHUTDOWN_TIMEOUT_MS);
      expect(limitMs).toBeGreaterThan(0);
      const t0 = Date.now();
      // docker stop: SIGTERM, then SIGKILL only after the chart's grace beyond the bound.
      await c.stop({ remove: false, timeout: limitMs + 5000 });
      const ms = Date.now() - t0;
      const exitCode = dockerOut('inspect', '-f', '{{.State.ExitCode}}', c.getId());
      expect({ name, exitCode, inTime: ms < limitMs }).toEqual({
        name,
        exitCode: '0',
        inTime: true,
      });
      // Docker makes the mount points of the volumes (and their parents) in the container's
      // layer, as the kubelet does; anything else would be the service's own writing.
      const mountPoints = specs.find((s) => s.name === name)!.volumes.map((v) => v.path);
      const changed = dockerOut('diff', c.getId())
        .split('\n')
        .filter((line) => line !== '')
        .filter((line) => !mountPoints.some((m) => `${m}/`.startsWith(`${line.slice(2)}/`)));
      expect({ name, changed }).toEqual({ name, changed: [] });
    }
  });
});
