/**
 * NATS as production runs it, on one machine: one NATS user (an nkey) per
 * service with the permissions of `busGrants` (services/kit/src/bus-access.ts),
 * and TLS with a certificate authority made for the run. `npm start` and the
 * tests that start NATS use this, so the permission set is exercised daily.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUS_SERVICES, busGrants, newNkeyUser, type BusService } from '@ratesmith/kit';

export interface BusUser {
  /** The seed (`SU...`): what the service holds, as NATS_NKEY_SEED. */
  seed: string;
  /** The public key (`U...`): what the server's config lists. */
  publicKey: string;
}

/** A user per service, and `admin` with no limits (the tests' own connection; never in production). */
export type BusUsers = Record<BusService | 'admin', BusUser>;

function newUser(): BusUser {
  const { seed, publicKey } = newNkeyUser();
  return { seed, publicKey };
}

export function newBusUsers(): BusUsers {
  const users = { admin: newUser() } as BusUsers;
  for (const service of BUS_SERVICES) users[service] = newUser();
  return users;
}

export interface BusTls {
  /** PEM of the authority: NATS_TLS_CA_FILE. */
  caFile: string;
  certFile: string;
  keyFile: string;
}

/**
 * A certificate authority and a server certificate for 127.0.0.1, localhost and
 * `hostNames` (e.g. `nats`, the server's name on a Docker network), made with openssl.
 */
export function makeBusTls(dir: string, hostNames: string[] = []): BusTls {
  mkdirSync(dir, { recursive: true });
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) =>
    execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  // P-256 keys without a passphrase; the CA signs itself, then the server's request.
  const p256 = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  const ca = ['-x509', '-days', '30', '-subj', '/CN=Ratesmith local NATS CA'];
  openssl('req', ...ca, ...p256, '-keyout', file('ca.key'), '-out', file('ca.pem'));
  openssl(
    'req',
    '-subj',
    '/CN=localhost',
    ...p256,
    '-keyout',
    file('server.key'),
    '-out',
    file('server.csr'),
  );
  const names = ['IP:127.0.0.1', 'DNS:localhost', ...hostNames.map((name) => `DNS:${name}`)];
  writeFileSync(file('server.ext'), `subjectAltName=${names.join(',')}\n`);
  const signer = [
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '30',
  ];
  const ext = ['-extfile', file('server.ext')];
  openssl('x509', '-req', '-in', file('server.csr'), ...signer, ...ext, '-out', file('server.pem'));
  return { caFile: file('ca.pem'), certFile: file('server.pem'), keyFile: file('server.key') };
}

/**
 * The `authorization` block of a NATS server's config: each service's user with
 * its allow-lists, responders allowed to answer the requests they receive.
 */
export function busAuthorization(
  publicKeys: Partial<Record<BusService | 'admin', string>>,
  options: Parameters<typeof busGrants>[0] = {},
): { users: object[] } {
  const grants = busGrants(options);
  const users: object[] = [];
  for (const service of BUS_SERVICES) {
    const nkey = publicKeys[service];
    if (!nkey) continue;
    const grant = grants[service];
    users.push({
      nkey,
      permissions: {
        publish: { allow: grant.publish },
        subscribe: { allow: grant.subscribe },
        allow_responses: true,
      },
    });
  }
  if (publicKeys.admin) users.push({ nkey: publicKeys.admin });
  return { users };
}

/** One node's place in a cluster of nats-servers on this machine (tools/devstack/src/cluster.ts). */
export interface BusClusterNode {
  /** The cluster's name: every node of one cluster has the same. */
  name: string;
  /** This node's route port. */
  port: number;
  /** The route ports of the other nodes. */
  routes: number[];
}

/** A whole nats-server config (JSON, which the server reads as its config format). */
export function natsServerConfig(options: {
  port: number;
  /** The address clients connect to; 127.0.0.1 when unset (0.0.0.0 in a container). */
  host?: string;
  storeDir: string;
  users?: BusUsers;
  tls?: BusTls;
  /** JetStream in a cluster needs a unique name per server. */
  serverName?: string;
  cluster?: BusClusterNode;
  /** Where the server logs (appends); nowhere when unset. */
  logFile?: string;
}): string {
  const config: Record<string, unknown> = {
    host: options.host ?? '127.0.0.1',
    port: options.port,
    jetstream: { store_dir: options.storeDir },
  };
  if (options.serverName) config.server_name = options.serverName;
  if (options.logFile) config.log_file = options.logFile;
  if (options.cluster) {
    const scheme = 'nats-route';
    config.cluster = {
      name: options.cluster.name,
      host: '127.0.0.1',
      port: options.cluster.port,
      routes: options.cluster.routes.map((port) => `${scheme}://127.0.0.1:${port}`),
      // Routes are mutual TLS with the same certificate as clients see, signed by the run's CA.
      ...(options.tls
        ? {
            tls: {
              cert_file: options.tls.certFile,
              key_file: options.tls.keyFile,
              ca_file: options.tls.caFile,
              timeout: 10,
            },
          }
        : {}),
    };
  }
  if (options.users) {
    const keys = Object.fromEntries(
      Object.entries(options.users).map(([name, user]) => [name, user.publicKey]),
    );
    config.authorization = busAuthorization(keys);
  }
  if (options.tls) {
    // A generous handshake time: tests start many stacks at once on two cores.
    config.tls = { cert_file: options.tls.certFile, key_file: options.tls.keyFile, timeout: 10 };
  }
  return JSON.stringify(config, null, 2);
}
