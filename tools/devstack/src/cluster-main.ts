/**
 * `npm run cluster:run`: the app on a 3-node NATS cluster with two replicas
 * of every service, under failures for CLUSTER_RUN_SECONDS (default 300):
 * rounds of NATS node kills and freezes and replica kills of every service
 * (tools/devstack/src/cluster-run.ts), then the checks and the figures.
 * CLUSTER_RUN_REDACT_SHOPS shops are redacted on the way (default 10);
 * CLUSTER_RUN_KEEP_FILES=true keeps every node's and replica's log.
 * Exits 1 when a check failed. Ctrl-C stops everything.
 */
import { z } from 'zod';
import { envBoolean, parseEnv } from '@ratesmith/kit';
import {
  longRound,
  PROPAGATION_LIMIT_MS,
  runClusterUnderFailure,
  type ClusterFigures,
  type Step,
} from './cluster-run';
import type { ClusterStack } from './cluster-stack';

const env = parseEnv(
  z.object({
    CLUSTER_RUN_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
    CLUSTER_RUN_REDACT_SHOPS: z.coerce.number().int().min(0).max(100).default(10),
    /** Keep the run's folder: the log of every NATS node and service replica. */
    CLUSTER_RUN_KEEP_FILES: envBoolean.default(false),
  }),
);

/** Rounds of failures until the duration is spent (checked between rounds). */
function* plan(seconds: number): Generator<Step> {
  yield { kind: 'steady', ms: 2000 };
  const deadline = Date.now() + seconds * 1000;
  for (let round = 0; Date.now() < deadline; round++) yield* longRound(round);
}

function print(figures: ClusterFigures): void {
  const f = figures;
  const lines = [
    `wall time                 ${(f.wallMs / 1000).toFixed(0)} s`,
    `callbacks                 ${f.callbacks.answered} answered of ${f.callbacks.total}`,
    `callback latency          p50 ${f.callbacks.latencyMs.p50} ms, p99 ${f.callbacks.latencyMs.p99} ms, max ${f.callbacks.latencyMs.max} ms`,
    `saves                     ${f.saves.acknowledged} acknowledged of ${f.saves.attempted}; failed by status ${JSON.stringify(f.saves.failedByStatus)}`,
    `what the merchant saw     ${JSON.stringify(f.saves.failureMessages)}`,
    `propagation to an engine  p50 ${f.propagationMs.p50} ms, p99 ${f.propagationMs.p99} ms, max ${f.propagationMs.max} ms (${f.propagationMs.samples} samples; limit ${PROPAGATION_LIMIT_MS} ms)`,
    `leader elections          ${f.leaderElections.map((e) => `${e.stream} after ${e.node}: ${e.ms} ms`).join('; ')}`,
    `node back to current      ${f.nodeCatchUpMs.join(', ')} ms`,
    `replica restart to ready  ${Object.entries(f.replicaRestartMs)
      .map(([id, ms]) => `${id} ${ms.join('/')} ms`)
      .join(', ')}`,
    `redactions                ${f.redactions.appliedOnce} of ${f.redactions.shops} applied exactly once; ${f.redactions.webhookRetries} webhook retries`,
    `replicas                  bucket R${f.replicas.bucket}, events R${f.replicas.events}, rules' consumer R${f.replicas.consumer}`,
    'steps:',
    ...f.steps.map((s) => `  ${s}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main(): Promise<void> {
  let stack: ClusterStack | undefined;
  const stop = () => {
    process.stdout.write('stopping...\n');
    void (stack?.stop() ?? Promise.resolve()).then(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  const result = await runClusterUnderFailure({
    plan: plan(env.CLUSTER_RUN_SECONDS),
    redactShops: env.CLUSTER_RUN_REDACT_SHOPS,
    keepFiles: env.CLUSTER_RUN_KEEP_FILES,
    log: (line) => process.stdout.write(`cluster  ${line}\n`),
    onStack: (s) => (stack = s),
  });
  print(result.figures);
  if (result.violations.length) {
    process.stdout.write(`FAILED:\n${result.violations.map((v) => `  ${v}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write('every check held\n');
}

main().catch((err: Error) => {
  process.stderr.write(`cluster run failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
