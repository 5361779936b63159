import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { rulesV1, SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { DEMO_API_SECRET, EVENTS_STREAM, RpcClient } from '@ratesmith/kit';
import { carrierRateRequest, signBody } from '@ratesmith/shopify-double';
import {
  backwardRates,
  staleRates,
  summary,
  unansweredCallbacks,
  unclearSaveErrors,
  unsavedRates,
  type CallbackRecord,
  type PropagationRecord,
  type SaveRecord,
} from './cluster-checks';
import type { ServiceName, ServiceReplica } from './cluster-services';
import { startClusterStack, type ClusterStack } from './cluster-stack';
import { answerBody, flatFeeFilter } from './faults/app-calls';

/**
 * The app on a 3-node NATS cluster with two replicas of every service, under
 * failures: while checkout callbacks hit both engine replicas and the admin
 * saves through both gateways, NATS nodes are killed (SIGKILL) or frozen
 * and restarted, and replicas of the services are killed and restarted; shops
 * are redacted through the webhook in between. Then the records are checked
 * (tools/devstack/src/cluster-checks.ts) and the figures computed. Used by
 * tools/devstack/test/cluster.int.spec.ts (short) and `npm run cluster:run`.
 */

const LOAD_SHOP = 'cluster-load.myshopify.com';
const redactShop = (i: number) => `cluster-redact-${i + 1}.myshopify.com`;
const KV_STREAM = `KV_${SNAPSHOT_BUCKET}`;
/** A save must reach every engine replica within this; callbacks may be this much behind. */
export const PROPAGATION_LIMIT_MS = 10_000;
const CALLBACK_WORKERS = 3;

export type Step =
  | { kind: 'kill-node'; which: 'bucket-leader' | 'events-leader' | 'other'; downMs: number }
  | { kind: 'freeze-node'; downMs: number }
  | { kind: 'kill-replica'; service: ServiceName; index: number; downMs: number }
  | { kind: 'redact' }
  | { kind: 'steady'; ms: number };

/** The test's run: one node (the bucket's leader), one rules and one engine replica. */
export const SHORT_PLAN: Step[] = [
  { kind: 'steady', ms: 2000 },
  { kind: 'redact' },
  { kind: 'kill-node', which: 'bucket-leader', downMs: 4000 },
  { kind: 'redact' },
  { kind: 'kill-replica', service: 'rules', index: 0, downMs: 2000 },
  { kind: 'redact' },
  { kind: 'kill-replica', service: 'rate-engine', index: 0, downMs: 2000 },
  { kind: 'steady', ms: 2000 },
];

/** One round of the long run: every node's kind of loss and a replica of every service. */
export function longRound(round: number): Step[] {
  const index = round % 2;
  return [
    { kind: 'kill-node', which: 'bucket-leader', downMs: 5000 },
    { kind: 'redact' },
    { kind: 'steady', ms: 3000 },
    { kind: 'kill-node', which: 'events-leader', downMs: 5000 },
    { kind: 'steady', ms: 3000 },
    { kind: 'kill-node', which: 'other', downMs: 5000 },
    { kind: 'freeze-node', downMs: 6000 },
    { kind: 'redact' },
    ...(['auth', 'rules', 'catalog', 'rate-engine', 'gateway'] as const).map((service): Step => ({
      kind: 'kill-replica',
      service,
      index,
      downMs: 3000,
    })),
    { kind: 'redact' },
    { kind: 'steady', ms: 3000 },
  ];
}

export interface LeaderElection {
  node: string;
  stream: string;
  /** From the kill to a new leader answering for the stream. */
  ms: number;
}

export interface ClusterFigures {
  wallMs: number;
  callbacks: { total: number; answered: number; latencyMs: ReturnType<typeof summary> };
  saves: {
    attempted: number;
    acknowledged: number;
    /** Failed saves by HTTP status, with the messages the merchant saw. */
    failedByStatus: Record<string, number>;
    failureMessages: string[];
  };
  propagationMs: ReturnType<typeof summary> & { samples: number };
  leaderElections: LeaderElection[];
  /** From a node's restart to every replica of both streams being current again. */
  nodeCatchUpMs: number[];
  /** From a replica's restart to its /readyz. */
  replicaRestartMs: Record<string, number[]>;
  redactions: { shops: number; appliedOnce: number; webhookRetries: number };
  replicas: { bucket: number; events: number; consumer: number };
  steps: string[];
}

export interface ClusterRunResult {
  figures: ClusterFigures;
  /** Every check that failed; empty when the run held. */
  violations: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Replicas in rotation, as a load balancer has them, and the calls each has in flight. */
class Rotation {
  private next = 0;
  private readonly out = new Set<ServiceReplica>();
  private readonly inFlight = new Map<ServiceReplica, number>();

  constructor(private readonly replicas: ServiceReplica[]) {}

  pick(): ServiceReplica {
    const live = this.replicas.filter((r) => !this.out.has(r));
    if (live.length === 0) throw new Error('no replica in rotation');
    return live[this.next++ % live.length]!;
  }

  live(): ServiceReplica[] {
    return this.replicas.filter((r) => !this.out.has(r));
  }

  async use<T>(replica: ServiceReplica, call: () => Promise<T>): Promise<T> {
    this.inFlight.set(replica, (this.inFlight.get(replica) ?? 0) + 1);
    try {
      return await call();
    } finally {
      this.inFlight.set(replica, this.inFlight.get(replica)! - 1);
    }
  }

  /** Out of rotation, then waits (bounded) for its calls to end: what a readiness probe and a drain give. */
  async drain(replica: ServiceReplica): Promise<void> {
    this.out.add(replica);
    const deadline = Date.now() + 10_000;
    while ((this.inFlight.get(replica) ?? 0) > 0 && Date.now() < deadline) await sleep(10);
  }

  restore(replica: ServiceReplica): void {
    this.out.delete(replica);
  }
}

export class ClusterRun {
  readonly callbacks: CallbackRecord[] = [];
  readonly saves: SaveRecord[] = [];
  readonly propagation: PropagationRecord[] = [];
  readonly elections: LeaderElection[] = [];
  readonly catchUps: number[] = [];
  readonly restarts: Record<string, number[]> = {};
  readonly violations: string[] = [];
  readonly steps: string[] = [];
  private readonly engines: Rotation;
  private readonly gateways: Rotation;
  private rateKey = '';
  private rulesetId = '';
  private dollars = 0;
  private stopped = false;
  private redacted = 0;
  private webhookRetries = 0;
  private readonly redactions: Promise<void>[] = [];
  private readonly log: (line: string) => void;

  constructor(
    private readonly stack: ClusterStack,
    private readonly options: { redactShops: number; log?: (line: string) => void },
  ) {
    this.engines = new Rotation(stack.replicas['rate-engine']);
    this.gateways = new Rotation(stack.replicas.gateway);
    this.log = options.log ?? (() => undefined);
  }

  /** An admin call through a gateway in rotation, with a fresh demo session token. */
  private async api(
    shop: string,
    path: string,
    init: { method?: string; body?: unknown } = {},
    gateway = this.gateways.pick(),
  ): Promise<{ status: number; body: any; gateway: string }> {
    return this.gateways.use(gateway, async () => {
      const signal = AbortSignal.timeout(15_000);
      try {
        const tokenRes = await fetch(`${gateway.url}/demo/session-token?shop=${shop}`, { signal });
        const { token } = (await tokenRes.json()) as { token: string };
        const res = await fetch(`${gateway.url}${path}`, {
          method: init.method ?? 'GET',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          signal,
        });
        return { status: res.status, body: await answerBody(res), gateway: gateway.id };
      } catch (err) {
        return { status: 0, body: { message: (err as Error).message }, gateway: gateway.id };
      }
    });
  }

  /** One checkout callback, signed as Shopify signs it, recorded. */
  private async callback(engine: ServiceReplica): Promise<CallbackRecord> {
    const raw = JSON.stringify(carrierRateRequest());
    const startedAt = Date.now();
    const record: CallbackRecord = { engine: engine.id, startedAt, endedAt: 0, status: 0 };
    try {
      const res = await this.engines.use(engine, () =>
        fetch(`${engine.url}/carrier/rates/${this.rateKey}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-shopify-shop-domain': LOAD_SHOP,
            'x-shopify-hmac-sha256': signBody(raw, DEMO_API_SECRET),
          },
          body: raw,
          signal: AbortSignal.timeout(5000),
        }),
      );
      record.status = res.status;
      const body = (await res.json()) as { rates?: { total_price?: string }[] };
      const price = body.rates?.[0]?.total_price;
      if (price !== undefined) record.cents = Number(price);
    } catch (err) {
      record.error = (err as Error).message;
    }
    record.endedAt = Date.now();
    this.callbacks.push(record);
    return record;
  }

  /** Installs the demo shops, gives the load shop its first fee, and shops to redact their rules. */
  async setup(): Promise<void> {
    await this.installWithRuleset(LOAD_SHOP, 'Load');
    await this.save();
    const enabled = await this.api(LOAD_SHOP, `/api/global-rules/${this.rulesetId}/toggle`);
    if (enabled.body.message !== 'Ruleset enabled.')
      throw new Error(`the load ruleset was not enabled: ${JSON.stringify(enabled.body)}`);
    const deadline = Date.now() + 30_000;
    while (!this.rateKey) {
      const service = this.stack.double.carrierServices.list(LOAD_SHOP)[0];
      if (service) this.rateKey = new URL(service.callbackUrl).pathname.split('/').pop()!;
      else if (Date.now() > deadline) throw new Error('no carrier service was registered');
      else await sleep(100);
    }
    for (const engine of this.engines.live())
      if ((await this.waitForRate(engine, this.dollars * 100)) === undefined)
        throw new Error(`${engine.id} never answered the first fee`);
    for (let i = 0; i < this.options.redactShops; i++)
      await this.installWithRuleset(redactShop(i), 'Doomed');
    // The polls above met the engines before the snapshot: only the run's callbacks count. The
    // first save stays, as the fee callbacks answer until the next one.
    this.callbacks.length = 0;
  }

  private async installWithRuleset(shop: string, name: string): Promise<void> {
    const list = await this.api(shop, '/api/global-rules');
    if (list.status !== 200) throw new Error(`${shop} did not install: ${list.status}`);
    const created = await this.api(shop, '/api/global-rules', { method: 'POST', body: { name } });
    if (!created.body.rule?.id) throw new Error(`no ruleset for ${shop}: ${created.status}`);
    if (shop === LOAD_SHOP) this.rulesetId = created.body.rule.id as string;
  }

  /** Saves the load shop's filter with the next fee; returns whether it was acknowledged. */
  private async save(): Promise<SaveRecord> {
    const n = ++this.dollars;
    const startedAt = Date.now();
    const res = await this.api(LOAD_SHOP, `/api/global-rules/update/${this.rulesetId}`, {
      method: 'POST',
      body: { rules: [flatFeeFilter(n)] },
    });
    const acknowledged = res.status === 200 && res.body.status === true;
    const record: SaveRecord = {
      n,
      cents: n * 100,
      gateway: res.gateway,
      startedAt,
      endedAt: Date.now(),
      status: res.status,
      acknowledged,
      message: acknowledged ? undefined : String(res.body.message ?? ''),
    };
    this.saves.push(record);
    return record;
  }

  /**
   * Polls an engine replica until it answers at least `cents`: the time it took, undefined
   * if it never did, or 'left' if it was taken out of rotation meanwhile (`inRotation`).
   */
  private async waitForRate(
    engine: ServiceReplica,
    cents: number,
    inRotation = true,
  ): Promise<number | undefined | 'left'> {
    const from = Date.now();
    while (Date.now() - from < PROPAGATION_LIMIT_MS + 5000 && !this.stoppedHard) {
      if (inRotation && !this.engines.live().includes(engine)) return 'left';
      const c = await this.callback(engine);
      if (c.cents !== undefined && c.cents >= cents) return c.endedAt - from;
      await sleep(20);
    }
    return undefined;
  }

  private stoppedHard = false;

  private async callbackLoop(): Promise<void> {
    for (let i = 0; !this.stopped && i < 1_000_000; i++) {
      await this.callback(this.engines.pick());
      await sleep(5);
    }
  }

  /** Saves one after another through both gateways; each acknowledged one must reach every engine. */
  private async saveLoop(): Promise<void> {
    for (let i = 0; !this.stopped && i < 100_000; i++) {
      const save = await this.save();
      if (save.acknowledged) {
        await Promise.all(
          this.engines.live().map(async (engine) => {
            const ms = await this.waitForRate(engine, save.cents);
            // An engine taken out meanwhile must have it before it is back (killReplica).
            if (ms === 'left') return;
            if (ms === undefined) this.violations.push(`save ${save.n} never reached ${engine.id}`);
            else this.propagation.push({ save: save.n, engine: engine.id, ms });
          }),
        );
      }
      await sleep(150);
    }
  }

  private async streamLeader(stream: string, nc = this.stack.admin): Promise<string | undefined> {
    try {
      const jsm = await jetstreamManager(nc, { timeout: 1000, checkAPI: false });
      return (await jsm.streams.info(stream)).cluster?.leader;
    } catch {
      return undefined;
    }
  }

  /** Waits until both streams have a leader other than `gone` and every replica is current. */
  private async waitForStreams(gone: string | undefined, timeoutMs: number): Promise<number> {
    const from = Date.now();
    while (Date.now() - from < timeoutMs) {
      let healthy = true;
      for (const stream of [KV_STREAM, EVENTS_STREAM]) {
        try {
          const info = await (await this.stack.jsm()).streams.info(stream);
          const cluster = info.cluster;
          const peers = cluster?.replicas ?? [];
          if (!cluster?.leader || cluster.leader === gone) healthy = false;
          if (gone === undefined && (peers.length < 2 || peers.some((p) => !p.current)))
            healthy = false;
        } catch {
          healthy = false;
        }
      }
      if (healthy) return Date.now() - from;
      await sleep(50);
    }
    throw new Error(`the streams did not recover within ${timeoutMs} ms`);
  }

  private async killNode(step: Extract<Step, { kind: 'kill-node' | 'freeze-node' }>) {
    const { cluster } = this.stack;
    const leaders = {
      [KV_STREAM]: await this.streamLeader(KV_STREAM),
      [EVENTS_STREAM]: await this.streamLeader(EVENTS_STREAM),
    };
    // A frozen node is the bucket's leader: the stall every client of it and every peer waits on.
    const name =
      step.kind === 'freeze-node' || step.which === 'bucket-leader'
        ? leaders[KV_STREAM]
        : step.which === 'events-leader'
          ? leaders[EVENTS_STREAM]
          : cluster.nodes.find((n) => !Object.values(leaders).includes(n.name))?.name;
    const node = cluster.node(name ?? cluster.nodes[0]!.name);
    const led = Object.entries(leaders)
      .filter(([, leader]) => leader === node.name)
      .map(([stream]) => stream);
    this.steps.push(
      `${step.kind === 'kill-node' ? 'SIGKILL' : 'SIGSTOP'} NATS ${node.name} (leader of: ${led.join(', ') || 'nothing'}) for ${step.downMs} ms`,
    );
    this.log(this.steps.at(-1)!);
    // Elections are watched from the other nodes: a client of a frozen node waits on it.
    const survivors = cluster.nodes.filter((n) => n !== node).map((n) => n.url);
    const probe = await this.stack.connectAdmin(survivors.join(','));
    const killedAt = Date.now();
    if (step.kind === 'kill-node') await node.kill();
    else node.freeze();
    // The leader election of each stream the node led, timed from the loss. A frozen
    // node may be back before one happens: that is no failure.
    const bound = step.kind === 'kill-node' ? 30_000 : step.downMs;
    const elections = Promise.all(
      led.map(async (stream) => {
        while (Date.now() - killedAt < bound) {
          const leader = await this.streamLeader(stream, probe);
          if (leader && leader !== node.name) {
            this.elections.push({ node: node.name, stream, ms: Date.now() - killedAt });
            return;
          }
          await sleep(50);
        }
        if (step.kind === 'kill-node')
          this.violations.push(`${stream} had no new leader 30 s after ${node.name} was killed`);
      }),
    );
    await sleep(step.downMs);
    const back = Date.now();
    if (step.kind === 'kill-node') await node.restart();
    else node.thaw();
    await elections;
    await probe.close();
    await this.waitForStreams(undefined, 60_000);
    this.catchUps.push(Date.now() - back);
  }

  private async killReplica(step: Extract<Step, { kind: 'kill-replica' }>) {
    const replica = this.stack.replicas[step.service][step.index]!;
    const rotation =
      step.service === 'rate-engine'
        ? this.engines
        : step.service === 'gateway'
          ? this.gateways
          : undefined;
    this.steps.push(`SIGKILL ${replica.id} for ${step.downMs} ms`);
    this.log(this.steps.at(-1)!);
    await rotation?.drain(replica);
    await replica.kill();
    await sleep(step.downMs);
    replica.start();
    await replica.waitReady(60_000);
    (this.restarts[replica.id] ??= []).push(Date.now() - replica.startedAt);
    if (replica.service === 'rate-engine') {
      // Back from a cold start, it must know the last acknowledged fee before taking traffic.
      const last = this.saves.filter((s) => s.acknowledged).at(-1);
      if (last && (await this.waitForRate(replica, last.cents, false)) === undefined)
        this.violations.push(`${replica.id} came back without save ${last.n}`);
    }
    rotation?.restore(replica);
  }

  /** Uninstall then shop/redact through a gateway, each webhook retried with its id until 200. */
  private async redact(shop: string): Promise<void> {
    this.stack.double.uninstall(shop);
    for (const topic of ['app/uninstalled', 'shop/redact']) {
      const webhookId = randomUUID();
      const deadline = Date.now() + 60_000;
      for (let attempt = 0; ; attempt++) {
        const gateway = this.gateways.pick();
        const status = await this.gateways.use(gateway, () =>
          this.stack.double
            .sendWebhook(`${gateway.url}/webhooks/${topic}`, topic, shop, undefined, { webhookId })
            .then((r) => r.status)
            .catch(() => 0),
        );
        if (status === 200) break;
        this.webhookRetries++;
        if (Date.now() > deadline) {
          this.violations.push(`${topic} of ${shop} was not accepted within 60 s (last ${status})`);
          return;
        }
        await sleep(500);
      }
    }
  }

  async run(plan: Iterable<Step>): Promise<void> {
    const loads = [
      ...Array.from({ length: CALLBACK_WORKERS }, () => this.callbackLoop()),
      this.saveLoop(),
    ];
    try {
      for (const step of plan) {
        if (step.kind === 'steady') await sleep(step.ms);
        else if (step.kind === 'redact') {
          if (this.redacted < this.options.redactShops) {
            const shop = redactShop(this.redacted++);
            this.steps.push(`redact ${shop}`);
            this.redactions.push(this.redact(shop));
          }
        } else if (step.kind === 'kill-replica') await this.killReplica(step);
        else await this.killNode(step);
      }
    } finally {
      this.stopped = true;
      await Promise.all(loads);
      await Promise.all(this.redactions);
    }
  }

  /** Each redacted shop: its rulesets and snapshot gone, and the rules service applied it once. */
  private async checkRedactions(): Promise<number> {
    const rules = new RpcClient(this.stack.admin, rulesV1.RulesService, {
      timeoutMs: 5000,
      displayName: 'rules',
    });
    const kv = await new Kvm(this.stack.admin).open(SNAPSHOT_BUCKET);
    let once = 0;
    for (let i = 0; i < this.redacted; i++) {
      const shop = redactShop(i);
      const deadline = Date.now() + 30_000;
      let left = -1;
      while (Date.now() < deadline) {
        left = (await rules.call('listRulesets', { shop })).rulesets.length;
        const entry = await kv.get(shop);
        if (left === 0 && (!entry || entry.operation !== 'PUT')) break;
        await sleep(200);
      }
      if (left !== 0)
        this.violations.push(`${shop} still has ${left} rulesets after its redaction`);
      // Read after the wait: the last redaction may have been applied just now.
      const logs = this.stack.replicas.rules.map((r) => r.logText()).join('\n');
      const applied = appliedRedactions(logs, shop);
      if (applied === 1) once++;
      else this.violations.push(`${shop}'s redaction was applied ${applied} times (want 1)`);
    }
    return once;
  }

  private async replicaCounts(): Promise<ClusterFigures['replicas']> {
    const jsm = await this.stack.jsm();
    const bucket = (await jsm.streams.info(KV_STREAM)).config.num_replicas;
    const events = (await jsm.streams.info(EVENTS_STREAM)).config.num_replicas;
    const consumers = await jsm.consumers.list(EVENTS_STREAM).next();
    const consumer = consumers[0]?.cluster?.replicas ? consumers[0].cluster.replicas.length + 1 : 1;
    return { bucket, events, consumer };
  }

  async finish(startedAt: number): Promise<ClusterRunResult> {
    this.stoppedHard = true;
    const appliedOnce = await this.checkRedactions();
    const v = this.violations;
    for (const c of unansweredCallbacks(this.callbacks).slice(0, 5))
      v.push(`callback to ${c.engine} at ${c.startedAt} answered ${c.status} ${c.error ?? ''}`);
    for (const c of unsavedRates(this.callbacks, this.saves).slice(0, 5))
      v.push(`${c.engine} answered ${c.cents}, a fee no save had set`);
    // The window is the slowest propagation measured: a save acknowledged longer ago than
    // that had reached every engine, so no callback begun since may answer an older fee.
    const propagation = this.propagation.map((p) => p.ms);
    const window = propagation.length ? Math.max(...propagation) : PROPAGATION_LIMIT_MS;
    for (const s of staleRates(this.callbacks, this.saves, window).slice(0, 5))
      v.push(
        `${s.callback.engine} answered ${s.callback.cents} at ${s.callback.startedAt}, older than ${s.expectedAtLeast}`,
      );
    for (const b of backwardRates(this.callbacks).slice(0, 5))
      v.push(`${b.later.engine} went back from ${b.earlier.cents} to ${b.later.cents}`);
    for (const s of unclearSaveErrors(this.saves).slice(0, 5))
      v.push(`save ${s.n} through ${s.gateway} failed without a clear error (${s.status})`);
    if (propagation.some((ms) => ms > PROPAGATION_LIMIT_MS))
      v.push(`a save took ${Math.max(...propagation)} ms to reach an engine`);
    const failed = this.saves.filter((s) => !s.acknowledged);
    const failedByStatus: Record<string, number> = {};
    for (const s of failed) failedByStatus[s.status] = (failedByStatus[s.status] ?? 0) + 1;
    const answered = this.callbacks.filter((c) => c.status === 200 && c.cents !== undefined);
    return {
      violations: v,
      figures: {
        wallMs: Date.now() - startedAt,
        callbacks: {
          total: this.callbacks.length,
          answered: answered.length,
          latencyMs: summary(this.callbacks.map((c) => c.endedAt - c.startedAt)),
        },
        saves: {
          attempted: this.saves.length,
          acknowledged: this.saves.length - failed.length,
          failedByStatus,
          failureMessages: [...new Set(failed.map((s) => s.message ?? ''))],
        },
        propagationMs: { ...summary(propagation), samples: propagation.length },
        leaderElections: this.elections,
        nodeCatchUpMs: this.catchUps,
        replicaRestartMs: this.restarts,
        redactions: { shops: this.redacted, appliedOnce, webhookRetries: this.webhookRetries },
        replicas: await this.replicaCounts(),
        steps: this.steps,
      },
    };
  }
}

/** How many times the rules replicas logged applying a shop's redaction. */
export function appliedRedactions(logs: string, shop: string): number {
  let count = 0;
  for (const line of logs.split('\n')) {
    if (!line.includes('shop redacted')) continue;
    try {
      const entry = JSON.parse(line) as { msg?: string; shop?: string };
      if (entry.msg === 'shop redacted' && entry.shop === shop) count++;
    } catch {
      // not a log line of the service
    }
  }
  return count;
}

export interface ClusterRunOptions {
  plan: Iterable<Step>;
  redactShops: number;
  log?: (line: string) => void;
  keepFiles?: boolean;
  /** Called with the stack once it runs, so a caller can stop it whatever happens. */
  onStack?: (stack: ClusterStack) => void;
}

/**
 * The whole run: the stack (with the bucket left at one copy by an "older
 * deployment", which the services must raise), the setup, the plan under
 * load, the checks. The stack is stopped whatever happens.
 */
export async function runClusterUnderFailure(
  options: ClusterRunOptions,
): Promise<ClusterRunResult> {
  const started = Date.now();
  const shops = [
    LOAD_SHOP,
    ...Array.from({ length: options.redactShops }, (_, i) => redactShop(i)),
  ];
  const stack = await startClusterStack({
    demoShops: shops,
    jetstreamReplicas: 3,
    log: options.log,
    keepFiles: options.keepFiles,
    beforeServices: async (admin) => {
      await new Kvm(admin).create(SNAPSHOT_BUCKET, { history: 1, replicas: 1 });
    },
  });
  options.onStack?.(stack);
  try {
    const run = new ClusterRun(stack, { redactShops: options.redactShops, log: options.log });
    await run.setup();
    options.log?.('setup done; load and failures start');
    await run.run(options.plan);
    return await run.finish(started);
  } finally {
    await stack.stop();
  }
}
