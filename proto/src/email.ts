/** The longest email address the app accepts (RFC 5321's path limit). */
export const EMAIL_MAX_LENGTH = 254;

const SPACE = /\s/;

/**
 * The install form's email rule: something@something.something, no spaces,
 * one `@`. Written as plain string scans (no backtracking pattern), and the
 * length is checked first, so a hostile input costs one pass at most.
 * Plain TypeScript with no imports: the admin bundles it from source.
 */
export function isEmailAddress(value: string): boolean {
  if (value.length === 0 || value.length > EMAIL_MAX_LENGTH || SPACE.test(value)) return false;
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@')) return false;
  const domain = value.slice(at + 1);
  // A dot with at least one character on each side.
  const dot = domain.indexOf('.', 1);
  return dot !== -1 && dot <= domain.length - 2;
}
