/**
 * Where keyboard focus goes when the page changes under it (issue 36, point 9):
 * a page reached by navigation gets its heading focused, a created item its
 * first control, and a control that disappears (a deleted row, a dialog that
 * closed) hands focus to something near it instead of to the top of the page.
 * What the shell needs is here, in the first load; what the pages need is in
 * focus-targets.ts, loaded with them.
 */

/** The app's main landmark, the skip link's target. */
export const MAIN_ID = 'rs-main';

/** An open modal dialog: Polaris traps focus in it until it has gone, even while it fades out. */
const OPEN_DIALOG = '[role="dialog"][aria-modal="true"]';

/** On a field focusElement focused: its value then (focus-targets.ts, leftUnchanged). */
export const PLACED_VALUE = 'data-placed-value';
const FIELD = 'input, select, textarea';

/** The page's title (Polaris Page renders it as the one h1) inside `root`. */
export function pageHeading(root: ParentNode = document): HTMLElement | null {
  return root.querySelector<HTMLElement>(`#${MAIN_ID} h1`) ?? root.querySelector('h1');
}

/**
 * Focuses `element`, making it focusable from script only when it is not
 * focusable already (a heading: tabindex -1 keeps it out of the Tab order).
 * True when it took focus: a hidden element cannot.
 */
export function focusElement(element: HTMLElement): boolean {
  if (!element.matches('a[href], button, input, select, textarea, [tabindex]'))
    element.setAttribute('tabindex', '-1');
  element.focus();
  if (document.activeElement !== element) return false;
  if (element.matches(FIELD) && 'value' in element)
    element.setAttribute(PLACED_VALUE, String(element.value));
  return true;
}

export interface FocusWhenReadyOptions {
  /** Give up after this long (a page that never shows its element). */
  timeoutMs?: number;
  /** Stop without focusing once this is true (the merchant or the page moved focus first). */
  unless?: () => boolean;
}

/**
 * Focuses what `find` returns as soon as it is in the document, can take
 * focus (not hidden: NoticesFirst keeps a page's body hidden a moment) and no
 * modal dialog is open; tries again on every DOM change until then. Returns
 * a function that stops waiting.
 */
export function focusWhenReady(
  find: () => HTMLElement | null | undefined,
  { timeoutMs = 5000, unless }: FocusWhenReadyOptions = {},
): () => void {
  let done = false;
  let observer: MutationObserver | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    done = true;
    observer?.disconnect();
    if (timer !== undefined) clearTimeout(timer);
  };
  const attempt = () => {
    // A test's document can be gone before the observer's last call.
    if (done || typeof document === 'undefined') return;
    if (unless?.()) return stop();
    if (document.querySelector(OPEN_DIALOG)) return;
    const element = find();
    if (element?.isConnected && focusElement(element)) stop();
  };
  attempt();
  if (!done) {
    observer = new MutationObserver(attempt);
    observer.observe(document.body, { childList: true, subtree: true, attributes: true });
    timer = setTimeout(stop, timeoutMs);
  }
  return stop;
}

/** Focus is on something of the page's own (not on nothing, not in the navigation). */
export function focusIsInMain(): boolean {
  const active = document.activeElement;
  return active !== null && active !== document.body && Boolean(active.closest(`#${MAIN_ID}`));
}
