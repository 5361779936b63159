import { z } from 'zod';

/** Ids are opaque to the gateway; the rules service answers "not found" for unknown ones. */
export const idParams = z.object({ id: z.string().min(1).max(64) });

export const createRulesetBody = z.object({ name: z.string().max(1000).default('') });

export const rulesQuery = z.object({
  globalRuleId: z.string().min(1, 'globalRuleId is required').max(64),
});

/** The rules service checks the name itself (rulesetNameProblem); this bounds the body only. */
export const renameRulesetBody = z.object({ name: z.string().max(1000).default('') });

/** A version number is a positive integer; the path carries it as digits. */
export const versionParams = idParams.extend({
  number: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, 'number must be a version number')
    .transform(Number),
});
