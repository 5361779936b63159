/**
 * The delivery-profile model and what checkout does with it: one definition
 * for the double's checkout and the rate engine's shadow mode
 * (proto/src/native-rates/checkout.ts).
 */
export * from '@ratesmith/contracts/native-checkout';
