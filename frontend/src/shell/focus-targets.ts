import { focusWhenReady, PLACED_VALUE } from './focus';

/** The pages' side of focus.ts: what gets focus after an action on a list or in an editor. */

/**
 * The navigation state that opens a rule editor with focus on its first rule's
 * name (a ruleset just made from a template: what the merchant edits next).
 */
export const FOCUS_FIRST_RULE = { focus: 'first-rule' } as const;

/**
 * True when `field` is leaving focus that focusElement put there, its value
 * unchanged: the merchant did not leave it, the app had only placed them
 * there (validation on blur waits for their own visit; FilterCard).
 */
export function leftUnchanged(field: Element): boolean {
  const placed = field.getAttribute(PLACED_VALUE);
  field.removeAttribute(PLACED_VALUE);
  return placed !== null && 'value' in field && placed === String(field.value);
}

const CONTROL = 'a[href], button, input, select, textarea';

/**
 * The first control inside `element` (a table row's first button), if any;
 * one disabled while its call runs cannot take focus yet (focusWhenReady waits).
 */
export function firstControl(element: Element | null | undefined): HTMLElement | null {
  return element?.querySelector<HTMLElement>(CONTROL) ?? null;
}

/**
 * Remembers what had focus when a dialog opened (`remember`), to give focus
 * back to it when the dialog closes without acting (`restore`): Polaris'
 * Modal without an activator leaves focus on nothing.
 */
export function dialogOpener() {
  let opener: HTMLElement | null = null;
  return {
    remember() {
      const active = document.activeElement;
      opener = active instanceof HTMLElement && active !== document.body ? active : null;
    },
    restore() {
      const element = opener;
      return focusWhenReady(() => (element?.isConnected ? element : null));
    },
  };
}
