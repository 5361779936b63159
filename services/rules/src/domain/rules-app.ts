import { isDeepStrictEqual } from 'node:util';
import {
  filterToJson,
  LIMITS,
  rulesetNameProblem,
  validateFilters,
  type rulesV1,
  type SnapshotSettings,
} from '@ratesmith/contracts';
import { AppError } from '@ratesmith/kit';
import type {
  NewProductRule,
  ProductRuleRecord,
  ProductRulesRepository,
} from '../data/product-rules.repository';
import type { RulesetRecord, RulesetsRepository } from '../data/rulesets.repository';
import type { SettingsRepository } from '../data/settings.repository';
import type { SnapshotPublisher } from '../snapshots/publisher';
import { validateSettings, type SettingsInput } from './settings';

const RULESET_NOT_FOUND = 'Ruleset not found.';
const PRODUCT_RULE_NOT_FOUND = 'Product rule not found.';
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
  constructor(
    private readonly deps: {
      rulesets: RulesetsRepository;
      productRules: ProductRulesRepository;
      settings: SettingsRepository;
      publisher: SnapshotPublisher;
    },
  ) {}

  async listRulesets(
    shop: string,
  ): Promise<{ rulesets: RulesetRecord[]; globalRuleId: string | null }> {
    const [rulesets, state] = await Promise.all([
      this.deps.rulesets.list(shop),
      this.deps.settings.get(shop),
    ]);
    const activeExists = rulesets.some((r) => r.id === state.globalRuleId);
    return { rulesets, globalRuleId: activeExists ? state.globalRuleId : null };
  }

  async createRuleset(shop: string, rawName: string): Promise<RulesetRecord> {
    return this.deps.rulesets.create(shop, checkedRulesetName(rawName));
  }

  /** Same name rules as createRuleset; the filters and the active state stay as they are. */
  async renameRuleset(
    shop: string,
    id: string,
    rawName: string,
  ): Promise<{ ruleset: RulesetRecord; active: boolean }> {
    const ruleset = await this.deps.rulesets.rename(shop, id, checkedRulesetName(rawName));
    if (!ruleset) throw new AppError('not_found', RULESET_NOT_FOUND);
    const active = (await this.deps.settings.get(shop)).globalRuleId === id;
    // The snapshot carries the active ruleset's name.
    if (active) await this.deps.publisher.publish(shop);
    return { ruleset, active };
  }

  /** Enables the ruleset, which disables whichever was active; or disables it if it is the active one. */
  async toggleRuleset(shop: string, id: string): Promise<{ active: boolean }> {
    const { rulesets, settings, publisher } = this.deps;
    if (!(await rulesets.get(shop, id))) throw new AppError('not_found', RULESET_NOT_FOUND);
    return publisher.change(shop, async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const { globalRuleId } = await settings.get(shop);
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
    });
  }

  async deleteRuleset(shop: string, id: string): Promise<void> {
    const { rulesets, settings, publisher } = this.deps;
    // Only the active ruleset is in the snapshot: deleting it leaves none active.
    if ((await settings.get(shop)).globalRuleId !== id) {
      if (!(await rulesets.delete(shop, id))) throw new AppError('not_found', RULESET_NOT_FOUND);
      // Enabled between the read and the delete: the snapshot must lose it too.
      if (await settings.setActiveIf(shop, id, null)) await publisher.publish(shop);
      return;
    }
    await publisher.change(shop, async () => {
      if (!(await rulesets.delete(shop, id))) throw new AppError('not_found', RULESET_NOT_FOUND);
      await settings.setActiveIf(shop, id, null);
    });
  }

  async duplicateRuleset(shop: string, id: string): Promise<RulesetRecord> {
    const source = await this.deps.rulesets.get(shop, id);
    if (!source) throw new AppError('not_found', RULESET_NOT_FOUND);
    const name = `Copy of ${source.name}`.slice(0, LIMITS.rulesetName);
    return this.deps.rulesets.create(shop, name, source.filters);
  }

  async getRuleset(shop: string, id: string): Promise<{ ruleset: RulesetRecord; active: boolean }> {
    const ruleset = await this.deps.rulesets.get(shop, id);
    if (!ruleset) throw new AppError('not_found', RULESET_NOT_FOUND);
    const { globalRuleId } = await this.deps.settings.get(shop);
    return { ruleset, active: globalRuleId === id };
  }

  /** Validates the whole list, then replaces it in one write; nothing changes if any filter is wrong. */
  async saveRulesetFilters(
    shop: string,
    id: string,
    drafts: rulesV1.Filter[],
  ): Promise<RulesetRecord> {
    const { rulesets, settings, publisher } = this.deps;
    const { errors, filters } = validateFilters(drafts.map(filterToJson), 'ruleset');
    if (errors.length)
      throw new AppError('invalid_data', 'Please fix the following errors:', errors);
    const active = (await settings.get(shop)).globalRuleId === id;
    // A retried Save All (the same list again) changes nothing: no write, no new snapshot.
    const current = await rulesets.get(shop, id);
    // The stored list goes through the same canonical form, so stored defaults compare equal.
    const unchanged =
      current && isDeepStrictEqual(validateFilters(current.filters, 'ruleset').filters, filters);
    if (unchanged) return current;
    const write = async () => {
      const saved = await rulesets.replaceFilters(shop, id, filters);
      if (!saved) throw new AppError('not_found', RULESET_NOT_FOUND);
      return saved;
    };
    // Only the active ruleset is in the snapshot.
    return active ? publisher.change(shop, write) : write();
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
  }

  async toggleProductRule(shop: string, id: string): Promise<{ active: boolean }> {
    const { productRules, publisher } = this.deps;
    if (!(await productRules.get(shop, id)))
      throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    return publisher.change(shop, async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const rule = await productRules.get(shop, id);
        if (!rule) throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
        if (await productRules.setActiveIf(shop, id, rule.active, !rule.active))
          return { active: !rule.active };
      }
      throw new AppError('conflict', CONCURRENT_CHANGE);
    });
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
  ): Promise<ProductRuleRecord> {
    const { productRules, publisher } = this.deps;
    const { errors, filters } = validateFilters(drafts.map(filterToJson), 'product');
    if (errors.length)
      throw new AppError('invalid_data', 'Please fix the following errors:', errors);
    return publisher.change(shop, async () => {
      const saved = await productRules.replaceFilters(shop, id, filters);
      if (!saved) throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
      return saved;
    });
  }

  async deleteProductRule(shop: string, id: string): Promise<void> {
    const { productRules, publisher } = this.deps;
    if (!(await productRules.get(shop, id)))
      throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    await publisher.change(shop, async () => {
      if (!(await productRules.delete(shop, id)))
        throw new AppError('not_found', PRODUCT_RULE_NOT_FOUND);
    });
  }

  async getSettings(shop: string): Promise<SnapshotSettings> {
    return (await this.deps.settings.get(shop)).settings;
  }

  async saveSettings(shop: string, input: SettingsInput): Promise<SnapshotSettings> {
    const { errors, settings } = validateSettings(input);
    if (errors.length)
      throw new AppError('invalid_data', 'Please fix the following errors:', errors);
    await this.deps.publisher.change(shop, () => this.deps.settings.save(shop, settings));
    return settings;
  }
}
