import { createHash } from 'node:crypto';
import {
  filterFromJson,
  importNativeRates,
  nativeProfilesSchema,
  validateFilters,
  type authV1,
  type NativeRateImport,
  type rulesV1,
  type ShippingImportReply,
} from '@ratesmith/contracts';
import { AppError, type ClientOf } from '@ratesmith/kit';
import { Router, type RequestHandler, type Response } from 'express';
import { shopOf, traced, userOf } from '../../http/context';
import { parseInput } from '../../http/validate';
import { confirmBody } from './schemas';
import { SHOPIFY_BACKED_TIMEOUT_MS } from '../../shopify-backed-calls';

export const PLAN_CHANGED =
  'Your shipping rates in Shopify changed since this plan was made. Review the new plan, then confirm again.';
export const NOTHING_TO_IMPORT = 'There is no rate Ratesmith can import: nothing was created.';
const UNREADABLE =
  'Shopify sent shipping rates Ratesmith cannot read. Please try again in a moment.';

/** Same rules and the same list of what is left out: the same fingerprint. */
function fingerprint(plan: NativeRateImport): string {
  return createHash('sha256')
    .update(JSON.stringify([plan.filters, plan.skipped]))
    .digest('hex');
}

function replyOf(plan: NativeRateImport, name: string, message: string): ShippingImportReply {
  return {
    status: true,
    message,
    summary: plan.summary,
    zones: plan.zones,
    rates: plan.rates,
    ruleset_name: name,
    rules: plan.imported.map((i) => ({
      name: plan.filters[i.rule]!.name,
      zone: i.zone,
      rate: i.name,
      price: i.price,
    })),
    skipped: plan.skipped.map((s) => ({
      profile: s.profile,
      zone: s.zone,
      rate: s.name,
      reason: s.reason,
    })),
    plan: fingerprint(plan),
  };
}

/**
 * "Import from Shopify": GET answers the plan (the shop's delivery profiles
 * read from Shopify now, through the auth service, turned into rules by
 * `importNativeRates`); POST with that plan's fingerprint writes it as one
 * new ruleset, disabled, never touching the enabled one. The shop is the
 * session token's; Shopify's part is bounded as the shipping zones' is.
 */
export function shippingImportRouter(
  auth: ClientOf<typeof authV1.AuthService>,
  rules: ClientOf<typeof rulesV1.RulesService>,
): Router {
  const planFor = async (res: Response): Promise<NativeRateImport> => {
    const shop = shopOf(res);
    const wait = { ...traced(res), timeoutMs: SHOPIFY_BACKED_TIMEOUT_MS };
    const { currencyCode } = await auth.call('getShopCurrency', { shop }, wait);
    const { profilesJson } = await auth.call('getShippingRates', { shop }, wait);
    const profiles = nativeProfilesSchema.safeParse(JSON.parse(profilesJson));
    if (!profiles.success) throw new AppError('unavailable', UNREADABLE);
    return importNativeRates(profiles.data, currencyCode);
  };
  const nameOf = () => `Imported from Shopify ${new Date().toISOString().slice(0, 10)}`;

  const dryRun: RequestHandler = async (_req, res) => {
    const plan = await planFor(res);
    const message = plan.filters.length
      ? 'Nothing was changed yet: confirm to import.'
      : NOTHING_TO_IMPORT;
    res.json(replyOf(plan, nameOf(), message));
  };

  const confirm: RequestHandler = async (req, res) => {
    const body = parseInput(confirmBody, req.body);
    const plan = await planFor(res);
    if (fingerprint(plan) !== body.plan) throw new AppError('conflict', PLAN_CHANGED);
    if (!plan.filters.length) throw new AppError('invalid_data', NOTHING_TO_IMPORT);
    const { errors } = validateFilters(plan.filters, 'ruleset');
    // importNativeRates writes only what validates (its tests say so); never write half a plan.
    if (errors.length) throw new AppError('invalid_data', errors.join(' '));
    const shop = shopOf(res);
    const name = nameOf();
    const { ruleset } = await rules.call(
      'createRuleset',
      { shop, name, requestKey: '' },
      traced(res),
    );
    const id = ruleset!.id;
    try {
      await rules.call(
        'saveRulesetFilters',
        { shop, id, filters: plan.filters.map(filterFromJson), user: userOf(res) },
        traced(res),
      );
    } catch (err) {
      // An empty ruleset named as an import would mislead: take it away again.
      await rules.call('deleteRuleset', { shop, id }, traced(res)).catch(() => undefined);
      throw err;
    }
    res.json({
      ...replyOf(
        plan,
        name,
        `Imported as the ruleset “${name}”, disabled: enable it on Global Rules.`,
      ),
      ruleset: { id, name },
    } satisfies ShippingImportReply);
  };

  const router = Router();
  router.get('/', dryRun);
  router.post('/', confirm);
  return router;
}
