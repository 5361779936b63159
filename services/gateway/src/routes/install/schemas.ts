import { EMAIL_MAX_LENGTH, isEmailAddress } from '@ratesmith/contracts';
import { AppError, SHOP_DOMAIN } from '@ratesmith/kit';
import { z } from 'zod';

/** The install page's messages (spec section 5). */
export const MESSAGES = {
  shopRequired: 'Please provide your Shopify subdomain.',
  shopInvalid: 'Please enter a valid Shopify subdomain (e.g., your-store.myshopify.com)',
  emailRequired: 'Please provide a valid email.',
  emailInvalid: 'Please enter a valid email address.',
  reinstallFailed: 'Reinstallation failed',
};

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : (v ?? ''));

/** Trimmed; lowercase only (Shopify's permanent domains are), so `Shop.myshopify.com` is refused. */
export const shopField = z.preprocess(
  trimmed,
  z
    .string({ error: MESSAGES.shopInvalid })
    .min(1, MESSAGES.shopRequired)
    .max(80, MESSAGES.shopInvalid)
    .regex(SHOP_DOMAIN, MESSAGES.shopInvalid),
);

const emailField = z.preprocess(
  trimmed,
  z
    .string({ error: MESSAGES.emailInvalid })
    .min(1, MESSAGES.emailRequired)
    .max(EMAIL_MAX_LENGTH, MESSAGES.emailInvalid)
    .refine(isEmailAddress, MESSAGES.emailInvalid),
);

export const installBody = z.object({ shop: shopField, email: emailField });

export const verifyQuery = z.object({ shop: shopField });

/**
 * The admin's signed link, passed on by the install page. Parameters beyond
 * the four (Shopify may sign more, e.g. `embedded`, `locale`) are kept,
 * bounded, because the HMAC covers them.
 */
export const reinstallBody = z
  .object({
    shop: shopField,
    hmac: z
      .string({ error: MESSAGES.reinstallFailed })
      .regex(/^[0-9a-f]{64}$/i, MESSAGES.reinstallFailed),
    host: z.string({ error: MESSAGES.reinstallFailed }).max(500, MESSAGES.reinstallFailed),
    timestamp: z
      .union([z.string(), z.number()], { error: MESSAGES.reinstallFailed })
      .transform(String)
      .refine((v) => /^\d{1,12}$/.test(v), MESSAGES.reinstallFailed),
  })
  .catchall(z.union([z.string().max(500), z.number()]).transform(String))
  .refine((body) => Object.keys(body).length <= 16, MESSAGES.reinstallFailed);

/** Parses with the schema; the first problem's message is the answer, as the install page shows one. */
export function parseInstallInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw new AppError('invalid_data', result.error.issues[0]?.message ?? MESSAGES.reinstallFailed);
}
