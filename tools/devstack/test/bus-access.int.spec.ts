import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AckPolicy, DeliverPolicy, jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { fromSeed } from '@nats-io/nkeys';
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { authV1, eventSubject } from '@ratesmith/contracts';
import {
  BUS_SERVICES,
  connectNats,
  createLogger,
  eventConsumerName,
  eventsStreamName,
  type BusService,
} from '@ratesmith/kit';
import { makeBusTls, newBusUsers, type BusTls, type BusUsers } from '../src/bus';
import { repoRoot, startNatsServer, type RunningServer } from '../src/servers';

/**
 * The bus refuses what each service has no business with: a NATS server with
 * the generated config (tools/devstack/src/bus.ts, from services/kit/src/bus-access.ts)
 * and each service's own user. The expectations below are written out by hand, so
 * a grant that grows too wide fails here, not only in review.
 */

const SNAPSHOTS = '$KV.ratesmith_snapshots';

interface Attempt {
  what: string;
  kind: 'publish' | 'subscribe';
  subject: string;
  /** The services that may do it; every other one must be refused. */
  allowed: BusService[];
}

const ATTEMPTS: Attempt[] = [
  {
    // Retired: auth makes the Shopify calls, so no service can get a token.
    what: "ask for a shop's offline access token",
    kind: 'publish',
    subject: 'ratesmith.auth.v1.GetAccessToken',
    allowed: [],
  },
  {
    what: "run a catalogue query on Shopify with a shop's token",
    kind: 'publish',
    subject: 'ratesmith.auth.v1.RunAdminQuery',
    allowed: ['catalog'],
  },
  {
    what: 'answer (or intercept) the OAuth callback',
    kind: 'subscribe',
    subject: 'ratesmith.auth.v1.CompleteOAuth',
    allowed: ['auth'],
  },
  {
    what: 'answer (or intercept) catalogue queries',
    kind: 'subscribe',
    subject: 'ratesmith.auth.v1.RunAdminQuery',
    allowed: ['auth'],
  },
  {
    what: "rewrite a shop's snapshot (checkout prices)",
    kind: 'publish',
    subject: `${SNAPSHOTS}.victim_myshopify_com`,
    allowed: ['rules'],
  },
  {
    what: 'delete the snapshot bucket',
    kind: 'publish',
    subject: '$JS.API.STREAM.DELETE.KV_ratesmith_snapshots',
    allowed: [],
  },
  {
    what: 'purge the events stream',
    kind: 'publish',
    subject: '$JS.API.STREAM.PURGE.RATESMITH_EVENTS',
    allowed: [],
  },
  {
    what: 'publish ShopRedacted (deletes a shop)',
    kind: 'publish',
    subject: 'ratesmith.auth.v1.events.ShopRedacted',
    allowed: ['auth'],
  },
  {
    what: "set a shop's rate key",
    kind: 'publish',
    subject: 'ratesmith.rules.v1.SetRateKey',
    allowed: ['auth'],
  },
  {
    what: 'save a ruleset',
    kind: 'publish',
    subject: 'ratesmith.rules.v1.SaveRulesetFilters',
    allowed: ['gateway'],
  },
  {
    what: "record checkout outcomes (the engine's batches)",
    kind: 'publish',
    subject: 'ratesmith.rules.v1.RecordCheckoutOutcomes',
    allowed: ['rate-engine'],
  },
  {
    what: "read a shop's checkout outcomes",
    kind: 'publish',
    subject: 'ratesmith.rules.v1.GetCheckoutOutcomes',
    allowed: ['gateway'],
  },
  {
    what: 'rebuild every snapshot',
    kind: 'publish',
    subject: 'ratesmith.rules.v1.RebuildSnapshots',
    allowed: [],
  },
  {
    what: 'answer rules requests',
    kind: 'subscribe',
    subject: 'ratesmith.rules.v1.SaveRulesetFilters',
    allowed: ['rules'],
  },
  {
    what: 'answer checkout previews',
    kind: 'subscribe',
    subject: 'ratesmith.rate_engine.v1.PreviewRates',
    allowed: ['rate-engine'],
  },
  {
    what: "read the catalog's replies (store data travels there)",
    kind: 'subscribe',
    subject: '_INBOX_catalog.x',
    allowed: ['catalog'],
  },
  {
    what: "read the gateway's replies",
    kind: 'subscribe',
    subject: '_INBOX_gateway.x',
    allowed: ['gateway'],
  },
  { what: 'read every reply', kind: 'subscribe', subject: '_INBOX.x', allowed: [] },
  { what: 'read everything', kind: 'subscribe', subject: 'ratesmith.x', allowed: [] },
];

const logger = createLogger('bus-access-test', 'silent');
let dir: string;
let tls: BusTls;
let users: BusUsers;
let nats: RunningServer;
let admin: NatsConnection;
const services = new Map<BusService, NatsConnection>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ratesmith-bus-'));
  tls = makeBusTls(join(dir, 'tls'));
  users = newBusUsers();
  nats = await startNatsServer({ users, tls });
  const as = (name: BusService | 'admin') =>
    connectNats({
      url: nats.url,
      name,
      logger,
      nkeySeed: users[name].seed,
      tlsCaFile: tls.caFile,
      waitOnFirstConnect: false,
    });
  admin = await as('admin');
  for (const service of BUS_SERVICES) services.set(service, await as(service));
}, 60_000);

afterAll(async () => {
  await Promise.all([admin, ...services.values()].map((nc) => nc?.close()));
  await nats?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Whether `nc`'s publish reached a subscriber with no limits (the server drops a refused one). */
async function published(nc: NatsConnection, subject: string): Promise<boolean> {
  const seen: string[] = [];
  const sub = admin.subscribe(subject, {
    callback: (_err, msg) => {
      seen.push(msg.subject);
    },
  });
  await admin.flush();
  nc.publish(subject, 'probe');
  // The server answers a PING after it has routed (or refused) what came before it.
  await nc.flush();
  await admin.flush();
  sub.unsubscribe();
  return seen.includes(subject);
}

/** Whether the server let `nc` subscribe (a refused subscription is closed with an error). */
async function subscribed(nc: NatsConnection, subject: string): Promise<boolean> {
  const sub = nc.subscribe(subject, { queue: 'probe' });
  await nc.flush();
  const allowed = !sub.isClosed();
  if (allowed) {
    // And it receives: the admin publishes, both flush.
    const got = (async () => {
      for await (const msg of sub) return msg.subject;
      return undefined;
    })();
    admin.publish(subject, 'probe');
    await admin.flush();
    await nc.flush();
    sub.unsubscribe();
    expect(await got).toBe(subject);
  } else {
    expect(String(await sub.closed)).toMatch(/Permissions Violation/i);
  }
  return allowed;
}

describe('the bus, locked down', () => {
  it.each(ATTEMPTS.map((a) => [a.what, a] as const))(
    'only the allowed services may %s',
    async (_what, attempt) => {
      const outcome: Record<string, boolean> = {};
      for (const [service, nc] of services) {
        outcome[service] =
          attempt.kind === 'publish'
            ? await published(nc, attempt.subject)
            : await subscribed(nc, attempt.subject);
      }
      const expected = Object.fromEntries(
        BUS_SERVICES.map((s) => [s, attempt.allowed.includes(s)]),
      );
      expect(outcome).toEqual(expected);
    },
  );

  it("lets no service create a consumer on the snapshot bucket: a push one would deliver every shop's snapshot to a subject of its choosing", async () => {
    const snapshots = await new Kvm(admin).create('ratesmith_snapshots', { history: 1 });
    const redirected: string[] = [];
    const sub = admin.subscribe('elsewhere.snapshots', {
      callback: (_err, msg) => {
        redirected.push(msg.subject);
      },
    });
    await admin.flush();
    const outcome: Record<string, string> = {};
    for (const [service, nc] of services) {
      const jsm = await jetstreamManager(nc, { timeout: 2000, checkAPI: false });
      outcome[service] = await jsm.consumers
        .add('KV_ratesmith_snapshots', {
          deliver_subject: 'elsewhere.snapshots',
          ack_policy: AckPolicy.None,
          deliver_policy: DeliverPolicy.All,
        })
        .then(
          () => 'created',
          (err: Error) => (/permissions|timeout/i.test(err.message) ? 'refused' : err.message),
        );
    }
    expect(outcome).toEqual(Object.fromEntries(BUS_SERVICES.map((s) => [s, 'refused'])));
    // Nothing was made that could deliver a snapshot elsewhere.
    await snapshots.put('victim_myshopify_com', 'a snapshot');
    await admin.flush();
    await new Promise((r) => setTimeout(r, 300));
    sub.unsubscribe();
    expect(redirected).toEqual([]);
    expect(
      await (await jetstreamManager(admin)).consumers.list('KV_ratesmith_snapshots').next(),
    ).toEqual([]);
  });

  it('lets only rules make a consumer on the events stream, and only the one it reads redactions with', async () => {
    const stream = eventsStreamName();
    const redacted = eventSubject(authV1.ShopRedactedSchema);
    await (await jetstreamManager(admin)).streams.add({ name: stream, subjects: [redacted] });
    const own = eventConsumerName('rules', authV1.ShopRedactedSchema);
    const tryCreate = async (nc: NatsConnection, name: string) => {
      const jsm = await jetstreamManager(nc, { timeout: 2000, checkAPI: false });
      return jsm.consumers
        .add(stream, {
          durable_name: name,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          filter_subject: redacted,
        })
        .then(
          () => 'created',
          (err: Error) => (/permissions|timeout/i.test(err.message) ? 'refused' : err.message),
        );
    };
    const outcome: Record<string, [string, string]> = {};
    for (const [service, nc] of services) {
      outcome[service] = [await tryCreate(nc, own), await tryCreate(nc, 'another_consumer')];
    }
    expect(outcome).toEqual(
      Object.fromEntries(
        BUS_SERVICES.map((s) => [s, [s === 'rules' ? 'created' : 'refused', 'refused']]),
      ),
    );
    const names: string[] = [];
    for await (const info of (await jetstreamManager(admin)).consumers.list(stream)) {
      names.push(info.name);
    }
    expect(names).toEqual([own]);
  });

  it('refuses a connection without a user, with a stranger key, or that does not trust its CA', async () => {
    const servers = nats.url;
    const ca = { tls: { caFile: tls.caFile } };
    await expect(connect({ servers, ...ca, reconnect: false })).rejects.toThrow(/Authorization/i);
    const stranger = newBusUsers().auth.seed;
    await expect(
      connect({
        servers,
        ...ca,
        reconnect: false,
        authenticator: nkeyAuthenticator(new TextEncoder().encode(stranger)),
      }),
    ).rejects.toThrow(/Authorization/i);
    // The server requires TLS; a client with the system's authorities cannot verify it.
    await expect(
      connect({
        servers,
        reconnect: false,
        authenticator: nkeyAuthenticator(new TextEncoder().encode(users.auth.seed)),
      }),
    ).rejects.toThrow(/certificate/i);
  });
});

describe('npm run nats:users', () => {
  it('prints a seed for the Secret and its public key for the chart, per service', () => {
    const script = join(repoRoot, 'tools', 'devstack', 'dist', 'nats-users.js');
    const out = execFileSync(process.execPath, [script, 'my-users'], { encoding: 'utf8' });
    expect(out).toContain('kubectl create secret generic my-users');
    expect(out).toContain('nats.auth.existingSecret=my-users');
    for (const service of BUS_SERVICES) {
      const seed = new RegExp(`--from-literal=${service}=(SU[A-Z2-7]{56})`).exec(out)?.[1];
      const key = new RegExp(`nats\\.auth\\.publicKeys\\.${service}=(U[A-Z2-7]{55})`).exec(
        out,
      )?.[1];
      expect(fromSeed(new TextEncoder().encode(seed!)).getPublicKey()).toBe(key);
    }
  });
});
