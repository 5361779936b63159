/** The answer when a compare-and-set kept losing to other changes of the same thing. */
export const CONCURRENT_CHANGE =
  'This was changed at the same time elsewhere. Please reload and try again.';
