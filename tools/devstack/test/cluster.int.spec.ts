import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  PROPAGATION_LIMIT_MS,
  runClusterUnderFailure,
  SHORT_PLAN,
  type ClusterRunResult,
} from '../src/cluster-run';
import type { ClusterStack } from '../src/cluster-stack';
import { repoRoot } from '../src/servers';

/**
 * The app on a 3-node NATS cluster with two processes of every service,
 * under failures (the short form of `npm run cluster:run`): the NATS node
 * leading the snapshot bucket is killed and restarted, then a rules replica,
 * then an engine replica, while checkout callbacks hit both engines and the
 * admin saves through both gateways, and shops are redacted through the
 * webhook. Every callback must be answered with a rate somebody saved, never
 * older than the propagation limit allows and never going backwards, every
 * acknowledged save must reach every engine, and every redaction must be
 * applied exactly once.
 */
let stack: ClusterStack | undefined;
let result: ClusterRunResult;

beforeAll(async () => {
  for (const service of ['auth', 'rules', 'catalog', 'rate-engine', 'gateway'])
    if (!existsSync(join(repoRoot, 'services', service, 'dist', 'main.js')))
      throw new Error(`services/${service} is not built: run \`npm run build\` (npm test does)`);
  result = await runClusterUnderFailure({
    plan: SHORT_PLAN,
    redactShops: 3,
    onStack: (s) => (stack = s),
  });
}, 170_000);

// The run stops its stack itself; this covers a run cut short by the timeout.
afterAll(async () => {
  await stack?.stop();
});

it('holds through a node kill and replica kills: no violation', () => {
  expect(result.violations).toEqual([]);
});

it('served checkout all along and saved through the failures', () => {
  const { callbacks, saves, propagationMs } = result.figures;
  expect(callbacks.total).toBeGreaterThan(200);
  expect(callbacks.answered).toBe(callbacks.total);
  expect(saves.acknowledged).toBeGreaterThan(5);
  // Every acknowledged save reached both engines (those up at the time) and was timed.
  expect(propagationMs.samples).toBeGreaterThanOrEqual(saves.acknowledged);
  expect(propagationMs.max).toBeLessThanOrEqual(PROPAGATION_LIMIT_MS);
});

it('kept three copies of the bucket (raised from one) and of the events stream, and elected a new bucket leader', () => {
  const { replicas, leaderElections, redactions } = result.figures;
  expect(replicas).toEqual({ bucket: 3, events: 3, consumer: 3 });
  expect(leaderElections.some((e) => e.stream.startsWith('KV_'))).toBe(true);
  expect(redactions).toMatchObject({ shops: 3, appliedOnce: 3 });
});
