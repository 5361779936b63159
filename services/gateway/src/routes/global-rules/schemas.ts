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

/**
 * The Idempotency-Key header of a create (a ruleset or a copy): the admin sends one per
 * merchant action and the same one when it sends that action again, so a create whose
 * first try landed after its answer was lost is not made twice (the rules service keeps
 * the key a day). Absent: every call creates.
 */
export const createHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8 to 64 letters, digits, - or _')
    .default(''),
});
