import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropFerretDbDatabase, freePort, repoRoot, stopProcess } from './servers';
import { timed } from './stack-timings';

/** The demo shop `npm start` installs on its first call. */
export const DEMO_SHOP = 'ratesmith-demo.myshopify.com';

/** The start banner's line naming the gateway's /metrics (tools/devstack/src/start.ts). */
const METRICS_LINE = /^ {2}metrics: +(\S+)/m;

export interface DemoApp {
  url: string;
  port: number;
  /** The gateway's /metrics, as the banner names it. */
  gatewayMetricsUrl: string;
  /** The start script's process: the services are its children. */
  pid: number;
  /** Everything the stack printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The app exactly as `npm start` runs it (the built devstack start script:
 * NATS, FerretDB, every service, the gateway serving the built frontend in
 * demo mode), on a free port with its own data folder, for the browser tests
 * and the admin's benchmarks. Resolves once the banner says it runs.
 * `env` adds to the stack's environment.
 */
async function startDemoAppUntimed(
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<DemoApp> {
  const startScript = join(repoRoot, 'tools', 'devstack', 'dist', 'start.js');
  for (const built of [startScript, join(repoRoot, 'frontend', 'dist', 'index.html')]) {
    if (!existsSync(built))
      throw new Error(`${built} is missing: run \`npm run build\` (npm test does)`);
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'ratesmith-demo-app-'));
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [startScript], {
    // Empty NATS_URL / MONGODB_URI: its own servers, even when CI names shared ones.
    env: {
      ...process.env,
      PORT: String(port),
      RATESMITH_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NATS_URL: '',
      MONGODB_URI: '',
      DEMO_SHOPS: DEMO_SHOP,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const stop = async () => {
    await stopProcess(child, 15_000);
    dropFerretDbDatabase(join(dataDir, 'ferretdb'));
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  // The banner's last line that matters: the gateway's /metrics.
  while (!output.includes('Ratesmith is running in demo mode') || !METRICS_LINE.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the app did not start; output:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const gatewayMetricsUrl = METRICS_LINE.exec(output)![1]!;
  return {
    url: `http://localhost:${port}`,
    port,
    gatewayMetricsUrl,
    pid: child.pid!,
    output: () => output,
    stop,
  };
}

/** startDemoApp, its duration recorded for the slowest-files table (stack-timings.ts). */
export const startDemoApp = timed('the app as npm start runs it', startDemoAppUntimed);
