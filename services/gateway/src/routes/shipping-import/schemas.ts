import type { ShippingImportConfirm } from '@ratesmith/contracts';
import { z } from 'zod';
import type { SchemaAccepts } from '../../http/validate';

/** POST /api/shipping-import: the fingerprint of the plan the merchant saw. Unknown keys are dropped. */
export const confirmBody = z.object({
  plan: z.string().regex(/^[0-9a-f]{64}$/, 'must be the plan of GET /api/shipping-import'),
});
export type ConfirmBodyAccepts = SchemaAccepts<typeof confirmBody, ShippingImportConfirm>;
