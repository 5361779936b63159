/**
 * A key for one merchant action that creates something (a ruleset, a copy), sent
 * as its Idempotency-Key and sent again when the merchant tries the same action
 * again after an error: if the first try landed after its answer was lost, the
 * gateway answers what it made instead of making a second. 32 hex digits.
 */
export function newRequestKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
