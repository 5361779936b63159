import {
  MAX_RATES_OFF,
  methodDefinitionId,
  type GoLiveBody,
  type ShadowStart,
} from '@ratesmith/contracts';
import { z } from 'zod';
import type { SchemaAccepts } from '../../http/validate';

/** POST /api/shadow: the ruleset to run in shadow. Unknown keys are dropped. */
export const shadowStartBody = z.object({
  ruleset_id: z.string().min(1, 'ruleset_id is required').max(64),
});
export type ShadowStartAccepts = SchemaAccepts<typeof shadowStartBody, ShadowStart>;

/** POST /api/shadow/go-live: the Shopify rates to turn off, as the merchant confirmed them. */
export const goLiveBody = z.object({
  turn_off_native: z.array(methodDefinitionId).max(MAX_RATES_OFF).optional(),
});
export type GoLiveAccepts = SchemaAccepts<typeof goLiveBody, GoLiveBody>;
