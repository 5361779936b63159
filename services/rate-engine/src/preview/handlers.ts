import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  cartLineFromWire,
  DEFAULT_SETTINGS,
  filterToJson,
  validateFilters,
  type rateEngineV1,
  type rulesV1,
  type Snapshot,
  type FilterScope,
  type SnapshotFilter,
} from '@ratesmith/contracts';
import { AppError, type HandlersOf } from '@ratesmith/kit';
import {
  compileSnapshot,
  linesOf,
  parseInstant,
  placeOf,
  RateRequestError,
  SnapshotCompileError,
  type CompiledSnapshot,
  type Quote,
  type QuoteTrace,
  type Quoter,
  type RateRequest,
} from '../engine';
import type { SnapshotSource } from '../snapshots/store';

type PreviewRequest = rateEngineV1.PreviewRatesRequest;

/** The preview's cart as a rate request, checked by the same code as checkout's. */
export function previewRequestOf(req: PreviewRequest): RateRequest {
  const place = placeOf({
    destination: {
      country: req.destinationCountry,
      province: req.destinationProvince,
      postal_code: req.destinationPostalCode,
    },
    currency: req.currency,
  });
  let receivedAt: number | undefined;
  if (req.orderedAt !== undefined) {
    receivedAt = parseInstant(req.orderedAt);
    if (receivedAt === undefined)
      throw new RateRequestError(
        'The order time must be an ISO 8601 instant with Z or an offset, such as 2026-11-27T15:30:00-05:00',
      );
  }
  return { ...place, items: linesOf(req.lines, cartLineFromWire), receivedAt };
}

/**
 * The editor's unsaved filters in canonical form, checked by the same
 * validation as a save (so an incomplete draft gets the messages the editor
 * shows), then compiled for this quote only.
 */
export function draftFilters(
  filters: rulesV1.Filter[],
  scope: FilterScope = 'ruleset',
): SnapshotFilter[] {
  const drafts = filters.map(filterToJson);
  // Problems name the draft: these filters are not checkout's (yet).
  const checked = validateFilters(drafts, scope, { owner: DRAFT_OWNER });
  if (checked.errors.length) throw draftError(checked.errors);
  // The trace names each filter by the id the editor sent (a save would replace a blank one).
  return checked.filters.map((filter, i) => ({ ...filter, id: drafts[i]!.id }));
}

/** How preview problems name the unsaved filters. */
export const DRAFT_OWNER = 'The draft';

function draftError(problems: string[]): AppError {
  return new AppError('invalid_data', 'The draft rules cannot be previewed yet.', problems);
}

function emptySnapshot(shop: string): Snapshot {
  return {
    shop,
    version: 0,
    rateKey: null,
    settings: DEFAULT_SETTINGS,
    globalRuleset: null,
    productRules: [],
    products: {},
  };
}

function toProto(result: Quote, version: number) {
  return {
    rates: result.rates.map((rate) => ({
      serviceName: rate.service_name,
      serviceCode: rate.service_code,
      totalPrice: rate.total_price,
      description: rate.description,
      currency: rate.currency,
      minDeliveryDate: rate.min_delivery_date,
      maxDeliveryDate: rate.max_delivery_date,
    })),
    snapshotVersion: BigInt(version),
    trace: traceProto(result.trace!),
  };
}

/** A quote's trace as the rate engine's Trace message (the preview's and a recent checkout's). */
export function traceProto(trace: QuoteTrace): MessageInitShape<typeof rateEngineV1.TraceSchema> {
  return {
    steps: trace.steps.map((step) => ({
      scope: step.scope,
      productRuleId: step.productRuleId ?? '',
      productId: step.productId ?? '',
      filterId: step.filterId,
      filterName: step.filterName,
      matched: step.matched,
      actionType: step.actionType,
      feeBefore: BigInt(step.feeBefore),
      feeAfter: BigInt(step.feeAfter),
      stopped: step.stopped,
      cartWeight: step.cartWeight === undefined ? undefined : BigInt(step.cartWeight),
      region: step.region,
      postalCode: step.postalCode,
      scopeWeight: step.scopeWeight === undefined ? undefined : BigInt(step.scopeWeight),
      weightSteps: step.weightSteps === undefined ? undefined : BigInt(step.weightSteps),
    })),
    freeItems: trace.freeItems
      ? {
          totalUnits: BigInt(trace.freeItems.totalUnits),
          freeUnits: BigInt(trace.freeItems.freeUnits),
          feeBefore: BigInt(trace.freeItems.feeBefore),
          feeAfter: BigInt(trace.freeItems.feeAfter),
        }
      : undefined,
    matchedAny: trace.matchedAny,
    blocked: trace.blocked,
    fee: BigInt(trace.fee),
  };
}

/**
 * The admin's rate preview over NATS: the same parse, compile and quote as
 * the carrier callback, against the shop's current snapshot, or against the
 * draft filters in place of the active ruleset's (read fresh from the bucket,
 * compiled for this quote only, never cached).
 */
export function createPreviewHandlers(deps: {
  /** The shop's current snapshot, compiled (a preview without a draft quotes it). */
  compiled: (shop: string) => Promise<CompiledSnapshot | undefined>;
  /** Reads the shop's snapshot from the bucket, fresh (a draft replaces part of it). */
  source: SnapshotSource;
  /** The carrier callback's quoter: a previewed shop counts towards the hot tier as before. */
  quoter: Quoter;
}): HandlersOf<typeof rateEngineV1.RateEngineService> {
  return {
    previewRates: async (req) => {
      let request: RateRequest;
      try {
        request = previewRequestOf(req);
      } catch (err) {
        if (err instanceof RateRequestError) throw new AppError('invalid_data', err.message);
        throw err;
      }
      let compiled: CompiledSnapshot | undefined;
      try {
        if (req.draft?.productRuleId) {
          const productRuleId = req.draft.productRuleId;
          const filters = draftFilters(req.draft.filters, 'product');
          const base = (await deps.source(req.shop))?.snapshot ?? emptySnapshot(req.shop);
          if (!base.productRules.some((rule) => rule.id === productRuleId))
            throw new AppError('not_found', 'Product rule not found.');
          // The rule being edited is quoted as if on: the merchant asks what it would do.
          compiled = compileSnapshot(
            {
              ...base,
              productRules: base.productRules.map((rule) =>
                rule.id === productRuleId ? { ...rule, active: true, filters } : rule,
              ),
            },
            { draftProductRuleId: productRuleId },
          );
        } else if (req.draft) {
          const filters = draftFilters(req.draft.filters);
          const base = (await deps.source(req.shop))?.snapshot ?? emptySnapshot(req.shop);
          compiled = compileSnapshot(
            {
              ...base,
              globalRuleset: {
                id: req.draft.globalRuleId || base.globalRuleset?.id || 'draft',
                name: base.globalRuleset?.name ?? 'Draft',
                filters,
              },
            },
            { globalOwner: DRAFT_OWNER },
          );
        } else {
          compiled = await deps.compiled(req.shop);
        }
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (err instanceof SnapshotCompileError) throw draftError(err.problems);
        throw new AppError('unavailable', "The shop's rules cannot be read right now.", [], {
          cause: err,
        });
      }
      try {
        return toProto(
          deps.quoter.quote(compiled ?? compileSnapshot(emptySnapshot(req.shop)), request, true),
          compiled?.version ?? 0,
        );
      } catch (err) {
        // A cart whose total or fee leaves the exact integer range is refused as the callback refuses it.
        if (err instanceof RateRequestError) throw new AppError('invalid_data', err.message);
        throw err;
      }
    },
  };
}
