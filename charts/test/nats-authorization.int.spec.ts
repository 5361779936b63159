import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kvm } from '@nats-io/kv';
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { busAuthorization, freePort, natsServerBinary, stopProcess, waitForPort } from '@ratesmith/devstack';
import { inboxPrefix, type BusService } from '@ratesmith/kit';
import { busAccessFileText } from '../../tools/devstack/src/bus-access-file';
import {
  chart,
  findHelm,
  helmArgs,
  natsAuthValues,
  newServiceKeys,
  parseObjects,
  type Values,
} from './helm';

/**
 * The chart's half of the locked-down bus: files/bus-access.json is busGrants()
 * written out, the ConfigMap it renders holds exactly the users
 * tools/devstack/src/bus.ts gives the local NATS, and a real nats-server that
 * includes it enforces them.
 */

let helm: string;
const keys = newServiceKeys();

beforeAll(() => {
  helm = findHelm();
}, 600_000);

function renderAuthorization(values: Values = {}, extra: string[] = []): string {
  const text = execFileSync(
    helm,
    [
      'template',
      'rs',
      chart,
      '--show-only',
      'templates/nats-authorization.yaml',
      ...helmArgs({ ...natsAuthValues(keys), ...values }),
      ...extra,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const [configMap] = parseObjects(text);
  expect(configMap!.metadata.name).toBe('rs-ratesmith-nats-authorization');
  return configMap!.data!['authorization.conf']!;
}

/** The users of `authorization: {...}`, in a stable order. */
function usersOf(conf: string): object[] {
  const json = /^authorization: (\{.*\})\s*$/s.exec(conf)?.[1];
  const users = (JSON.parse(json!) as { users: { nkey: string }[] }).users;
  return users.sort((a, b) => a.nkey.localeCompare(b.nkey));
}

const publicKeys = Object.fromEntries(
  Object.entries(keys).map(([service, k]) => [service, k.publicKey]),
) as Record<BusService, string>;
const expectedUsers = (options: { prefix?: string; bucket?: string } = {}) =>
  (busAuthorization(publicKeys, options).users as { nkey: string }[]).sort((a, b) =>
    a.nkey.localeCompare(b.nkey),
  );

it('keeps files/bus-access.json equal to busGrants() (regenerate with scripts/render-k8s.sh)', () => {
  const committed = readFileSync(join(chart, 'files', 'bus-access.json'), 'utf8');
  expect(committed).toBe(busAccessFileText());
});

it("renders the users and permissions devstack's NATS runs with, one per service", () => {
  const users = usersOf(renderAuthorization());
  expect(users).toHaveLength(5);
  expect(users).toEqual(expectedUsers());
});

describe('another subject prefix or snapshot bucket', () => {
  it('is refused with the allow-lists of the default ones', () => {
    for (const values of [{ 'nats.subjectPrefix': 'staging.' }, { 'nats.snapshotBucket': 'b2' }] as Values[]) {
      expect(() => renderAuthorization(values)).toThrow(/npm run -s nats:users -- --bus-access/);
    }
  });

  it('renders the allow-lists generated for them (--set-file nats.auth.busAccessJson)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ratesmith-bus-access-'));
    try {
      const file = join(dir, 'bus-access.json');
      const options = { prefix: 'staging.', bucket: 'staging_snapshots' };
      writeFileSync(file, busAccessFileText(options));
      const conf = renderAuthorization(
        { 'nats.subjectPrefix': options.prefix, 'nats.snapshotBucket': options.bucket },
        ['--set-file', `nats.auth.busAccessJson=${file}`],
      );
      expect(usersOf(conf)).toEqual(expectedUsers(options));
      expect(conf).toContain('"staging.ratesmith.auth.v1.>"');
      expect(conf).toContain('"$KV.staging_snapshots.>"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a real nats-server including the rendered ConfigMap', () => {
  let dir: string;
  let server: ChildProcess;
  let url: string;
  const connections: NatsConnection[] = [];
  const as = async (service: BusService) => {
    const nc = await connect({
      servers: url,
      reconnect: false,
      // Replies come to the service's own inbox, the only one it may read.
      inboxPrefix: inboxPrefix(service),
      authenticator: nkeyAuthenticator(new TextEncoder().encode(keys[service].seed)),
    });
    connections.push(nc);
    return nc;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ratesmith-chart-nats-'));
    // As the NATS chart mounts it: the ConfigMap's file next to the server's own config.
    writeFileSync(join(dir, 'authorization.conf'), renderAuthorization());
    const port = await freePort();
    url = `nats://127.0.0.1:${port}`;
    writeFileSync(
      join(dir, 'nats.conf'),
      [
        'host: 127.0.0.1',
        `port: ${port}`,
        `jetstream: { store_dir: "${join(dir, 'js')}" }`,
        'include ./authorization.conf',
        '',
      ].join('\n'),
    );
    // -t: parse the configuration and exit, as a config reloader would check it.
    execFileSync(natsServerBinary(), ['-t', '-c', join(dir, 'nats.conf')], { stdio: 'pipe' });
    server = spawn(natsServerBinary(), ['-c', join(dir, 'nats.conf')], { stdio: 'ignore' });
    await waitForPort(port, 10_000, server);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(connections.map((nc) => nc.close()));
    if (server) await stopProcess(server);
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets rules write a snapshot and refuses the rate engine, which may only read it', async () => {
    const rules = await new Kvm(await as('rules')).create(SNAPSHOT_BUCKET, { history: 1 });
    await rules.put('shop_myshopify_com', 'from rules');
    const engine = await new Kvm(await as('rate-engine')).open(SNAPSHOT_BUCKET);
    await expect(engine.put('shop_myshopify_com', 'from the engine')).rejects.toThrow(
      /Permissions Violation for Publish to "\$KV\.ratesmith_snapshots\.shop_myshopify_com"/,
    );
    expect((await engine.get('shop_myshopify_com'))?.string()).toBe('from rules');
  });

  it('refuses a key it does not list, and a connection without one', async () => {
    const stranger = newServiceKeys().rules.seed;
    await expect(
      connect({
        servers: url,
        reconnect: false,
        authenticator: nkeyAuthenticator(new TextEncoder().encode(stranger)),
      }),
    ).rejects.toThrow(/Authorization/i);
    await expect(connect({ servers: url, reconnect: false })).rejects.toThrow(/Authorization/i);
  });
});
