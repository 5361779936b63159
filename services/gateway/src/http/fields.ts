import { asNumber } from '@ratesmith/contracts';
import { z } from 'zod';

/**
 * Form inputs send numbers and booleans as text. These accept both forms and
 * say plainly what is wrong, which zod unions do not ("Invalid input").
 */
function fromText(value: unknown, blank: unknown): unknown {
  if (typeof value !== 'string') return value;
  return value.trim() === '' ? blank : asNumber(value);
}

/** A number, a number typed as text, or blank/null (returned as `blank`). */
export function numberField<B extends number | null>(blank: B) {
  return z.preprocess(
    (v) => (v === null || v === undefined ? blank : fromText(v, blank)),
    blank === null
      ? z.number({ error: 'must be a number' }).finite().nullable()
      : z.number({ error: 'must be a number' }).finite(),
  ) as z.ZodType<number | B>;
}

/** The range of the protobuf int32 fields these travel in: anything wider is refused here, not failed on. */
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

/** A whole number (codes such as an action type), or blank/null (returned as `blank`). */
export function integerField<B extends number | null>(blank: B) {
  const whole = z
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(INT32_MIN, { error: 'must be a whole number' })
    .max(INT32_MAX, { error: 'must be a whole number' });
  return z.preprocess(
    (v) => (v === null || v === undefined ? blank : fromText(v, blank)),
    blank === null ? whole.nullable() : whole,
  ) as z.ZodType<number | B>;
}

export const booleanField = z.preprocess(
  (v) =>
    v === 'true' || v === '1'
      ? true
      : v === 'false' || v === '0' || v === '' || v === null || v === undefined
        ? false
        : v,
  z.boolean({ error: 'must be true or false' }),
);
