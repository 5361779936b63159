import { isDeepStrictEqual } from 'node:util';
import {
  diffFilters,
  filterToJson,
  LIMITS,
  summariseChanges,
  type FilterInput,
  rulesetNameProblem,
  validateFilters,
  type rulesV1,
  type SnapshotFilter,
  type SnapshotSettings,
} from '@ratesmith/contracts';
import { AppError, withDeadline, type Logger } from '@ratesmith/kit';
import type {
  NewProductRule,
  ProductRuleRecord,
  ProductRulesRepository,
} from '../data/product-rules.repository';
import type {
  RulesetRecord,
  RulesetSummary,
  RulesetsRepository,
} from '../data/rulesets.repository';
import type { SettingsRepository } from '../data/settings.repository';
import type { RequestKeysRepository } from '../data/request-keys.repository';
import type { ShopLeasesRepository } from '../data/shop-leases.repository';
import type {
  FilterVersionKind,
  NewVersion,
  VersionEvent,
  VersionHistoryRepository,
  VersionRecord,
} from '../data/version-history.repository';
import {
  patchActiveRuleset,
  patchProductRule,
  patchSettings,
  snapshotProductRule,
  type SnapshotPublisher,
} from '../snapshots/publisher';
import { validateSettings, type SettingsInput } from './settings';
import { underShopLease } from './shop-lease';
import { VersionPruning } from './version-pruning';

const RULESET_NOT_FOUND = 'Ruleset not found.';
const RULESETS_FULL = `A shop can have at most ${LIMITS.rulesetsPerShop} rulesets: delete one you no longer use first.`;
const PRODUCT_RULE_NOT_FOUND = 'Product rule not found.';
const CREATE_RUNNING =
  'This ruleset is still being created. Please wait a moment and reload the page.';
/** How long a create's request key answers with what it made. */
const REQUEST_KEY_TTL_MS = 24 * 60 * 60_000;
const VERSION_NOT_FOUND = 'This version is no longer kept.';
/** The Dashboard's activity card shows this many changes. */
const ACTIVITY_SHOWN = 20;
const CONCURRENT_CHANGE =
  'This was changed at the same time elsewhere. Please reload and try again.';

/** The trimmed name, or the merchant-facing problem as invalid_data. */
function checkedRulesetName(rawName: string): string {
  const problem = rulesetNameProblem(rawName);
  if (problem) throw new AppError('invalid_data', problem);
  return rawName.trim();
}

/**
 * The rules use cases. Every call is scoped to one shop, the one the gateway
 * took from a verified session token. Changes that can alter a checkout rate
 * publish a new snapshot before they return.
 */
export class RulesApp {
  /** This replica's version writes still running, per shop (see keepVersionLater). */
  private readonly pendingVersions = new Map<string, Promise<unknown>>();
  private readonly pruning: VersionPruning;

  constructor(
    private readonly deps: {
      rulesets: RulesetsRepository;
      productRules: ProductRulesRepository;
      settings: SettingsRepository;
      history: VersionHistoryRepository;
      leases: ShopLeasesRepository;
      requestKeys: RequestKeysRepository;
      publisher: SnapshotPublisher;
      logger: Logger;
      /** How long a shop keeps no new version before its old ones are deleted. */
      pruneWhenQuietMs: number;
    },
  ) {
    this.pruning = new VersionPruning({
      history: deps.history,
      logger: deps.logger,
      run: (shop, task) => this.afterVersions(shop, task),
      quietMs: deps.pruneWhenQuietMs,
    });
  }

  /**
   * Keeps a version of a change already saved (and published). It comes after
   * the save, so a crash here loses a history line, never the save; a failure
   * is logged, not answered, because the merchant's change did succeed.
   */
  private async keepVersion(shop: string, version: NewVersion): Promise<VersionRecord | undefined> {
    try {
      const kept = await this.deps.history.add(shop, version);
      this.pruning.kept(shop, version.kind, version.subjectId);
      return kept;
    } catch (err) {
      this.deps.logger.error(
        { err: (err as Error).message, shop, kind: version.kind, subjectId: version.subjectId },
        'version not kept',
      );
      return undefined;
    }
  }

  /**
   * Keeps a version after the answer: a save's acknowledgement waits for its
   * write and its snapshot, not for its history line (docs/reliability.md,
   * R8/R9: a lost version loses only that line). Per shop the writes run one
   * after another, so numbers follow the order of the saves; `make` builds the
   * version then, so the summary's diff is off the request's path too. It
   * follows an answered save, so the caller's deadline does not stop it.
   */
  private keepVersionLater(shop: string, make: () => NewVersion): void {
    // Quiet means no save answered, not no version written: those queue behind a prune.
    this.pruning.postpone(shop);
    this.afterVersions(shop, () => this.keepVersion(shop, make()));
  }

  /** Runs `task` after the shop's version writes in this replica, outside any caller's deadline. */
  private afterVersions(shop: string, task: () => Promise<unknown>): void {
    const previous = this.pendingVersions.get(shop) ?? Promise.resolve();
    const next = previous.then(() => withDeadline(undefined, task));
    this.pendingVersions.set(shop, next);
    void next.finally(() => {
      if (this.pendingVersions.get(shop) === next) this.pendingVersions.delete(shop);
    });
  }

  /**
   * Reads of the history, and a shop's redaction, first wait for this
   * replica's pending version writes of the shop (a version must not land
   * after the shop's data was deleted).
   */
  async versionsWritten(shop: string): Promise<void> {
    await this.pendingVersions.get(shop);
  }

  /** A deleted subject takes its history along, versions still being written included. */
  private async forgetVersions(shop: string, kind: FilterVersionKind, id: string): Promise<void> {
    await this.versionsWritten(shop);
    await this.deps.history.deleteSubject(shop, kind, id);
  }

  /** Waits for every pending version write and prune (before the database closes at shutdown). */
  async drain(): Promise<void> {
    this.pruning.pruneAllNow();
    await Promise.all(this.pendingVersions.values());
  }

  async listRulesets(
    shop: string,
  ): Promise<{ rulesets: RulesetSummary[]; globalRuleId: string | null }> {
    const [rulesets, state] = await Promise.all([
      this.deps.rulesets.summaries(shop),
      this.deps.settings.get(shop),
    ]);
    const activeExists = rulesets.some((r) => r.id === state.globalRuleId);
    return { rulesets, globalRuleId: activeExists ? state.globalRuleId : null };
  }

  async createRuleset(shop: string, rawName: string, requestKey = ''): Promise<RulesetRecord> {
    const name = checkedRulesetName(rawName);
    return this.onceFor(shop, requestKey, () => this.createWithinLimit(shop, name));
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

  /** Same name rules as createRuleset; the filters and the active state stay as they are. */
  async renameRuleset(
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
      this.keepRulesetVersionLater(
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
  async toggleRuleset(shop: string, id: string, user: string): Promise<{ active: boolean }> {
    const { rulesets, settings } = this.deps;
    // The settings read beside the ruleset serve the toggle's first compare-and-set.
    const [ruleset, state] = await Promise.all([rulesets.get(shop, id), settings.get(shop)]);
    if (!ruleset) throw new AppError('not_found', RULESET_NOT_FOUND);
    const result = await this.toggleActive(shop, id, state.globalRuleId);
    this.keepRulesetVersionLater(
      shop,
      ruleset,
      user,
      result.active ? 'enable' : 'disable',
      true,
      () =>
        result.active
          ? 'Enabled: checkout uses this ruleset'
          : 'Disabled: checkout uses no ruleset',
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

  async deleteRuleset(shop: string, id: string): Promise<void> {
    const { rulesets, settings, publisher } = this.deps;
    // Only the active ruleset is in the snapshot: deleting it leaves none active.
    if ((await settings.get(shop)).globalRuleId !== id) {
      if (!(await rulesets.delete(shop, id))) throw new AppError('not_found', RULESET_NOT_FOUND);
      await this.forgetVersions(shop, 'ruleset', id);
      // Enabled between the read and the delete: the snapshot must lose it too.
      if (await settings.setActiveIf(shop, id, null)) await publisher.publish(shop);
      return;
    }
    await publisher.change(shop, async () => {
      if (!(await rulesets.delete(shop, id))) throw new AppError('not_found', RULESET_NOT_FOUND);
      await settings.setActiveIf(shop, id, null);
    });
    await this.forgetVersions(shop, 'ruleset', id);
  }

  async duplicateRuleset(shop: string, id: string, requestKey = ''): Promise<RulesetRecord> {
    const source = await this.deps.rulesets.get(shop, id);
    if (!source) throw new AppError('not_found', RULESET_NOT_FOUND);
    const name = `Copy of ${source.name}`.slice(0, LIMITS.rulesetName);
    return this.onceFor(shop, requestKey, () => this.createWithinLimit(shop, name, source.filters));
  }

  async getRuleset(shop: string, id: string): Promise<{ ruleset: RulesetRecord; active: boolean }> {
    const [ruleset, { globalRuleId }] = await Promise.all([
      this.deps.rulesets.get(shop, id),
      this.deps.settings.get(shop),
    ]);
    if (!ruleset) throw new AppError('not_found', RULESET_NOT_FOUND);
    return { ruleset, active: globalRuleId === id };
  }

  /** Validates the whole list, then replaces it in one write; nothing changes if any filter is wrong. */
  saveRulesetFilters(
    shop: string,
    id: string,
    drafts: rulesV1.Filter[],
    user: string,
  ): Promise<{ saved: RulesetRecord; version?: VersionRecord }> {
    return this.saveRuleset(shop, id, drafts.map(filterToJson), user, 'save');
  }

  /**
   * Save All and restore: validates the whole list, then replaces it in one
   * write, then keeps the version; nothing changes if any filter is wrong.
   * A restore answers its version's number, so it waits for it; a save does not.
   */
  private async saveRuleset(
    shop: string,
    id: string,
    inputs: FilterInput[],
    user: string,
    event: 'save' | 'restore',
    restoredNumber?: number,
  ): Promise<{ saved: RulesetRecord; version?: VersionRecord }> {
    const { rulesets, settings, publisher } = this.deps;
    const { errors, filters } = validateFilters(inputs, 'ruleset');
    if (errors.length)
      throw new AppError('invalid_data', 'Please fix the following errors:', errors);
    const [state, current] = await Promise.all([settings.get(shop), rulesets.get(shop, id)]);
    const active = state.globalRuleId === id;
    // A retried Save All (the same list again) changes nothing: no write, no new snapshot, no version.
    if (!current) throw new AppError('not_found', RULESET_NOT_FOUND);
    // The stored list goes through the same canonical form, so stored defaults compare equal.
    const stored = validateFilters(current.filters, 'ruleset').filters;
    if (isDeepStrictEqual(stored, filters)) return { saved: current };
    const write = async () => {
      const saved = await rulesets.replaceFilters(current, filters);
      if (!saved) throw new AppError('not_found', RULESET_NOT_FOUND);
      return saved;
    };
    // Only the active ruleset is in the snapshot (read beside the settings as it is built).
    const saved = await (active
      ? publisher.change(shop, write, { activeId: id, patch: patchActiveRuleset })
      : write());
    const changes = () => summariseChanges(diffFilters(stored, saved.filters, 'ruleset'));
    if (event === 'save') {
      this.keepRulesetVersionLater(shop, saved, user, event, active, changes);
      return { saved };
    }
    await this.versionsWritten(shop);
    const summary = `Restored version ${restoredNumber} (${changes()})`;
    const version = await this.keepVersion(
      shop,
      rulesetVersion(saved, user, event, active, summary),
    );
    return { saved, version };
  }

  private keepRulesetVersionLater(
    shop: string,
    ruleset: RulesetRecord,
    user: string,
    event: VersionEvent,
    checkout: boolean,
    summary: () => string,
  ): void {
    this.keepVersionLater(shop, () => rulesetVersion(ruleset, user, event, checkout, summary()));
  }

  /** A ruleset's or product rule's versions, newest first; not found when the subject is not the shop's. */
  async listVersions(shop: string, kind: FilterVersionKind, id: string): Promise<VersionRecord[]> {
    await Promise.all([this.subjectOf(shop, kind, id), this.versionsWritten(shop)]);
    return this.deps.history.list(shop, kind, id);
  }

  /** A version with the one kept before it: what it changed is the difference. */
  async getVersion(
    shop: string,
    kind: FilterVersionKind,
    id: string,
    number: number,
  ): Promise<{ version: VersionRecord; previous?: VersionRecord }> {
    const { history } = this.deps;
    await this.versionsWritten(shop);
    const version = await history.get(shop, kind, id, number);
    if (!version) throw new AppError('not_found', VERSION_NOT_FOUND);
    return { version, previous: await history.before(shop, kind, id, number) };
  }

  /** Saves the version's filters again, through Save All's checks: a new version. */
  async restoreVersion(
    shop: string,
    kind: FilterVersionKind,
    id: string,
    number: number,
    user: string,
  ): Promise<{ saved: { filters: SnapshotFilter[] }; version?: VersionRecord }> {
    await this.versionsWritten(shop);
    const version = await this.deps.history.get(shop, kind, id, number);
    if (!version) throw new AppError('not_found', VERSION_NOT_FOUND);
    const filters = version.content.filters ?? [];
    return kind === 'ruleset'
      ? this.saveRuleset(shop, id, filters, user, 'restore', number)
      : this.saveProductRule(shop, id, filters, user, 'restore', number);
  }

  private async subjectOf(shop: string, kind: FilterVersionKind, id: string): Promise<void> {
    if (kind === 'ruleset') {
      if (!(await this.deps.rulesets.get(shop, id)))
        throw new AppError('not_found', RULESET_NOT_FOUND);
    } else if (!(await this.deps.productRules.get(shop, id))) {
      throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    }
  }

  /** The latest changes that reached checkout, newest first. */
  async listActivity(shop: string): Promise<VersionRecord[]> {
    await this.versionsWritten(shop);
    return this.deps.history.activity(shop, ACTIVITY_SHOWN);
  }

  listProductRules(shop: string): Promise<ProductRuleRecord[]> {
    return this.deps.productRules.list(shop);
  }

  async addProductRules(
    shop: string,
    products: NewProductRule[],
  ): Promise<{ added: ProductRuleRecord[]; skipped: string[] }> {
    if (products.length === 0)
      throw new AppError('invalid_data', 'Please select at least one product.');
    if (products.length > LIMITS.productsPerAdd) {
      throw new AppError(
        'invalid_data',
        `At most ${LIMITS.productsPerAdd} products can be added at once.`,
      );
    }
    const picked = [...new Set(products.map((p) => p.productId))];
    return underShopLease(this.deps.leases, shop, async () => {
      const others = await this.deps.productRules.countOthers(shop, picked);
      if (others + picked.length > LIMITS.productRulesPerShop) {
        const room = Math.max(0, LIMITS.productRulesPerShop - others);
        throw new AppError(
          'invalid_data',
          `A shop can have at most ${LIMITS.productRulesPerShop} product rules: ` +
            (room ? `at most ${room} more can be added.` : 'delete one you no longer use first.'),
        );
      }
      const added: ProductRuleRecord[] = [];
      const skipped: string[] = [];
      return this.deps.publisher.change(shop, async () => {
        for (const product of products) {
          const result = await this.deps.productRules.add(shop, product);
          if (result === 'exists') skipped.push(product.productId);
          else added.push(result);
        }
        return { added, skipped };
      });
    });
  }

  async toggleProductRule(shop: string, id: string): Promise<{ active: boolean }> {
    const { productRules, publisher } = this.deps;
    let rule = await productRules.get(shop, id);
    if (!rule) throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    return publisher.change(
      shop,
      async () => {
        // The first attempt flips the state read above; a lost one reads it again, up to 5 times.
        for (let attempt = 0; attempt <= 5; attempt++) {
          if (attempt > 0) rule = await productRules.get(shop, id);
          if (!rule) throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
          if (await productRules.setActiveIf(shop, id, rule.active, !rule.active))
            return { active: !rule.active };
        }
        throw new AppError('conflict', CONCURRENT_CHANGE);
      },
      { patch: ({ active }) => patchProductRule(id, (entry) => ({ ...entry, active })) },
    );
  }

  async getProductRule(shop: string, id: string): Promise<ProductRuleRecord> {
    const rule = await this.deps.productRules.get(shop, id);
    if (!rule) throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    return rule;
  }

  /**
   * Same validation as a ruleset's filters, at product scope (at most 50
   * filters); the whole list is replaced in one write, or nothing changes.
   * Inactive rules are in the snapshot too, so every save republishes it.
   */
  async saveProductRuleFilters(
    shop: string,
    id: string,
    drafts: rulesV1.Filter[],
    user: string,
  ): Promise<ProductRuleRecord> {
    const { saved } = await this.saveProductRule(shop, id, drafts.map(filterToJson), user, 'save');
    return saved;
  }

  /**
   * Save All and restore of a product rule: the same validation as a ruleset's
   * filters, at product scope (at most 50 filters); the whole list is replaced
   * in one write, or nothing changes. Inactive rules are in the snapshot too,
   * so every save republishes it. The version comes after the save.
   */
  private async saveProductRule(
    shop: string,
    id: string,
    inputs: FilterInput[],
    user: string,
    event: 'save' | 'restore',
    restoredNumber?: number,
  ): Promise<{ saved: ProductRuleRecord; version?: VersionRecord }> {
    const { productRules, publisher } = this.deps;
    const { errors, filters } = validateFilters(inputs, 'product');
    if (errors.length)
      throw new AppError('invalid_data', 'Please fix the following errors:', errors);
    const before = await productRules.get(shop, id);
    if (!before) throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    const stored = validateFilters(before.filters, 'product').filters;
    // A restore of what the rule already has writes nothing (as a repeated ruleset save).
    if (event === 'restore' && isDeepStrictEqual(stored, filters)) return { saved: before };
    const saved = await publisher.change(
      shop,
      async () => {
        const saved = await productRules.replaceFilters(before, filters);
        if (!saved) throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
        return saved;
      },
      { patch: (saved) => patchProductRule(id, () => snapshotProductRule(saved)) },
    );
    if (isDeepStrictEqual(stored, saved.filters)) return { saved };
    const version = (summary: string): NewVersion => ({
      kind: 'product_rule',
      subjectId: id,
      subjectName: saved.name,
      user,
      event,
      summary,
      checkout: saved.active,
      content: { name: saved.name, filters: saved.filters },
    });
    const changes = () => summariseChanges(diffFilters(stored, saved.filters, 'product'));
    if (event === 'save') {
      this.keepVersionLater(shop, () => version(changes()));
      return { saved };
    }
    await this.versionsWritten(shop);
    return {
      saved,
      version: await this.keepVersion(
        shop,
        version(`Restored version ${restoredNumber} (${changes()})`),
      ),
    };
  }

  async deleteProductRule(shop: string, id: string): Promise<void> {
    const { productRules, publisher } = this.deps;
    if (!(await productRules.get(shop, id)))
      throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    await publisher.change(shop, async () => {
      if (!(await productRules.delete(shop, id)))
        throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    });
    await this.forgetVersions(shop, 'product_rule', id);
  }

  async getSettings(shop: string): Promise<SnapshotSettings> {
    return (await this.deps.settings.get(shop)).settings;
  }

  async saveSettings(shop: string, input: SettingsInput, user: string): Promise<SnapshotSettings> {
    const { errors, settings } = validateSettings(input);
    if (errors.length)
      throw new AppError('invalid_data', 'Please fix the following errors:', errors);
    // The write answers the settings it replaced: no read before it.
    const before = await this.deps.publisher.change(
      shop,
      () => this.deps.settings.save(shop, settings),
      { patch: () => patchSettings(settings) },
    );
    const changed = settingsChanges(before, settings);
    if (changed.length) {
      this.keepVersionLater(shop, () => ({
        kind: 'settings',
        subjectId: 'settings',
        subjectName: 'Settings',
        user,
        event: 'save',
        summary: `Changed ${changed.join(', ')}`,
        checkout: true,
        content: { settings },
      }));
    }
    return settings;
  }
}

function rulesetVersion(
  ruleset: RulesetRecord,
  user: string,
  event: VersionEvent,
  checkout: boolean,
  summary: string,
): NewVersion {
  return {
    kind: 'ruleset',
    subjectId: ruleset.id,
    subjectName: ruleset.name,
    user,
    event,
    summary,
    checkout,
    content: { name: ruleset.name, filters: ruleset.filters },
  };
}

/** The Settings page's labels (frontend/src/pages/Settings.tsx), for a version's summary. */
const SETTINGS_LABELS: Record<keyof SnapshotSettings, string> = {
  carrier_name: 'carrier name',
  carrier_description: 'carrier description',
  bump_shipping_enabled: 'offer bump shipping',
  bump_shipping_name: 'bump shipping name',
  bump_shipping_description: 'bump shipping description',
  bump_shipping_action: 'bump shipping action',
  bump_shipping_cost: 'bump shipping cost',
  fallback_enabled: 'offer a fallback rate',
  fallback_name: 'fallback rate name',
  fallback_description: 'fallback rate description',
  fallback_cost: 'fallback rate amount',
  recent_checkouts_enabled: 'keep recent checkouts',
  recent_checkouts_per_minute: 'recent checkouts sampled a minute',
  recent_checkouts_days: 'recent checkouts days kept',
};

/** The settings' fields that differ, named as the Settings page does. */
function settingsChanges(before: SnapshotSettings, after: SnapshotSettings): string[] {
  return (Object.keys(SETTINGS_LABELS) as (keyof SnapshotSettings)[])
    .filter((key) => before[key] !== after[key])
    .map((key) => SETTINGS_LABELS[key]);
}
