/**
 * JSON nested deeper than this is refused before JSON.parse or any recursive
 * code sees it, so a hostile body cannot exhaust the stack or the CPU.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether raw JSON bytes nest arrays and objects deeper than `limit`: one
 * pass over the bytes, brackets inside strings ignored. Malformed JSON is
 * left to the parser. (Used by every JSON body read from outside: the
 * gateway's, and the rate engine's unsigned carrier callbacks.)
 */
export function jsonNestingExceeds(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      // [ {
      if (++depth > limit) return true;
    } else if (b === 0x5d || b === 0x7d) depth--; // ] }
  }
  return false;
}

/**
 * Whether raw JSON bytes hold a string with the NUL character (the escape
 * `\u0000`; a raw NUL byte is not JSON at all). No text a merchant types has
 * one, and databases differ on it (PostgreSQL's JSON refuses it, MongoDB keeps
 * it), so it is refused at the edge, where the answer can say why.
 */
export function jsonHasNul(bytes: Uint8Array): boolean {
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (!inString) {
      if (b === QUOTE) inString = true;
    } else if (b === QUOTE) inString = false;
    else if (b === BACKSLASH) {
      // \u0000, in any case of the u; any other escape is skipped whole (\\ included).
      if (
        (bytes[i + 1] === 0x75 || bytes[i + 1] === 0x55) &&
        bytes[i + 2] === 0x30 &&
        bytes[i + 3] === 0x30 &&
        bytes[i + 4] === 0x30 &&
        bytes[i + 5] === 0x30
      )
        return true;
      i++;
    }
  }
  return false;
}
