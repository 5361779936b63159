import type { Logger } from '@ratesmith/kit';
import type { TokensRepository } from '../data/tokens.repository';
import type { SealedSecret, TokenCipher } from './encryption';

/** What one run of the re-seal command found and did; printed as one JSON line. */
export interface ResealReport {
  dryRun: boolean;
  currentKid: string;
  /** Records per key id before the run and after it (counted in the database both times). */
  before: Record<string, number>;
  after: Record<string, number>;
  /** Records rewritten with the current key (in a dry run: that would be). */
  resealed: number;
  /** Records that changed while being re-sealed (a refresh won); the after counts show their key. */
  changedMeanwhile: number;
  /** Records that do not open, per key id: reported, never deleted. */
  unreadable: Record<string, number>;
  /** Why they do not open: the key id is not configured, or authentication failed. */
  unreadableReasons: { kidNotConfigured: number; authenticationFailed: number };
  /** Records not on the current key after the run (what stands between you and removing old keys). */
  remaining: number;
}

type Outcome = 'current' | 'resealed' | 'changed' | 'kid_not_configured' | 'authentication_failed';

/**
 * Re-seals every record with the current key, in batches. Each write is
 * conditional on the record still holding what was read, so a refresh that
 * stores a new pair meanwhile is never overwritten. Records that do not open
 * are counted and left alone: deleting them would disconnect a shop on a
 * configuration mistake (a key left out of TOKEN_ENCRYPTION_KEYS).
 */
export async function resealAllTokens(options: {
  repo: TokensRepository;
  cipher: TokenCipher;
  logger: Logger;
  dryRun?: boolean;
  batchSize?: number;
}): Promise<ResealReport> {
  const { repo, cipher, logger, dryRun = false, batchSize = 200 } = options;
  const before = await repo.countByKid();
  const report: ResealReport = {
    dryRun,
    currentKid: cipher.currentKid,
    before,
    after: before,
    resealed: 0,
    changedMeanwhile: 0,
    unreadable: {},
    unreadableReasons: { kidNotConfigured: 0, authenticationFailed: 0 },
    remaining: 0,
  };
  for await (const batch of repo.sealedBatches(batchSize)) {
    for (const { shop, sealed } of batch) {
      const outcome = await resealOne(repo, cipher, shop, sealed, dryRun);
      if (outcome === 'resealed') report.resealed++;
      else if (outcome === 'changed') report.changedMeanwhile++;
      else if (outcome !== 'current') {
        report.unreadable[sealed.kid] = (report.unreadable[sealed.kid] ?? 0) + 1;
        if (outcome === 'kid_not_configured') report.unreadableReasons.kidNotConfigured++;
        else report.unreadableReasons.authenticationFailed++;
        logger.warn(
          { shop, kid: sealed.kid, reason: outcome },
          'stored tokens do not open; left as they are',
        );
      }
    }
  }
  report.after = dryRun ? before : await repo.countByKid();
  report.remaining = Object.entries(report.after)
    .filter(([kid]) => kid !== cipher.currentKid)
    .reduce((sum, [, count]) => sum + count, 0);
  // A record on the current key that does not open is not done either.
  report.remaining += report.unreadable[cipher.currentKid] ?? 0;
  return report;
}

async function resealOne(
  repo: TokensRepository,
  cipher: TokenCipher,
  shop: string,
  sealed: SealedSecret,
  dryRun: boolean,
): Promise<Outcome> {
  if (!cipher.hasKey(sealed.kid)) return 'kid_not_configured';
  let plaintext: string;
  try {
    plaintext = cipher.open(sealed, shop);
  } catch {
    // GCM authentication failed: a wrong key under this id, a tampered record or another shop's ciphertext.
    return 'authentication_failed';
  }
  if (!cipher.isStale(sealed)) return 'current';
  if (dryRun) return 'resealed';
  const written = await repo.resealIfUnchanged(shop, sealed, cipher.seal(plaintext, shop));
  return written ? 'resealed' : 'changed';
}

/** The line for people reading the output. */
export function describeReport(report: ResealReport): string {
  const unreadable = Object.values(report.unreadable).reduce((a, b) => a + b, 0);
  const verb = report.dryRun ? 'would be re-sealed' : 're-sealed';
  const parts = [`${report.resealed} token record(s) ${verb} with key ${report.currentKid}`];
  if (report.changedMeanwhile) parts.push(`${report.changedMeanwhile} changed meanwhile`);
  if (unreadable)
    parts.push(
      `${unreadable} could not be opened (${report.unreadableReasons.kidNotConfigured} with a key id not configured, ${report.unreadableReasons.authenticationFailed} failed authentication; left untouched)`,
    );
  const total = Object.values(report.after).reduce((a, b) => a + b, 0);
  parts.push(
    report.remaining === 0
      ? `all ${total} on key ${report.currentKid}: older keys can be removed`
      : `${report.remaining} of ${total} not on key ${report.currentKid}: keep the older keys and run again`,
  );
  return parts.join('; ');
}
