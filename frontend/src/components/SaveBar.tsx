import { SaveBar as AdminSaveBar } from '@shopify/app-bridge-react';
import { Button, InlineStack, Text } from '@shopify/polaris';
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
 * bar at the top of the page with the same two buttons.
 */
export function SaveBar({
  dirty,
  saving,
  saveDisabled = false,
  onSave,
  onDiscard,
  subject,
}: SaveBarProps) {
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
        dirty && (
          <div className="rs-save-bar" role="region" aria-label="Unsaved changes">
            <InlineStack align="space-between" blockAlign="center" gap="200">
              <Text as="p" variant="headingSm">
                Unsaved changes
              </Text>
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
        )
      )}
      <UnsavedChangesPrompt dirty={dirty && !saving} subject={subject} />
    </>
  );
}
