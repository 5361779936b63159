import { SaveBar as AdminSaveBar } from '@shopify/app-bridge-react';
import { Button, InlineStack, Text } from '@shopify/polaris';
import { useEffect, useRef } from 'react';
import { UnsavedChangesPrompt } from '../editor/UnsavedChangesPrompt';
import { isAppBridgeEnabled } from '../shell/environment';

export interface SaveBarProps {
  /** The form differs from what is saved: the bar shows and leaving asks first. */
  dirty: boolean;
  saving: boolean;
  /** Save cannot be pressed (what is wrong is shown, as the rule editors' Save All). */
  saveDisabled?: boolean;
  onSave(): void;
  /** Back to what is saved. */
  onDiscard(): void;
  /** What is not saved, for the leave prompt: "these settings", "these rules". */
  subject: string;
}

/**
 * The one save pattern of the admin's forms (Settings, the rule editors):
 * while there are unsaved edits, a bar with Save and Discard, and a prompt
 * before leaving (UnsavedChangesPrompt: navigation inside the app, reload and
 * closing the tab). Inside the Shopify admin the bar is Shopify's contextual
 * save bar (App Bridge's `ui-save-bar`); outside it (demo mode) an in-page
 * bar at the top of the page with the same two buttons. In both, Ctrl+S (⌘S
 * on a Mac) is Save while the bar shows (useSaveShortcut): the admin's bar is
 * outside the app's frame, out of reach of Tab, and the in-page one is far
 * above a rule being edited.
 */
export function SaveBar({
  dirty,
  saving,
  saveDisabled = false,
  onSave,
  onDiscard,
  subject,
}: SaveBarProps) {
  useSaveShortcut(dirty, () => {
    if (!saving && !saveDisabled) onSave();
  });
  return (
    <>
      {isAppBridgeEnabled() ? (
        <AdminSaveBar id="ratesmith-save-bar" open={dirty}>
          <button
            variant="primary"
            onClick={onSave}
            loading={saving ? '' : undefined}
            disabled={saveDisabled}
          >
            Save
          </button>
          <button onClick={onDiscard} disabled={saving}>
            Discard
          </button>
        </AdminSaveBar>
      ) : (
        // Always in the page, hidden while nothing is unsaved: a bar that came and went
        // would make the content after it the first child and back, and Polaris' styles
        // that depend on a first child have every button of the page restyled each time
        // (every key of an edit that returns to what is saved, across 100 rules).
        <div className="rs-save-bar" role="region" aria-label="Unsaved changes" hidden={!dirty}>
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <InlineStack gap="200" blockAlign="baseline">
              <Text as="p" variant="headingSm">
                Unsaved changes
              </Text>
              <Text as="p" tone="subdued">
                {SAVE_SHORTCUT} saves
              </Text>
            </InlineStack>
            <InlineStack gap="200">
              <Button onClick={onDiscard} disabled={saving}>
                Discard
              </Button>
              <Button variant="primary" onClick={onSave} loading={saving} disabled={saveDisabled}>
                Save
              </Button>
            </InlineStack>
          </InlineStack>
        </div>
      )}
      <UnsavedChangesPrompt dirty={dirty && !saving} subject={subject} />
    </>
  );
}

/** The save shortcut as the merchant's keyboard writes it. */
export const SAVE_SHORTCUT =
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘S' : 'Ctrl+S';

/**
 * Ctrl+S or ⌘S calls `save` while `active` (the browser's "Save page" never
 * opens then); otherwise the keys do what the browser does.
 */
export function useSaveShortcut(active: boolean, save: () => void): void {
  const latest = useRef(save);
  latest.current = save;
  useEffect(() => {
    if (!active) return;
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      // The letter S; on a layout without Latin letters (Cyrillic), the key where S is.
      const latin = /^[a-z]$/i.test(event.key);
      if (latin ? event.key.toLowerCase() !== 's' : event.code !== 'KeyS') return;
      event.preventDefault();
      if (!event.repeat) latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active]);
}
