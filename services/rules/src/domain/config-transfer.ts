import {
  LIMITS,
  rulesetNameProblem,
  validateFilters,
  type FilterInput,
  type SnapshotFilter,
  type SnapshotSettings,
} from '@ratesmith/contracts';
import type {
  NewProductRule,
  ProductRuleRecord,
  ProductRulesRepository,
} from '../data/product-rules.repository';
import type { RulesetsRepository } from '../data/rulesets.repository';
import type { SettingsRepository } from '../data/settings.repository';
import type { ShopLeasesRepository } from '../data/shop-leases.repository';
import type { SnapshotPublisher } from '../snapshots/publisher';
import { validateSettings, type SettingsInput } from './settings';
import { underShopLease } from './shop-lease';

export interface ConfigExport {
  rulesets: { name: string; enabled: boolean; filters: SnapshotFilter[] }[];
  productRules: ProductRuleRecord[];
  settings: SnapshotSettings;
}

export interface ImportedProductRule {
  product: NewProductRule;
  enabled: boolean;
  filters: FilterInput[];
}

export interface ConfigImport {
  rulesets: { name: string; enabled: boolean; filters: FilterInput[] }[];
  productRules: ImportedProductRule[];
  settings: SettingsInput;
}

export interface ImportPlan {
  rulesets: { name: string; replaces: boolean; filterCount: number; enabled: boolean }[];
  productRules: {
    productId: string;
    name: string;
    replaces: boolean;
    filterCount: number;
    enabled: boolean;
  }[];
  settings: { field: string; before: string; after: string }[];
  errors: string[];
  applied: boolean;
}

interface Checked {
  rulesets: { name: string; enabled: boolean; filters: SnapshotFilter[] }[];
  productRules: (NewProductRule & { active: boolean; filters: SnapshotFilter[] })[];
  settings: SnapshotSettings;
  errors: string[];
}

/**
 * A shop's whole configuration out (export) and in (import). An import is
 * checked as a whole with the editor's own validation and written only when
 * nothing is wrong; see `apply` for why checkout never sees half of one.
 */
export class ConfigTransfer {
  constructor(
    private readonly deps: {
      rulesets: RulesetsRepository;
      productRules: ProductRulesRepository;
      settings: SettingsRepository;
      leases: ShopLeasesRepository;
      publisher: SnapshotPublisher;
    },
  ) {}

  async exportConfig(shop: string): Promise<ConfigExport> {
    const [rulesets, productRules, state] = await Promise.all([
      this.deps.rulesets.list(shop),
      this.deps.productRules.list(shop),
      this.deps.settings.get(shop),
    ]);
    return {
      rulesets: rulesets.map((r) => ({
        name: r.name,
        enabled: r.id === state.globalRuleId,
        filters: r.filters,
      })),
      productRules,
      settings: state.settings,
    };
  }

  /** The plan, with every error; written (all of it) only when not a dry run and error-free. */
  async importConfig(shop: string, input: ConfigImport, dryRun: boolean): Promise<ImportPlan> {
    const checked = check(input);
    // A dry run writes nothing; an import counts the shop's limits and writes under its lease.
    if (dryRun || checked.errors.length) return this.plan(shop, checked, true);
    return underShopLease(this.deps.leases, shop, () => this.plan(shop, checked, false));
  }

  /** The plan against the shop as it is now; applied when `dryRun` is false and nothing is wrong. */
  private async plan(shop: string, checked: Checked, dryRun: boolean): Promise<ImportPlan> {
    const [rulesets, productRules, state] = await Promise.all([
      this.deps.rulesets.list(shop),
      this.deps.productRules.list(shop),
      this.deps.settings.get(shop),
    ]);
    const names = new Set(rulesets.map((r) => r.name));
    const products = new Set(productRules.map((r) => r.productId));
    checked.errors.push(...afterImportProblems(checked, rulesets, productRules));
    const plan: ImportPlan = {
      rulesets: checked.rulesets.map((r) => ({
        name: r.name,
        replaces: names.has(r.name),
        filterCount: r.filters.length,
        enabled: r.enabled,
      })),
      productRules: checked.productRules.map((r) => ({
        productId: r.productId,
        name: r.name,
        replaces: products.has(r.productId),
        filterCount: r.filters.length,
        enabled: r.active,
      })),
      settings: settingChanges(state.settings, checked.settings, {
        before: rulesets.find((r) => r.id === state.globalRuleId)?.name ?? null,
        after: checked.rulesets.find((r) => r.enabled)?.name ?? null,
      }),
      errors: checked.errors,
      applied: false,
    };
    if (dryRun || checked.errors.length) return plan;
    await this.apply(shop, checked, rulesets, productRules);
    return { ...plan, applied: true };
  }

  /**
   * FerretDB has no transactions, so the order of the writes keeps checkout
   * (which reads only published snapshots) from pricing with half an import:
   * the publisher holds this shop's snapshot until every write is done
   * (`SnapshotPublisher.change`, one publish at the end); the new rulesets are
   * new documents, out of the snapshot until the one settings write switches
   * the settings and the active ruleset together; only then are the rulesets
   * they replace deleted. If a write fails, what was written is undone before
   * the error is answered (docs/reliability.md).
   */
  private async apply(
    shop: string,
    checked: Checked,
    oldRulesets: { id: string; name: string }[],
    oldProductRules: ProductRuleRecord[],
  ): Promise<void> {
    const { rulesets, productRules, settings, publisher } = this.deps;
    const created: string[] = [];
    const put: ProductRuleRecord[] = [];
    const added: string[] = [];
    await publisher.change(shop, async () => {
      try {
        let active: string | null = null;
        for (const ruleset of checked.rulesets) {
          const record = await rulesets.create(shop, ruleset.name, ruleset.filters);
          created.push(record.id);
          if (ruleset.enabled) active = record.id;
        }
        for (const rule of checked.productRules) {
          const previous = oldProductRules.find((r) => r.productId === rule.productId);
          if (previous) put.push(previous);
          else added.push(rule.productId);
          await productRules.put(shop, rule);
        }
        await settings.replace(shop, checked.settings, active);
      } catch (err) {
        await this.undo(shop, created, put, added);
        throw err;
      }
      // Switched: the replaced rulesets are no longer the active one nor needed.
      const replaced = new Set(checked.rulesets.map((r) => r.name));
      for (const old of oldRulesets)
        if (replaced.has(old.name)) await rulesets.delete(shop, old.id);
    });
  }

  /** Best effort: takes back the writes of a failed import (the error is answered either way). */
  private async undo(
    shop: string,
    created: string[],
    previous: ProductRuleRecord[],
    added: string[],
  ): Promise<void> {
    const { rulesets, productRules } = this.deps;
    await Promise.allSettled([
      ...created.map((id) => rulesets.delete(shop, id)),
      ...previous.map((rule) => productRules.put(shop, rule)),
      ...added.map((productId) => productRules.deleteByProduct(shop, productId)),
    ]);
  }
}

/** The per-shop limits, counted on what the shop would have: its own kept, the imported added. */
function afterImportProblems(
  checked: Checked,
  rulesets: { name: string }[],
  productRules: { productId: string }[],
): string[] {
  const importedNames = new Set(checked.rulesets.map((r) => r.name));
  const importedProducts = new Set(checked.productRules.map((r) => r.productId));
  const rulesetCount =
    rulesets.filter((r) => !importedNames.has(r.name)).length + importedNames.size;
  const productRuleCount =
    productRules.filter((r) => !importedProducts.has(r.productId)).length + importedProducts.size;
  const problems: string[] = [];
  if (checked.rulesets.length <= LIMITS.rulesetsPerShop && rulesetCount > LIMITS.rulesetsPerShop)
    problems.push(
      `After this import the shop would have ${rulesetCount} rulesets, more than the ${LIMITS.rulesetsPerShop} a shop can have: delete rulesets you no longer use first.`,
    );
  if (
    checked.productRules.length <= LIMITS.productRulesPerShop &&
    productRuleCount > LIMITS.productRulesPerShop
  )
    problems.push(
      `After this import the shop would have ${productRuleCount} product rules, more than the ${LIMITS.productRulesPerShop} a shop can have: delete product rules you no longer use first.`,
    );
  return problems;
}

/** Every problem of the configuration at once, in the editor's words with where they are. */
function check(input: ConfigImport): Checked {
  const errors: string[] = [];
  if (input.rulesets.length > LIMITS.rulesetsPerShop)
    errors.push(`A configuration can have at most ${LIMITS.rulesetsPerShop} rulesets.`);
  if (input.productRules.length > LIMITS.productRulesPerShop)
    errors.push(`A configuration can have at most ${LIMITS.productRulesPerShop} product rules.`);
  if (input.rulesets.filter((r) => r.enabled).length > 1)
    errors.push('Only one ruleset can be enabled.');

  const seenNames = new Set<string>();
  const rulesets = input.rulesets.map((ruleset, index) => {
    const name = ruleset.name.trim();
    const where = name ? `Ruleset "${name.slice(0, LIMITS.rulesetName)}"` : `Ruleset ${index + 1}`;
    const problem = rulesetNameProblem(ruleset.name);
    if (problem) errors.push(`${where}: ${problem}`);
    if (seenNames.has(name)) errors.push(`${where}: two rulesets have this name.`);
    seenNames.add(name);
    const result = validateFilters(ruleset.filters, 'ruleset');
    errors.push(...result.errors.map((e) => `${where}: ${e}`));
    return { name, enabled: ruleset.enabled, filters: result.filters };
  });

  const seenProducts = new Set<string>();
  const productRules = input.productRules.map(({ product, enabled, filters }) => {
    const where = `Product rule ${product.name} (${product.productId})`;
    if (seenProducts.has(product.productId)) errors.push(`${where}: listed twice.`);
    seenProducts.add(product.productId);
    const result = validateFilters(filters, 'product');
    errors.push(...result.errors.map((e) => `${where}: ${e}`));
    return { ...product, active: enabled, filters: result.filters };
  });

  const settings = validateSettings(input.settings);
  errors.push(...settings.errors.map((e) => `Settings: ${e}`));
  return { rulesets, productRules, settings: settings.settings, errors };
}

/**
 * The settings fields the import changes, values as JSON text, and the active
 * ruleset (`enabled_ruleset`, by name): the import makes its enabled one active, or none.
 */
function settingChanges(
  current: SnapshotSettings,
  next: SnapshotSettings,
  activeRuleset: { before: string | null; after: string | null },
): ImportPlan['settings'] {
  const changes: ImportPlan['settings'] = (Object.keys(next) as (keyof SnapshotSettings)[])
    .map((field) => ({
      field,
      before: JSON.stringify(current[field]),
      after: JSON.stringify(next[field]),
    }))
    .filter((change) => change.before !== change.after);
  if (activeRuleset.before !== activeRuleset.after)
    changes.push({
      field: 'enabled_ruleset',
      before: JSON.stringify(activeRuleset.before),
      after: JSON.stringify(activeRuleset.after),
    });
  return changes;
}
