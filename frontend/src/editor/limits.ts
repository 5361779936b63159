/**
 * The server's own limits and value checks (one source: proto/src/limits.ts), so the
 * editor says what is wrong before saving. The server stays the authority and answers
 * with the same messages.
 */
export {
  asNumber,
  isAmount,
  isBlank,
  isCount,
  LIMITS,
  valueHint,
  type ValueKind,
} from '../../../proto/src/limits';
