import {
  authV1,
  checkoutLocationGroup,
  MAX_RATES_OFF,
  merchantRateStates,
  nativeProfilesSchema,
  nativeRatesToTurnOff,
  NO_SHADOW,
  NOTHING_TO_UNDO,
  sameRates,
  type GoLivePlanReply,
  type GoLiveRecordJson,
  type NativeProfile,
  type NativeRateOff,
  type rulesV1,
  type ShadowReportReply,
} from '@ratesmith/contracts';
import { AppError, type ClientOf } from '@ratesmith/kit';
import { Router, type RequestHandler, type Response } from 'express';
import { shopOf, traced, userOf } from '../../http/context';
import { parseInput } from '../../http/validate';
import { SHOPIFY_BACKED_TIMEOUT_MS } from '../../shopify-backed-calls';
import { goLiveBody, shadowStartBody } from './schemas';

export const NO_NATIVE_RATES =
  'Your shop has no shipping rates in Shopify to compare with: nothing was started.';
export const RATES_CHANGED =
  'Your Shopify rates changed since you reviewed them: review the list again.';
const UNREADABLE =
  'Shopify sent shipping rates Ratesmith cannot read. Please try again in a moment.';
export const CARRIER_NOT_CALLED =
  'Checkout does not call Ratesmith right now (Settings › Checkout): turning Shopify’s rates off would leave checkout without rates, so they stay on.';
/** Carrier states in which checkout would get no rate from Ratesmith. */
const NOT_CALLED = new Set([
  authV1.CarrierState.INACTIVE,
  authV1.CarrierState.NEEDS_PLAN,
  authV1.CarrierState.ERROR,
]);
const TOO_MANY = `More than ${MAX_RATES_OFF} Shopify rates would be disabled: Ratesmith cannot disable that many at once.`;

const EMPTY: Omit<ShadowReportReply, 'status' | 'message' | 'shadow' | 'go_live'> = {
  seen: 0,
  counts: { same: 0, cheaper: 0, dearer: 0, no_rate: 0, only_ratesmith: 0 },
  distribution: [],
  largest: [],
};

const names = (rates: NativeRateOff[]) => rates.map((r) => `${r.zone}: ${r.name}`).join('; ');
const rates = (n: number) => `${n} Shopify ${n === 1 ? 'rate' : 'rates'}`;

/**
 * Shadow mode (docs/shopify.md, "Shadow mode"): POST starts a ruleset in
 * shadow, with the native rates of the location group checkout ships from
 * read from Shopify now; GET answers the report; DELETE stops the shadow;
 * go-live and its undo. The shop is the session token's.
 */
export function shadowRouter(
  auth: ClientOf<typeof authV1.AuthService>,
  rules: ClientOf<typeof rulesV1.RulesService>,
): Router {
  const shopify = (res: Response) => ({ ...traced(res), timeoutMs: SHOPIFY_BACKED_TIMEOUT_MS });

  async function readProfiles(shop: string, res: Response): Promise<NativeProfile[]> {
    const { profilesJson } = await auth.call('getShippingRates', { shop }, shopify(res));
    const profiles = nativeProfilesSchema.safeParse(JSON.parse(profilesJson));
    if (!profiles.success) throw new AppError('unavailable', UNREADABLE);
    return profiles.data;
  }

  /** Checkout does not call Ratesmith, as auth last saw it: no Shopify rate may go off. */
  async function carrierNotCalled(shop: string, res: Response): Promise<boolean> {
    const { status } = await auth.call('getCarrierStatus', { shop }, traced(res));
    return status !== undefined && NOT_CALLED.has(status.state);
  }

  /**
   * The rates going live would turn off now: read from Shopify, chosen by
   * nativeRatesToTurnOff; none (and why) while checkout does not call Ratesmith.
   */
  async function currentPlan(
    shop: string,
    res: Response,
  ): Promise<{ rates: NativeRateOff[]; why: string }> {
    if (await carrierNotCalled(shop, res)) return { rates: [], why: CARRIER_NOT_CALLED };
    const profiles = await readProfiles(shop, res);
    const zones = await auth.call('getShippingZones', { shop }, shopify(res));
    const asking = new Set(
      zones.profiles.flatMap((p) => p.zones.filter((z) => z.ratesmith).map((z) => z.id)),
    );
    const plan = nativeRatesToTurnOff(profiles, asking);
    if (plan.length > MAX_RATES_OFF) throw new AppError('invalid_data', TOO_MANY);
    return { rates: plan, why: '' };
  }

  async function reportOf(shop: string, res: Response): Promise<ShadowReportReply> {
    const got = await rules.call('getShadowReport', { shop }, traced(res));
    const go_live = got.goLiveJson ? (JSON.parse(got.goLiveJson) as GoLiveRecordJson) : null;
    return got.rulesetId
      ? {
          status: true,
          message: '',
          shadow: {
            ruleset_id: got.rulesetId,
            ruleset_name: got.rulesetName,
            started_at: got.startedAt,
          },
          ...(JSON.parse(got.figuresJson) as typeof EMPTY),
          go_live,
        }
      : { status: true, message: '', shadow: null, ...EMPTY, go_live };
  }

  const report: RequestHandler = async (_req, res) => {
    res.json(await reportOf(shopOf(res), res));
  };

  const start: RequestHandler = async (req, res) => {
    const body = parseInput(shadowStartBody, req.body);
    const shop = shopOf(res);
    const native = checkoutLocationGroup(await readProfiles(shop, res));
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

  const plan: RequestHandler = async (_req, res) => {
    const found = await currentPlan(shopOf(res), res);
    res.json({ status: true, message: found.why, rates: found.rates } satisfies GoLivePlanReply);
  };

  /**
   * Turns the rates off after Ratesmith is live (never before: checkout
   * would be left without rates); a failure says Ratesmith is live and
   * Shopify's rates still show, and that trying again or Undo is possible.
   */
  async function turnOff(shop: string, res: Response, name: string, off: NativeRateOff[]) {
    try {
      await auth.call(
        'setNativeRatesActive',
        { shop, methodDefinitionIds: off.map((r) => r.id), active: false },
        shopify(res),
      );
    } catch (err) {
      const kind = err instanceof AppError && err.kind !== 'internal' ? err.kind : 'unavailable';
      // Shopify's refusal says why; "Shopify could not be reached" would only repeat the sentence.
      const why = err instanceof AppError && err.kind === 'invalid_data' ? ` (${err.message})` : '';
      throw new AppError(
        kind,
        `“${name}” is live, but Shopify’s own rates could not be disabled${why}: checkout still shows them beside Ratesmith’s. Go live again to retry disabling them, or Undo.`,
        [],
        { cause: err },
      );
    }
  }

  /**
   * Go live: rules records the go-live and enables the shadow ruleset, the
   * shadow stopping (its carts kept for Undo); then, when the merchant
   * confirmed them, Shopify's own rates of Ratesmith's zones are turned off.
   * The confirmed list must be the current one exactly. Without a shadow, a
   * go-live whose turning off failed is retried with the same list.
   */
  const goLive: RequestHandler = async (req, res) => {
    const body = parseInput(goLiveBody, req.body);
    const wanted = body.turn_off_native ?? [];
    const shop = shopOf(res);
    const before = await reportOf(shop, res);
    if (!before.shadow) {
      const record = before.go_live;
      if (!record || !wanted.length || !sameRates(wanted, record.turned_off))
        throw new AppError('invalid_data', NO_SHADOW);
      if (await carrierNotCalled(shop, res)) throw new AppError('conflict', CARRIER_NOT_CALLED);
      await turnOff(shop, res, record.ruleset_name, record.turned_off);
      res.json({
        ...(await reportOf(shop, res)),
        message: `${rates(record.turned_off.length)} disabled: checkout shows Ratesmith’s rates only.`,
      } satisfies ShadowReportReply);
      return;
    }
    let off: NativeRateOff[] = [];
    if (wanted.length) {
      const current = await currentPlan(shop, res);
      if (current.why) throw new AppError('conflict', current.why);
      off = current.rates;
      if (!sameRates(wanted, off)) throw new AppError('conflict', RATES_CHANGED);
    }
    const live = await rules.call(
      'goLive',
      { shop, user: userOf(res), turnOffJson: JSON.stringify(off) },
      traced(res),
    );
    if (off.length) await turnOff(shop, res, live.rulesetName, off);
    const also = off.length ? ` ${rates(off.length)} disabled.` : '';
    res.json({
      ...(await reportOf(shop, res)),
      message: `“${live.rulesetName}” is live: checkout gets Ratesmith’s rates.${also}`,
    } satisfies ShadowReportReply);
  };

  /**
   * Undo: Shopify's rates the go-live turned off come back on first (those
   * still off; one deleted since is named), then rules restores the shadow
   * and the ruleset enabled before.
   */
  const undo: RequestHandler = async (_req, res) => {
    const shop = shopOf(res);
    const { go_live: record } = await reportOf(shop, res);
    if (!record) throw new AppError('invalid_data', NOTHING_TO_UNDO);
    let gone: NativeRateOff[] = [];
    let back = 0;
    if (record.turned_off.length) {
      const states = merchantRateStates(await readProfiles(shop, res));
      gone = record.turned_off.filter((r) => !states.has(r.id));
      const ids = record.turned_off.filter((r) => states.get(r.id) === false).map((r) => r.id);
      if (ids.length) {
        const done = await auth.call(
          'setNativeRatesActive',
          { shop, methodDefinitionIds: ids, active: true },
          shopify(res),
        );
        back = done.changedIds.length;
      }
    }
    const undone = await rules.call('undoGoLive', { shop, user: userOf(res) }, traced(res));
    const lost = gone.length
      ? ` Deleted in Shopify since, so not enabled again: ${names(gone)}.`
      : '';
    const restored = back ? ` ${rates(back)} enabled again.` : '';
    res.json({
      ...(await reportOf(shop, res)),
      message: `Undone: “${undone.rulesetName}” runs in shadow again.${restored}${lost}`,
    } satisfies ShadowReportReply);
  };

  const router = Router();
  router.get('/go-live', plan);
  router.post('/go-live', goLive);
  router.post('/undo-go-live', undo);
  router.get('/', report);
  router.post('/', start);
  router.delete('/', stop);
  return router;
}
