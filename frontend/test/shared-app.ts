import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { DEMO_SHOP, startDemoApp, type DemoApp } from '../../tools/devstack/src/demo-app';
import { recordSharedStackStart } from '../../tools/devstack/src/stack-timings';

/**
 * The app the browser test files share (jest.config.js, project `browser`): its
 * globalSetup (global-setup.ts) starts it once for the whole run as `npm start` runs
 * it, and each file works in a shop of its own, named after the file, as the many
 * merchants of one production app do. Relative imports only: jest loads globalSetup
 * without the projects' moduleNameMapper.
 */

/** What the workers need of the shared app, JSON in this variable (jest's workers inherit globalSetup's env). */
export const SHARED_APP_ENV = 'RATESMITH_SHARED_BROWSER_APP';

export interface SharedAppAddresses {
  /** The gateway: the admin, /api, /demo/session-token. */
  url: string;
  /** The gateway's /metrics. */
  gatewayMetricsUrl: string;
  /** The Shopify double (its HTTP controls are under /__double/). */
  shopifyUrl: string;
  /** FerretDB, the MongoDB wire protocol server of the app's data. */
  mongoUri: string;
}

const TEST_FILE = /\.int\.spec\.ts$/;
const SHOP = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/** The shop of a browser test file: frontend/test/admin-polish.int.spec.ts → admin-polish.myshopify.com. */
export function shopOfTestFile(path: string): string {
  const name = basename(path)
    .replace(TEST_FILE, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-');
  const shop = `${name}.myshopify.com`;
  if (!TEST_FILE.test(path) || !SHOP.test(shop))
    throw new Error(`${path} is not a browser test file whose name makes a shop domain`);
  return shop;
}

/** The `host` the Shopify admin passes: base64url of the shop's admin path. */
export function hostOf(shop: string): string {
  return Buffer.from(`admin.shopify.com/store/${shop.replace(/\.myshopify\.com$/, '')}`).toString(
    'base64url',
  );
}

/** The shops of every browser test file in `dir` (this folder by default). */
export function browserTestShops(dir = __dirname): string[] {
  return readdirSync(dir)
    .filter((name) => TEST_FILE.test(name))
    .sort()
    .map(shopOfTestFile);
}

/** A fetch to the app's /api with a fresh demo session token of `shop`. */
export async function apiAs(
  url: string,
  shop: string,
  path: string,
  init: { method?: string; json?: unknown } = {},
): Promise<{ status: number; body: any }> {
  const minted = await fetch(`${url}/demo/session-token?shop=${encodeURIComponent(shop)}`);
  if (!minted.ok)
    throw new Error(`no session token for ${shop}: HTTP ${minted.status} ${await minted.text()}`);
  const { token } = (await minted.json()) as { token: string };
  const res = await fetch(`${url}${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return { status: res.status, body: await res.json() };
}

/**
 * Waits until the shop's first /api call answers 200: that call installs it (token
 * exchange), so a test's first page is not the one that pays for a cold shop on a
 * loaded machine. Throws with the last answer after `timeoutMs`.
 */
export async function untilShopAnswers(url: string, shop: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    last = await apiAs(url, shop, '/api/global-rules').catch((err: Error) => err.message);
    if ((last as { status?: number }).status === 200) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${shop} never got an answer from /api/global-rules: ${JSON.stringify(last)}`);
}

/** The addresses the start banner (tools/devstack/src/start.ts) names. */
export function addressesOf(app: DemoApp): SharedAppAddresses {
  const output = app.output();
  const shopifyUrl = /Shopify double at (\S+)/.exec(output)?.[1];
  const mongoUri = /FerretDB \(MongoDB wire protocol\) at (\S+)/.exec(output)?.[1];
  if (!shopifyUrl || !mongoUri)
    throw new Error(`the app's banner names no Shopify double or FerretDB:\n${output}`);
  return { url: app.url, gatewayMetricsUrl: app.gatewayMetricsUrl, shopifyUrl, mongoUri };
}

/** The shared app's addresses in a worker; a clear error outside the browser project. */
export function sharedAppAddresses(): SharedAppAddresses {
  const json = process.env[SHARED_APP_ENV];
  if (!json)
    throw new Error(
      `${SHARED_APP_ENV} is not set: the browser test files run against the app the ` +
        "`browser` project's globalSetup (frontend/test/global-setup.ts) starts. Run them " +
        'with `npx jest --selectProjects browser <files>` (npm test does).',
    );
  return JSON.parse(json) as SharedAppAddresses;
}

/** Where globalSetup leaves the app for globalTeardown: jest runs both in its own process. */
const HANDLE = Symbol.for('ratesmith.sharedBrowserApp');
type WithHandle = typeof globalThis & { [HANDLE]?: DemoApp };

/**
 * Starts the shared app: the demo shop and every browser test file's shop are demo
 * shops (the gateway hands out session tokens for them), outcomes are flushed every
 * 300 ms (analytics, fallback and recent-checkouts wait for them). Resolves once the
 * demo shop's first /api call answers; its start goes to the slowest-files reporter.
 */
export async function startSharedApp(): Promise<void> {
  const began = Date.now();
  const shops = [DEMO_SHOP, ...browserTestShops().filter((shop) => shop !== DEMO_SHOP)];
  const app = await startDemoApp({
    env: {
      OUTCOME_FLUSH_MS: '300',
      DEMO_SHOPS: shops.join(','),
      // The browser files share the machine with stacks that flood it on purpose (the noisy
      // neighbour): a save here once missed the bus's 2 s and the test saw no "Rules saved.".
      // They test what the merchant sees, not that budget (the fault suites do).
      NATS_REQUEST_TIMEOUT_MS: '10000',
    },
    timeoutMs: 280_000,
  });
  try {
    const addresses = addressesOf(app);
    await untilShopAnswers(app.url, DEMO_SHOP, 120_000);
    process.env[SHARED_APP_ENV] = JSON.stringify(addresses);
  } catch (err) {
    await app.stop();
    throw err;
  }
  (globalThis as WithHandle)[HANDLE] = app;
  recordSharedStackStart('shared browser app', began);
}

export async function stopSharedApp(): Promise<void> {
  const app = (globalThis as WithHandle)[HANDLE];
  delete (globalThis as WithHandle)[HANDLE];
  delete process.env[SHARED_APP_ENV];
  await app?.stop();
}
