import {
  EMAIL_MAX_LENGTH,
  INSTALL_MESSAGES,
  isEmailAddress,
  SHOP_DOMAIN,
  SHOP_DOMAIN_MAX_LENGTH,
} from '@ratesmith/contracts';
import { AppError } from '@ratesmith/kit';
import { z } from 'zod';

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : (v ?? ''));

/** Trimmed; lowercase only (Shopify's permanent domains are), so `Shop.myshopify.com` is refused. */
export const shopField = z.preprocess(
  trimmed,
  z
    .string({ error: INSTALL_MESSAGES.shopInvalid })
    .min(1, INSTALL_MESSAGES.shopRequired)
    .max(SHOP_DOMAIN_MAX_LENGTH, INSTALL_MESSAGES.shopInvalid)
    .regex(SHOP_DOMAIN, INSTALL_MESSAGES.shopInvalid),
);

const emailField = z.preprocess(
  trimmed,
  z
    .string({ error: INSTALL_MESSAGES.emailInvalid })
    .min(1, INSTALL_MESSAGES.emailRequired)
    .max(EMAIL_MAX_LENGTH, INSTALL_MESSAGES.emailInvalid)
    .refine(isEmailAddress, INSTALL_MESSAGES.emailInvalid),
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
      .string({ error: INSTALL_MESSAGES.reinstallFailed })
      .regex(/^[0-9a-f]{64}$/i, INSTALL_MESSAGES.reinstallFailed),
    host: z
      .string({ error: INSTALL_MESSAGES.reinstallFailed })
      .max(500, INSTALL_MESSAGES.reinstallFailed),
    timestamp: z
      .union([z.string(), z.number()], { error: INSTALL_MESSAGES.reinstallFailed })
      .transform(String)
      .refine((v) => /^\d{1,12}$/.test(v), INSTALL_MESSAGES.reinstallFailed),
  })
  .catchall(z.union([z.string().max(500), z.number()]).transform(String))
  .refine((body) => Object.keys(body).length <= 16, INSTALL_MESSAGES.reinstallFailed);

/** Parses with the schema; the first problem's message is the answer, as the install page shows one. */
export function parseInstallInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw new AppError(
    'invalid_data',
    result.error.issues[0]?.message ?? INSTALL_MESSAGES.reinstallFailed,
  );
}
