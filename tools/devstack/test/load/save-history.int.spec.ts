import { largeRuleset } from '../../src/load/admin-api';
import type { LoggedMongo } from '../../src/load/mongo-commands';
import { settled, startCountedStack, type CountedStack } from '../../src/load/route-costs';
import type { FaultStack } from '../../src/faults/stack';

/**
 * A save costs the same MongoDB commands on a shop with a long history as on a
 * new one (docs/performance.md, "Saves and their history"). Counted, as the
 * cost suite counts (admin-costs.int.spec.ts): the commands each save sent
 * until its answer, and until MongoDB was quiet after it (its version), by
 * command and collection, and those FerretDB answers by reading a whole
 * collection (any filter but `_id` alone: `scansCollection`). A command that
 * scans the history reads every version kept, so its cost grows with them.
 */
const SHOP = 'save-history.myshopify.com';
const CALLS = 4;
/** The versions the long history gives the ruleset and the settings, beyond the newest 50 kept. */
const HISTORY = 55;
const HISTORY_COLLECTIONS = /^(\w+) (versions|version_contents|version_counters)$/;
/**
 * The save's own commands: the rules service's collections, without the auth service's
 * "installed" check (its cache misses once per 10 s) and the snapshot retry loop's read
 * of the marked shops (every 5 s), which land where they fall.
 */
const SAVE_COMMAND =
  /^(?!find snapshot_versions$)\w+ (rulesets|shop_settings|product_rules|snapshot_versions|versions|version_contents|version_counters)$/;

interface SaveCommands {
  /** `command collection` → per call, until the answer. */
  beforeAnswer: Record<string, number>;
  /** The same, until MongoDB was quiet after the answer. */
  all: Record<string, number>;
  /** Commands of the history collections that read the whole collection, per call. */
  historyScans: string[];
}

describe('a save on a shop with a long history', () => {
  let mongo: LoggedMongo;
  let stack: FaultStack;
  let ok: CountedStack['ok'];
  const fresh = new Map<string, SaveCommands>();
  const long = new Map<string, SaveCommands>();

  beforeAll(async () => {
    ({ mongo, stack, ok } = await startCountedStack(SHOP));
    const main = (await ok('POST', '/api/global-rules', { name: 'Main' })).rule.id as string;
    await ok('GET', `/api/global-rules/${main}/toggle`);
    // Alternating contents: every save changes something, so every save keeps a version.
    let turn = 0;
    const saves: Record<string, () => Promise<unknown>> = {
      'save all (3 filters)': () => {
        const body = largeRuleset(3, 2);
        body.rules[0]!.name = `Filter ${turn++}`;
        return ok('POST', `/api/global-rules/update/${main}`, body);
      },
      'settings save': () =>
        ok('POST', '/api/settings', {
          carrier_name: `Ratesmith ${turn++}`,
          carrier_description: 'Rules',
        }),
    };
    const measure = async (into: Map<string, SaveCommands>) => {
      for (const [label, save] of Object.entries(saves)) {
        await save(); // warm-up
        await settled(mongo, 1000);
        const beforeAnswer: Record<string, number> = {};
        const all: Record<string, number> = {};
        const historyScans: string[] = [];
        for (let i = 0; i < CALLS; i++) {
          const mark = mongo.mark();
          await save();
          const own = () => mongo.timesSince(mark).filter((c) => SAVE_COMMAND.test(c.command));
          for (const c of own())
            beforeAnswer[c.command] = (beforeAnswer[c.command] ?? 0) + 1 / CALLS;
          await settled(mongo, 1000);
          for (const c of own()) {
            all[c.command] = (all[c.command] ?? 0) + 1 / CALLS;
            if (c.scans && HISTORY_COLLECTIONS.test(c.command)) historyScans.push(c.command);
          }
        }
        into.set(label, { beforeAnswer, all, historyScans });
      }
    };
    await measure(fresh);
    for (let i = 0; i < HISTORY; i++) {
      for (const save of Object.values(saves)) await save();
    }
    await measure(long);
    console.log(
      [...fresh.keys()]
        .map(
          (label) =>
            `${label}, new shop: ${JSON.stringify(fresh.get(label))}\n${label}, after ${HISTORY} more versions: ${JSON.stringify(long.get(label))}`,
        )
        .join('\n'),
    );
  }, 900_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const rounded = (counts: Record<string, number>) =>
    Object.fromEntries(Object.entries(counts).map(([k, n]) => [k, Math.round(n * 4) / 4]));
  /** Per command and collection, how many more a call of the long history sent (0s left out). */
  const growth = (label: string, part: 'beforeAnswer' | 'all') => {
    const extra = { ...rounded(long.get(label)![part]) };
    for (const [command, n] of Object.entries(rounded(fresh.get(label)![part])))
      extra[command] = (extra[command] ?? 0) - n;
    return Object.fromEntries(Object.entries(extra).filter(([, n]) => n !== 0));
  };
  /**
   * What follows an answer (the version, the publish mark) starts as the answer leaves
   * the rules service, so its first commands reach MongoDB before or after the client
   * has the answer as the machine schedules them: left out here, counted whole by the
   * `all` test below (admin-costs.int.spec.ts proves they come after the answer).
   */
  const AFTER_ANSWER =
    /^(\w+ (versions|version_contents|version_counters)|update snapshot_versions)$/;

  it.each(['save all (3 filters)', 'settings save'])(
    '%s: the same commands before its answer after 50 versions as on a new shop',
    (label) => {
      const grown = Object.entries(growth(label, 'beforeAnswer')).filter(
        ([command]) => !AFTER_ANSWER.test(command),
      );
      expect(grown).toEqual([]);
    },
  );

  it.each(['save all (3 filters)', 'settings save'])(
    '%s: no command of the save or of its version reads the whole history',
    (label) => {
      expect(fresh.get(label)!.historyScans).toEqual([]);
      expect(long.get(label)!.historyScans).toEqual([]);
    },
  );

  // The versions past the kept ones are deleted once the shop is quiet
  // (services/rules/src/domain/version-pruning.ts), not behind each save.
  it.each(['save all (3 filters)', 'settings save'])(
    '%s: with its version, the same commands on both shops, no delete behind it',
    (label) => {
      expect(growth(label, 'all')).toEqual({});
    },
  );

  // The snapshot is built from the bucket's previous one and the change: no read of the
  // product rules, nor a second read of the settings or the ruleset.
  it.each([
    ['save all (3 filters)', { 'find shop_settings': 1, 'find rulesets': 1 }],
    ['settings save', {}],
  ])('%s: its only reads are its own', (label, reads) => {
    for (const saves of [fresh, long]) {
      const all = rounded(saves.get(label)!.all);
      expect(
        Object.fromEntries(Object.entries(all).filter(([c]) => c.startsWith('find '))),
      ).toEqual(reads);
    }
  });
});
