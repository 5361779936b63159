/**
 * The wait for an auth call that makes several Shopify calls before it answers
 * (a token exchange with the carrier set-up after it, the carrier check, the
 * shipping-zone reads and changes): the auth service bounds its own Shopify work
 * at 12 s (`services/auth/src/install/shipping-zones.ts`) and answers just
 * before this. The gateway's default wait (2 s) is for calls that only read or
 * write the database.
 */
export const SHOPIFY_BACKED_TIMEOUT_MS = 14_000;
