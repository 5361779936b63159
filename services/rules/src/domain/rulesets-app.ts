import { LIMITS, rulesetNameProblem, type FilterInput } from '@ratesmith/contracts';
import { AppError } from '@ratesmith/kit';
import type {
  RulesetRecord,
  RulesetSummary,
  RulesetsRepository,
} from '../data/rulesets.repository';
import type { RequestKeysRepository } from '../data/request-keys.repository';
import type { SettingsRepository } from '../data/settings.repository';
import type { ShopLeasesRepository } from '../data/shop-leases.repository';
import type { VersionEvent } from '../data/version-history.repository';
import { patchActiveRuleset, type SnapshotPublisher } from '../snapshots/publisher';
import { CONCURRENT_CHANGE } from './concurrent-change';
import { listVersion, saveFilterList, type FilterListOwner } from './filter-list';
import { underShopLease } from './shop-lease';
import type { Versions } from './versions';

export const RULESET_NOT_FOUND = 'Ruleset not found.';
const RULESETS_FULL = `A shop can have at most ${LIMITS.rulesetsPerShop} rulesets: delete one you no longer use first.`;
const CREATE_RUNNING =
  'This ruleset is still being created. Please wait a moment and reload the page.';
/** How long a create's request key answers with what it made. */
const REQUEST_KEY_TTL_MS = 24 * 60 * 60_000;

/** The trimmed name, or the merchant-facing problem as invalid_data. */
function checkedRulesetName(rawName: string): string {
  const problem = rulesetNameProblem(rawName);
  if (problem) throw new AppError('invalid_data', problem);
  return rawName.trim();
}

interface RulesetsDeps {
  rulesets: RulesetsRepository;
  settings: SettingsRepository;
  leases: ShopLeasesRepository;
  requestKeys: RequestKeysRepository;
  publisher: SnapshotPublisher;
  versions: Versions;
}

/**
 * A ruleset as the owner of a filter list: checkout reads the active one only,
 * so only its save publishes (read beside the settings as the snapshot is built).
 */
export function rulesetOwner(
  deps: Pick<RulesetsDeps, 'rulesets' | 'settings' | 'publisher'>,
): FilterListOwner<RulesetRecord> {
  return {
    kind: 'ruleset',
    scope: 'ruleset',
    notFound: RULESET_NOT_FOUND,
    async read(shop, id) {
      const [state, record] = await Promise.all([
        deps.settings.get(shop),
        deps.rulesets.get(shop, id),
      ]);
      return record ? { record, checkout: state.globalRuleId === id } : null;
    },
    replace(shop, record, filters, checkout) {
      const write = async () => {
        const saved = await deps.rulesets.replaceFilters(record, filters);
        if (!saved) throw new AppError('not_found', RULESET_NOT_FOUND);
        return saved;
      };
      return checkout
        ? deps.publisher.change(shop, write, { activeId: record.id, patch: patchActiveRuleset })
        : write();
    },
  };
}

/**
 * The rulesets' use cases, scoped to one shop (the one the gateway took from
 * a verified session token). Changes that can alter a checkout rate publish a
 * new snapshot before they return.
 */
export class RulesetsApp {
  private readonly owner: FilterListOwner<RulesetRecord>;

  constructor(private readonly deps: RulesetsDeps) {
    this.owner = rulesetOwner(deps);
  }

  async list(shop: string): Promise<{ rulesets: RulesetSummary[]; globalRuleId: string | null }> {
    const [rulesets, state] = await Promise.all([
      this.deps.rulesets.summaries(shop),
      this.deps.settings.get(shop),
    ]);
    const activeExists = rulesets.some((r) => r.id === state.globalRuleId);
    return { rulesets, globalRuleId: activeExists ? state.globalRuleId : null };
  }

  async create(shop: string, rawName: string, requestKey = ''): Promise<RulesetRecord> {
    const name = checkedRulesetName(rawName);
    return this.onceFor(shop, requestKey, () => this.createWithinLimit(shop, name));
  }

  async duplicate(shop: string, id: string, requestKey = ''): Promise<RulesetRecord> {
    const source = await this.deps.rulesets.get(shop, id);
    if (!source) throw new AppError('not_found', RULESET_NOT_FOUND);
    const name = `Copy of ${source.name}`.slice(0, LIMITS.rulesetName);
    return this.onceFor(shop, requestKey, () => this.createWithinLimit(shop, name, source.filters));
  }

  /**
   * `create`, once per request key (none: every call creates): a create sent again with
   * the key answers the ruleset the first one made, so an admin resending after a timeout
   * whose first try landed does not get two.
   */
  private async onceFor(
    shop: string,
    key: string,
    create: () => Promise<RulesetRecord>,
  ): Promise<RulesetRecord> {
    if (!key) return create();
    const keys = this.deps.requestKeys;
    if (!(await keys.claim(shop, key, REQUEST_KEY_TTL_MS))) {
      const id = await keys.rulesetOf(shop, key);
      if (id === null || id === undefined) throw new AppError('conflict', CREATE_RUNNING);
      const made = await this.deps.rulesets.get(shop, id);
      if (!made) throw new AppError('not_found', RULESET_NOT_FOUND);
      return made;
    }
    try {
      const made = await create();
      await keys.settle(shop, key, made.id);
      return made;
    } catch (err) {
      await keys.release(shop, key).catch(() => undefined);
      throw err;
    }
  }

  /** The per-shop bound, counted and kept under the shop's lease: creates at once cannot pass it. */
  private createWithinLimit(
    shop: string,
    name: string,
    filters?: RulesetRecord['filters'],
  ): Promise<RulesetRecord> {
    return underShopLease(this.deps.leases, shop, async () => {
      if ((await this.deps.rulesets.count(shop)) >= LIMITS.rulesetsPerShop)
        throw new AppError('invalid_data', RULESETS_FULL);
      return this.deps.rulesets.create(shop, name, filters);
    });
  }

  /** Same name rules as create; the filters and the active state stay as they are. */
  async rename(
    shop: string,
    id: string,
    rawName: string,
    user: string,
  ): Promise<{ ruleset: RulesetRecord; active: boolean }> {
    const before = await this.deps.rulesets.get(shop, id);
    const ruleset = await this.deps.rulesets.rename(shop, id, checkedRulesetName(rawName));
    if (!ruleset) throw new AppError('not_found', RULESET_NOT_FOUND);
    const active = (await this.deps.settings.get(shop)).globalRuleId === id;
    // The snapshot carries the active ruleset's name.
    if (active) await this.deps.publisher.publish(shop);
    if (before?.name !== ruleset.name) {
      this.keepVersionLater(
        shop,
        ruleset,
        user,
        'rename',
        active,
        () => `Renamed from "${before?.name ?? ''}" to "${ruleset.name}"`,
      );
    }
    return { ruleset, active };
  }

  /** Enables the ruleset, which disables whichever was active; or disables it if it is the active one. */
  async toggle(shop: string, id: string, user: string): Promise<{ active: boolean }> {
    const { rulesets, settings } = this.deps;
    // The settings read beside the ruleset serve the toggle's first compare-and-set.
    const [ruleset, state] = await Promise.all([rulesets.get(shop, id), settings.get(shop)]);
    if (!ruleset) throw new AppError('not_found', RULESET_NOT_FOUND);
    const result = await this.toggleActive(shop, id, state.globalRuleId);
    this.keepVersionLater(shop, ruleset, user, result.active ? 'enable' : 'disable', true, () =>
      result.active ? 'Enabled: checkout uses this ruleset' : 'Disabled: checkout uses no ruleset',
    );
    return result;
  }

  private async toggleActive(
    shop: string,
    id: string,
    readActive: string | null,
  ): Promise<{ active: boolean }> {
    const { rulesets, settings, publisher } = this.deps;
    const change = async () => {
      // The first attempt uses the state read before; a lost one reads it again, up to 5 times.
      for (let attempt = 0; attempt <= 5; attempt++) {
        const globalRuleId = attempt === 0 ? readActive : (await settings.get(shop)).globalRuleId;
        const next = globalRuleId === id ? null : id;
        if (!(await settings.setActiveIf(shop, globalRuleId, next))) continue;
        if (next && !(await rulesets.get(shop, id))) {
          // Deleted while we enabled it: never leave a dangling active id.
          await settings.setActiveIf(shop, id, null);
          throw new AppError('not_found', RULESET_NOT_FOUND);
        }
        return { active: next === id };
      }
      throw new AppError('conflict', CONCURRENT_CHANGE);
    };
    // Enabling it most likely: the snapshot reads it beside the settings.
    return publisher.change(shop, change, { activeId: readActive === id ? undefined : id });
  }

  async delete(shop: string, id: string): Promise<void> {
    const { rulesets, settings, publisher, versions } = this.deps;
    // Only the active ruleset is in the snapshot: deleting it leaves none active.
    if ((await settings.get(shop)).globalRuleId !== id) {
      if (!(await rulesets.delete(shop, id))) throw new AppError('not_found', RULESET_NOT_FOUND);
      await versions.forget(shop, 'ruleset', id);
      // Enabled between the read and the delete: the snapshot must lose it too.
      if (await settings.setActiveIf(shop, id, null)) await publisher.publish(shop);
      return;
    }
    await publisher.change(shop, async () => {
      if (!(await rulesets.delete(shop, id))) throw new AppError('not_found', RULESET_NOT_FOUND);
      await settings.setActiveIf(shop, id, null);
    });
    await versions.forget(shop, 'ruleset', id);
  }

  async get(shop: string, id: string): Promise<{ ruleset: RulesetRecord; active: boolean }> {
    const found = await this.owner.read(shop, id);
    if (!found) throw new AppError('not_found', RULESET_NOT_FOUND);
    return { ruleset: found.record, active: found.checkout };
  }

  /** Save All: the one save of a filter list (filter-list.ts). */
  async saveFilters(
    shop: string,
    id: string,
    inputs: FilterInput[],
    user: string,
  ): Promise<RulesetRecord> {
    const request = { shop, id, inputs, user };
    return (await saveFilterList(this.owner, this.deps.versions, request)).saved;
  }

  private keepVersionLater(
    shop: string,
    ruleset: RulesetRecord,
    user: string,
    event: VersionEvent,
    checkout: boolean,
    summary: () => string,
  ): void {
    this.deps.versions.keepLater(shop, () =>
      listVersion('ruleset', ruleset, { user, event, checkout, summary: summary() }),
    );
  }
}
