import type { ShadowStart } from '@ratesmith/contracts';
import { z } from 'zod';
import type { SchemaAccepts } from '../../http/validate';

/** POST /api/shadow: the ruleset to run in shadow. Unknown keys are dropped. */
export const shadowStartBody = z.object({
  ruleset_id: z.string().min(1, 'ruleset_id is required').max(64),
});
export type ShadowStartAccepts = SchemaAccepts<typeof shadowStartBody, ShadowStart>;
