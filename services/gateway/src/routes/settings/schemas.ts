import { z } from 'zod';

const text = z.string().max(1000).default('');

/** Checkboxes and selects may send strings; the rules service checks the values. */
export const saveSettingsBody = z.object({
  carrier_name: text,
  carrier_description: text,
  bump_shipping_enabled: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')])
    .default(false),
  bump_shipping_name: text,
  bump_shipping_description: text,
  bump_shipping_action: z
    .union([
      z.number().int(),
      z
        .string()
        .trim()
        .regex(/^\d*$/, 'must be 1, 2 or empty')
        .transform((v) => (v === '' ? null : Number(v))),
      z.null(),
    ])
    .default(null),
  bump_shipping_cost: z
    .union([
      z.number().finite(),
      z
        .string()
        .trim()
        .regex(/^(-?\d+(\.\d+)?)?$/, 'must be a number')
        .transform((v) => (v === '' ? 0 : Number(v))),
    ])
    .default(0),
});
