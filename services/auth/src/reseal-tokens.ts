import { AppError, connectMongo, createLogger, runMain } from '@ratesmith/kit';
import { loadConfig } from './config';
import { TokensRepository } from './data/tokens.repository';
import { TokenCipher } from './tokens/encryption';
import { describeReport, resealAllTokens, type ResealReport } from './tokens/reseal';

/**
 * Re-seals every stored token pair with the first key of
 * TOKEN_ENCRYPTION_KEYS (key rotation), then prints one JSON line of counts
 * and one line for people. Exit code 0 only when every record is on the
 * current key, so removing an old key can be gated on it. Run it where the
 * auth service's environment is (same configuration as dist/migrate.js):
 *
 *   node services/auth/dist/reseal-tokens.js [--dry-run] [--batch-size=N]
 */
export async function resealTokensCommand(options: {
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** Where the two result lines go; logs go to stderr so stdout stays parseable. */
  out?: (line: string) => void;
}): Promise<{ exitCode: number; report: ResealReport }> {
  const { dryRun, batchSize } = parseArgs(options.args);
  const out = options.out ?? ((line) => process.stdout.write(`${line}\n`));
  const config = loadConfig(options.env);
  const logger = createLogger('auth-reseal-tokens', config.LOG_LEVEL, process.stderr);
  // Connecting waits for MongoDB like the index Job does, but not forever.
  const giveUp = new AbortController();
  const giveUpTimer = setTimeout(() => giveUp.abort(), 120_000);
  giveUpTimer.unref();
  const conn = await connectMongo({
    uri: config.MONGODB_URI,
    dbName: config.MONGODB_DB,
    logger,
    timeoutMs: Math.max(config.MONGODB_TIMEOUT_MS, 10_000),
    signal: giveUp.signal,
  });
  clearTimeout(giveUpTimer);
  try {
    const report = await resealAllTokens({
      repo: new TokensRepository(conn),
      cipher: new TokenCipher(config.TOKEN_ENCRYPTION_KEYS),
      logger,
      dryRun,
      batchSize,
    });
    out(JSON.stringify(report));
    out(describeReport(report));
    return { exitCode: report.remaining === 0 ? 0 : 1, report };
  } finally {
    await conn.close();
  }
}

function parseArgs(args: string[]): { dryRun: boolean; batchSize: number } {
  let dryRun = false;
  let batchSize = 200;
  for (const arg of args) {
    const size = /^--batch-size=(\d+)$/.exec(arg);
    if (arg === '--dry-run') dryRun = true;
    else if (size && Number(size[1]) > 0) batchSize = Number(size[1]);
    else
      throw new AppError(
        'invalid_data',
        `unknown argument ${arg}; usage: reseal-tokens [--dry-run] [--batch-size=N]`,
      );
  }
  return { dryRun, batchSize };
}

if (require.main === module) {
  runMain('auth-reseal-tokens', async () => {
    const { exitCode } = await resealTokensCommand({ args: process.argv.slice(2) });
    process.exitCode = exitCode;
  });
}
