import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BUS_SERVICES, newNkeyUser, type BusService } from '@ratesmith/kit';
import { parseAllDocuments } from 'yaml';

/** Rendering the chart with the real helm, for every spec in charts/test. */

export const root = join(__dirname, '..', '..');
export const chart = join(root, 'charts', 'ratesmith');

export type Values = Record<string, string | number | boolean>;
export type Labels = Record<string, string>;

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Labels;
    annotations?: Record<string, string>;
  };
  spec: any;
  data?: Record<string, string>;
}

/** Helm 3, built once with Go into the tool cache when the machine has none (about 3 minutes cold). */
export function findHelm(): string {
  return execFileSync('bash', [join(root, 'scripts', 'ensure-helm.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
}

export function helmArgs(values: Values): string[] {
  return Object.entries(values).flatMap(([key, value]) => ['--set', `${key}=${value}`]);
}

/** A fresh NATS user per service: the public keys for the chart, the seeds for a client. */
export function newServiceKeys(): Record<BusService, { seed: string; publicKey: string }> {
  return Object.fromEntries(
    BUS_SERVICES.map((service) => {
      const { seed, publicKey } = newNkeyUser();
      return [service, { seed, publicKey }];
    }),
  ) as Record<BusService, { seed: string; publicKey: string }>;
}

/** What production must set for NATS: the Secret of seeds, each service's public key, the servers' CA. */
export function natsAuthValues(
  keys: Record<BusService, { publicKey: string }> = newServiceKeys(),
  secret = 'ratesmith-nats-users',
): Values {
  return {
    'nats.tls.caSecret': 'ratesmith-nats-ca',
    'nats.auth.existingSecret': secret,
    ...Object.fromEntries(
      BUS_SERVICES.map((s) => [`nats.auth.publicKeys.${s}`, keys[s].publicKey]),
    ),
  };
}

export function parseObjects(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((d): d is K8sObject => d !== null);
}
