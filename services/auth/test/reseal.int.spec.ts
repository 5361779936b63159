import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@ratesmith/devstack';
import { createLogger, type Connection } from '@ratesmith/kit';
import { loadConfig } from '../src/config';
import { TokensRepository } from '../src/data/tokens.repository';
import { resealTokensCommand } from '../src/reseal-tokens';
import { startAuthService } from '../src/service';
import { parseEncryptionKeys, TokenCipher, type SealedSecret } from '../src/tokens/encryption';
import { resealAllTokens } from '../src/tokens/reseal';
import { TokenService } from '../src/tokens/token-service';
import { API_KEY, API_SECRET, startAuthStack, type AuthStack } from './harness';

/** The command as an SRE runs it, built by `tsc -b tsconfig.build.json` (npm test builds first). */
const script = join(repoRoot, 'services', 'auth', 'dist', 'reseal-tokens.js');

const OLD = `old:${Buffer.alloc(32, 7).toString('base64')}`;
const NEW = `new:${Buffer.alloc(32, 8).toString('base64')}`;
const GONE = `gone:${Buffer.alloc(32, 9).toString('base64')}`;
const ROTATED = `${NEW},${OLD}`;

// A: re-sealed by a read; B: refreshed while being re-sealed; C: re-seal fails; D: left to the command.
const [A, B, C, D] = ['a', 'b', 'c', 'd'].map((s) => `reseal-${s}.myshopify.com`) as [
  string,
  string,
  string,
  string,
];

let stack: AuthStack;

/** The auth service's environment, as the harness builds it, with the given keys. */
function envWith(keys: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    NATS_URL: stack.servers.natsUrl,
    NATS_SUBJECT_PREFIX: stack.servers.subjectPrefix,
    MONGODB_URI: stack.servers.mongoUri,
    MONGODB_DB: `${stack.servers.dbName}_auth`,
    SHOPIFY_API_KEY: API_KEY,
    SHOPIFY_API_SECRET: API_SECRET,
    SHOPIFY_API_ORIGIN: stack.shopify.url,
    SHOPIFY_TIMEOUT_MS: '3000',
    APP_URL: 'http://127.0.0.1:3999',
    RATE_ENGINE_URL: 'http://127.0.0.1:3998',
    TOKEN_ENCRYPTION_KEYS: keys,
  };
}

const raw = (shop: string) => stack.conn.db!.collection('tokens').findOne({ shop });
const kidOf = async (shop: string) => (await raw(shop))!.sealed.kid as string;

/** A token service of our own on the shared database (a replica, or one with a hook in its repository). */
function tokenService(keys: string, repo: TokensRepository, logger = createLogger('t', 'silent')) {
  return new TokenService({
    repo,
    cipher: new TokenCipher(parseEncryptionKeys(keys)),
    shopify: stack.service.shopify,
    logger,
    refreshMarginMs: 5 * 60_000,
  });
}

/** A repository that lets something else happen between reading a record and re-sealing it. */
class HookedRepository extends TokensRepository {
  constructor(
    conn: Connection,
    private readonly meanwhile: (shop: string) => Promise<void>,
  ) {
    super(conn);
  }

  override async resealIfUnchanged(shop: string, from: SealedSecret, to: SealedSecret) {
    await this.meanwhile(shop);
    return super.resealIfUnchanged(shop, from, to);
  }
}

/** What a refresh by the running service looks like: the token expired, the next read refreshes. */
async function refreshNow(shop: string): Promise<string> {
  await stack.conn
    .db!.collection('tokens')
    .updateOne({ shop }, { $set: { expires_at: new Date(Date.now() - 1000) } });
  return (await stack.service.tokens.getAccessToken(shop)).accessToken;
}

beforeAll(async () => {
  if (!existsSync(script))
    throw new Error(
      'services/auth is not built: run `sh scripts/node24.sh npx tsc -b tsconfig.build.json`',
    );
  // The old deployment: every token sealed with `old`.
  stack = await startAuthStack({ TOKEN_ENCRYPTION_KEYS: OLD });
  for (const shop of [A, B, C, D]) {
    await stack.service.tokens.exchangeSessionToken(shop, stack.sessionToken(shop));
    await stack.service.shops.markInstalled(shop);
  }
  // The new deployment: `new` first, `old` still there; same NATS, database and Shopify.
  await stack.service.stop();
  stack.service = await startAuthService({
    config: loadConfig(envWith(ROTATED)),
    logger: createLogger('auth', process.env.TEST_LOG_LEVEL ?? 'silent'),
    nc: stack.authBus,
    conn: stack.conn,
  });
});
afterAll(() => stack?.stop());

describe('re-seal on read', () => {
  it('a token read re-seals the record with the current key, and the token still works', async () => {
    expect(await kidOf(A)).toBe('old');
    const before = (await raw(A))!.sealed;
    const reply = await stack.service.tokens.getAccessToken(A);
    expect(stack.shopify.oauth.shopOfAccessToken(reply.accessToken)).toBe(A);
    const after = (await raw(A))!.sealed;
    expect(after.kid).toBe('new');
    expect(after.ciphertext).not.toBe(before.ciphertext);
    expect(JSON.stringify(after)).not.toContain(reply.accessToken);
    // Read again from the re-sealed record: the same token, which the old key alone no longer opens.
    expect((await stack.service.tokens.getAccessToken(A)).accessToken).toBe(reply.accessToken);
    expect(() => new TokenCipher(parseEncryptionKeys(OLD)).open(after, A)).toThrow();
    expect(await kidOf(D)).toBe('old');
  });

  it('does not overwrite a refresh that stored a new pair between the read and the re-seal', async () => {
    const refreshes = stack.shopify.oauth.stats.refreshes;
    let refreshed = '';
    const racing = tokenService(
      ROTATED,
      new HookedRepository(stack.conn, async (shop) => {
        refreshed = await refreshNow(shop);
      }),
    );
    const read = await racing.getAccessToken(B);
    expect(stack.shopify.oauth.stats.refreshes).toBe(refreshes + 1);
    expect(refreshed).not.toBe(read.accessToken);
    // An unconditional write would have put the old pair back (its refresh token already spent).
    const now = await stack.service.tokens.getAccessToken(B);
    expect(now.accessToken).toBe(refreshed);
    expect(stack.shopify.oauth.shopOfAccessToken(now.accessToken)).toBe(B);
    expect(await kidOf(B)).toBe('new');
  });

  it('answers the read when the re-seal fails, with a warning that holds no token', async () => {
    const lines: string[] = [];
    const failing = tokenService(
      ROTATED,
      new HookedRepository(stack.conn, () => Promise.reject(new Error('write refused'))),
      createLogger('t', 'info', { write: (line: string) => lines.push(line) }),
    );
    const reply = await failing.getAccessToken(C);
    expect(stack.shopify.oauth.shopOfAccessToken(reply.accessToken)).toBe(C);
    expect(await kidOf(C)).toBe('old');
    const warnings = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(warnings).toContainEqual(
      expect.objectContaining({ level: 'warn', shop: C, from_kid: 'old', err: 'write refused' }),
    );
    expect(lines.join('')).not.toContain(reply.accessToken);
    expect(lines.join('')).not.toContain('shprt_');
  });
});

describe('the reseal-tokens command', () => {
  it('reports in a dry run without writing, then moves every record to the current key', async () => {
    const out: string[] = [];
    const snapshot = async () =>
      JSON.stringify(await stack.conn.db!.collection('tokens').find().sort({ shop: 1 }).toArray());
    const untouched = await snapshot();

    const dry = await resealTokensCommand({
      args: ['--dry-run', '--batch-size=1'],
      env: envWith(ROTATED),
      out: (l) => out.push(l),
    });
    expect(dry.exitCode).toBe(1);
    expect(JSON.parse(out[0]!)).toEqual(dry.report);
    expect(dry.report).toMatchObject({
      dryRun: true,
      currentKid: 'new',
      before: { new: 2, old: 2 },
      after: { new: 2, old: 2 },
      resealed: 2,
      unreadable: {},
      remaining: 2,
    });
    expect(out[1]).toContain('2 token record(s) would be re-sealed with key new');
    expect(await snapshot()).toBe(untouched);

    out.length = 0;
    // Batches of 1 make every record its own page.
    const run = await resealTokensCommand({
      args: ['--batch-size=1'],
      env: envWith(ROTATED),
      out: (l) => out.push(l),
    });
    expect(run.exitCode).toBe(0);
    expect(run.report).toMatchObject({
      dryRun: false,
      before: { new: 2, old: 2 },
      after: { new: 4 },
      resealed: 2,
      changedMeanwhile: 0,
      remaining: 0,
    });
    expect(out[1]).toContain('all 4 on key new');
    for (const shop of [A, B, C, D]) {
      expect(await kidOf(shop)).toBe('new');
      const { accessToken } = await stack.service.tokens.getAccessToken(shop);
      expect(stack.shopify.oauth.shopOfAccessToken(accessToken)).toBe(shop);
      expect(out.join('\n')).not.toContain(accessToken);
    }
  });

  it('as the built process: reports records it cannot open, leaves them alone, exits 1', async () => {
    const repo = new TokensRepository(stack.conn);
    const lost = 'reseal-lost.myshopify.com';
    const moved = 'reseal-moved.myshopify.com';
    // One sealed with a key nobody configured, one whose ciphertext belongs to another shop.
    await repo.save({
      shop: lost,
      sealed: new TokenCipher(parseEncryptionKeys(GONE)).seal('{"accessToken":"x"}', lost),
      scope: '',
      expiresAt: null,
      refreshExpiresAt: null,
    });
    await repo.save({
      shop: moved,
      sealed: new TokenCipher(parseEncryptionKeys(OLD)).seal('{"accessToken":"y"}', A),
      scope: '',
      expiresAt: null,
      refreshExpiresAt: null,
    });
    const before = [await raw(lost), await raw(moved)];

    const child = spawn(process.execPath, [script], {
      env: { PATH: process.env.PATH ?? '', ...envWith(ROTATED) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.once('exit', r));

    expect(code).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      currentKid: 'new',
      before: { gone: 1, new: 4, old: 1 },
      after: { gone: 1, new: 4, old: 1 },
      resealed: 0,
      unreadable: { gone: 1, old: 1 },
      unreadableReasons: { kidNotConfigured: 1, authenticationFailed: 1 },
      remaining: 2,
    });
    expect(lines[1]).toContain('2 could not be opened');
    expect(lines[1]).toContain('keep the older keys');
    // The logs (stderr) name the shops, not what they hold.
    expect(stderr).toContain(lost);
    expect(stderr).toContain(moved);
    expect(stdout + stderr).not.toMatch(/shpat_|shprt_/);
    expect([await raw(lost), await raw(moved)]).toEqual(before);
  });

  it('does not overwrite a refresh that lands while it re-seals a record', async () => {
    const shop = 'reseal-e.myshopify.com';
    // A replica still on the old configuration installs the shop: sealed with `old`.
    const oldReplica = tokenService(OLD, new TokensRepository(stack.conn));
    await oldReplica.exchangeSessionToken(shop, stack.sessionToken(shop));
    await stack.service.shops.markInstalled(shop);
    expect(await kidOf(shop)).toBe('old');
    const [installed] = stack.shopify.oauth.accessTokensOf(shop);

    let refreshed = '';
    const report = await resealAllTokens({
      repo: new HookedRepository(stack.conn, async (s) => {
        if (s === shop) refreshed = await refreshNow(s);
      }),
      cipher: new TokenCipher(parseEncryptionKeys(ROTATED)),
      logger: createLogger('t', 'silent'),
    });
    expect(report.changedMeanwhile).toBe(1);
    expect(report.resealed).toBe(0);
    expect(refreshed).not.toBe('');
    expect(refreshed).not.toBe(installed);
    expect((await stack.service.tokens.getAccessToken(shop)).accessToken).toBe(refreshed);
    expect(await kidOf(shop)).toBe('new');
  });
});
