import {
  checkoutLocationGroup,
  nativeProfilesSchema,
  type authV1,
  type rulesV1,
  type ShadowReportReply,
} from '@ratesmith/contracts';
import { AppError, type ClientOf } from '@ratesmith/kit';
import { Router, type RequestHandler } from 'express';
import { shopOf, traced, userOf } from '../../http/context';
import { parseInput } from '../../http/validate';
import { SHOPIFY_BACKED_TIMEOUT_MS } from '../../shopify-backed-calls';
import { shadowStartBody } from './schemas';

export const NO_NATIVE_RATES =
  'Your shop has no shipping rates in Shopify to compare with: nothing was started.';
export const NO_SHADOW = 'No ruleset runs in shadow: start one first.';
const UNREADABLE =
  'Shopify sent shipping rates Ratesmith cannot read. Please try again in a moment.';

const EMPTY: Omit<ShadowReportReply, 'status' | 'message' | 'shadow'> = {
  seen: 0,
  counts: { same: 0, cheaper: 0, dearer: 0, no_rate: 0, only_ratesmith: 0 },
  distribution: [],
  largest: [],
};

/**
 * Shadow mode (docs/shopify.md, "Shadow mode"): POST starts a ruleset in
 * shadow, with the native rates of the location group checkout ships from
 * read from Shopify now; GET answers the report; DELETE stops the shadow.
 * The shop is the session token's.
 */
export function shadowRouter(
  auth: ClientOf<typeof authV1.AuthService>,
  rules: ClientOf<typeof rulesV1.RulesService>,
): Router {
  const report: RequestHandler = async (_req, res) => {
    const shop = shopOf(res);
    const got = await rules.call('getShadowReport', { shop }, traced(res));
    const reply: ShadowReportReply = got.rulesetId
      ? {
          status: true,
          message: '',
          shadow: {
            ruleset_id: got.rulesetId,
            ruleset_name: got.rulesetName,
            started_at: got.startedAt,
          },
          ...(JSON.parse(got.figuresJson) as typeof EMPTY),
        }
      : { status: true, message: '', shadow: null, ...EMPTY };
    res.json(reply);
  };

  const start: RequestHandler = async (req, res) => {
    const body = parseInput(shadowStartBody, req.body);
    const shop = shopOf(res);
    const wait = { ...traced(res), timeoutMs: SHOPIFY_BACKED_TIMEOUT_MS };
    const { profilesJson } = await auth.call('getShippingRates', { shop }, wait);
    const profiles = nativeProfilesSchema.safeParse(JSON.parse(profilesJson));
    if (!profiles.success) throw new AppError('unavailable', UNREADABLE);
    const native = checkoutLocationGroup(profiles.data);
    if (!native) throw new AppError('invalid_data', NO_NATIVE_RATES);
    await rules.call(
      'startShadow',
      { shop, rulesetId: body.ruleset_id, nativeJson: JSON.stringify(native), user: userOf(res) },
      traced(res),
    );
    await report(req, res, () => undefined);
  };

  const stop: RequestHandler = async (req, res) => {
    await rules.call('stopShadow', { shop: shopOf(res), forget: true }, traced(res));
    await report(req, res, () => undefined);
  };

  /**
   * Go live: the shadow ruleset becomes the enabled one (if it is not yet),
   * then the shadow stops, so the callback answers Ratesmith's rates. Shopify's
   * own rates stay as they are.
   */
  const goLive: RequestHandler = async (_req, res) => {
    const shop = shopOf(res);
    const { rulesetId, rulesetName } = await rules.call('getShadowReport', { shop }, traced(res));
    if (!rulesetId) throw new AppError('invalid_data', NO_SHADOW);
    const { globalRuleId } = await rules.call('listRulesets', { shop }, traced(res));
    if (globalRuleId !== rulesetId)
      await rules.call('toggleRuleset', { shop, id: rulesetId, user: userOf(res) }, traced(res));
    await rules.call('stopShadow', { shop, forget: false }, traced(res));
    res.json({
      status: true,
      message: `“${rulesetName}” is live: checkout gets Ratesmith’s rates.`,
      shadow: null,
      ...EMPTY,
    } satisfies ShadowReportReply);
  };

  const router = Router();
  router.post('/go-live', goLive);
  router.get('/', report);
  router.post('/', start);
  router.delete('/', stop);
  return router;
}
