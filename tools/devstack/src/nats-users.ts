/**
 * `npm run -s nats:users`: a fresh NATS user (nkey) for each service, printed as
 * the two things a deployment needs (docs/operations.md): the Secret of seeds the
 * services read (NATS_NKEY_SEED) and the public keys the chart renders into the NATS
 * server's authorization. Seeds are secrets: pipe this where it belongs, not into a log.
 */
import { BUS_SERVICES } from '@ratesmith/kit';
import { newBusUsers } from './bus';

const secret = process.argv[2] ?? 'ratesmith-nats-users';
const users = newBusUsers();
const seeds = BUS_SERVICES.map((s) => `  --from-literal=${s}=${users[s].seed}`);
const keys = BUS_SERVICES.map((s) => `  --set nats.auth.publicKeys.${s}=${users[s].publicKey}`);
process.stdout.write(
  [
    `kubectl create secret generic ${secret} \\`,
    seeds.join(' \\\n'),
    '',
    `# helm upgrade --install ... --set nats.auth.existingSecret=${secret} \\`,
    keys.join(' \\\n'),
    '',
  ].join('\n'),
);
