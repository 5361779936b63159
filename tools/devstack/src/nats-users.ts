/**
 * `npm run -s nats:users`: a fresh NATS user (nkey) for each service, printed as
 * the two things a deployment needs (docs/operations.md): the Secret of seeds the
 * services read (NATS_NKEY_SEED) and the public keys the chart renders into the NATS
 * server's authorization. Seeds are secrets: pipe this where it belongs, not into a log.
 *
 * `npm run -s nats:users -- --bus-access [--prefix staging.] [--bucket name]` prints
 * instead the services' allow-lists as the chart reads them
 * (charts/ratesmith/files/bus-access.json; for another subject prefix or bucket, pass
 * the output with `--set-file nats.auth.busAccessJson=<file>`).
 */
import { parseArgs } from 'node:util';
import { BUS_SERVICES } from '@ratesmith/kit';
import { z } from 'zod';
import { busAccessFileText } from './bus-access-file';
import { newBusUsers } from './bus';

const parsed = z
  .object({
    values: z.object({
      'bus-access': z.boolean().optional(),
      // The same shapes the services' configuration accepts.
      prefix: z
        .string()
        .regex(/^([A-Za-z0-9_-]+\.)*$/, 'a prefix is words each followed by a dot')
        .optional(),
      bucket: z
        .string()
        .regex(/^[A-Za-z0-9_-]+$/)
        .optional(),
    }),
    positionals: z.array(z.string()).max(1),
  })
  .safeParse(
    parseArgs({
      options: {
        'bus-access': { type: 'boolean' },
        prefix: { type: 'string' },
        bucket: { type: 'string' },
      },
      allowPositionals: true,
    }),
  );
if (!parsed.success) {
  process.stderr.write(
    `nats:users: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}\n`,
  );
  process.exit(2);
}
const args = parsed.data;

if (args.values['bus-access']) {
  process.stdout.write(
    busAccessFileText({ prefix: args.values.prefix, bucket: args.values.bucket }),
  );
} else {
  const secret = args.positionals[0] ?? 'ratesmith-nats-users';
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
}
