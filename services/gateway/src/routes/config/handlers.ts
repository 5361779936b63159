import {
  filterFromJson,
  filterToJson,
  settingsFromJson,
  settingsToJson,
  type catalogV1,
  type ConfigDocument,
  type ConfigImportReply,
  type ErrorReply,
  LIMITS,
  type rulesV1,
} from '@ratesmith/contracts';
import { megabytes, type ClientOf } from '@ratesmith/kit';
import type { RequestHandler } from 'express';
import { shopOf, traced } from '../../http/context';
import { parseInput } from '../../http/validate';
import { configDocumentSchema, importQuery } from './schemas';

type RulesClient = ClientOf<typeof rulesV1.RulesService>;
type CatalogClient = ClientOf<typeof catalogV1.CatalogService>;

/** A name the merchant's browser saves the download under. */
function fileName(shop: string, at: Date): string {
  return `ratesmith-config-${shop.replace(/\.myshopify\.com$/, '')}-${at.toISOString().slice(0, 10)}.json`;
}

/**
 * Export and import of the shop's whole configuration. An import's products
 * are looked up in this store first (the catalog, with its longer time limit):
 * rules of products that are not there are reported, not imported.
 */
export function configHandlers(
  rules: RulesClient,
  catalog: CatalogClient,
  catalogTimeoutMs: number,
) {
  const exportConfig: RequestHandler = async (_req, res) => {
    const shop = shopOf(res);
    const reply = await rules.call('exportConfig', { shop }, traced(res));
    const now = new Date();
    const document: ConfigDocument = {
      format: 'ratesmith-config',
      version: 1,
      exported_at: now.toISOString(),
      rulesets: reply.rulesets.map((r) => ({
        name: r.name,
        enabled: r.enabled,
        filters: r.filters.map(filterToJson),
      })),
      product_rules: reply.productRules.map((r) => ({
        product_id: r.productId,
        ...(r.variantIds.length ? { variant_ids: r.variantIds } : {}),
        enabled: r.enabled,
        filters: r.filters.map(filterToJson),
      })),
      settings: settingsToJson(reply.settings),
    };
    // Only a file the import takes is handed out (LIMITS.configFileBytes).
    const body = JSON.stringify(document);
    const bytes = Buffer.byteLength(body);
    if (bytes > LIMITS.configFileBytes) {
      res.status(413).json({
        status: false,
        message:
          `Your configuration is ${megabytes(bytes)}, more than the ${megabytes(LIMITS.configFileBytes)} ` +
          'a configuration file can have, so it could not be imported again: delete rulesets or ' +
          'product rules you no longer use, or remove rules, then export again.',
      } satisfies ErrorReply);
      return;
    }
    res.setHeader('content-disposition', `attachment; filename="${fileName(shop, now)}"`);
    res.type('json').send(body);
  };

  const importConfig: RequestHandler = async (req, res) => {
    const { dry_run } = parseInput(importQuery, req.query);
    const dryRun = dry_run === '1' || dry_run === 'true';
    const document = parseInput(configDocumentSchema, req.body);
    const shop = shopOf(res);
    const lookup = document.product_rules.length
      ? await catalog.call(
          'lookUpProducts',
          {
            shop,
            products: document.product_rules.map((r) => ({
              productId: r.product_id,
              variantIds: r.variant_ids,
            })),
          },
          { ...traced(res), timeoutMs: catalogTimeoutMs },
        )
      : { found: [], missing: [] };
    const inStore = new Map(lookup.found.map((p) => [p.productId, p]));
    const productRules = document.product_rules.flatMap((rule) => {
      const product = inStore.get(rule.product_id);
      if (!product) return [];
      return [
        {
          product: {
            productId: product.productId,
            name: product.title,
            image: product.imageUrl,
            variants: product.variants.map(({ id, title, price }) => ({ id, title, price })),
            variantIds: rule.variant_ids,
          },
          enabled: rule.enabled,
          filters: rule.filters.map(filterFromJson),
        },
      ];
    });
    const plan = await rules.call(
      'importConfig',
      {
        shop,
        rulesets: document.rulesets.map((r) => ({
          name: r.name,
          enabled: r.enabled,
          filters: r.filters.map(filterFromJson),
        })),
        productRules,
        settings: settingsFromJson(document.settings),
        dryRun,
      },
      traced(res),
    );
    const failed = !dryRun && plan.errors.length > 0;
    const reply: ConfigImportReply = {
      status: !failed,
      message: failed
        ? 'Please fix the following errors:'
        : plan.applied
          ? 'Configuration imported.'
          : plan.errors.length
            ? 'This file cannot be imported as it is: please fix the errors below.'
            : 'Nothing was changed yet: confirm to import.',
      dry_run: dryRun,
      applied: plan.applied,
      plan: {
        rulesets: plan.rulesets.map((r) => ({
          name: r.name,
          action: r.replaces ? 'replace' : 'add',
          filters_count: r.filterCount,
          enabled: r.enabled,
        })),
        product_rules: plan.productRules.map((r) => ({
          product_id: r.productId,
          title: r.name,
          action: r.replaces ? 'replace' : 'add',
          filters_count: r.filterCount,
          enabled: r.enabled,
        })),
        settings: plan.settings.map(({ field, before, after }) => ({ field, before, after })),
        missing_products: lookup.missing.map((m) => ({
          product_id: m.productId,
          variant_ids: m.variantIds,
        })),
      },
      errors: plan.errors,
    };
    res.status(failed ? 400 : 200).json(reply);
  };

  return { exportConfig, importConfig };
}
