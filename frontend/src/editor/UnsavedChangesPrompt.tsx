import { Modal, Text } from '@shopify/polaris';
import { useEffect } from 'react';
import { useBlocker } from 'react-router-dom';

/**
 * Leaving with unsaved changes asks first: a dialog for navigation inside the
 * app (react-router's blocker) and the browser's own prompt for reloads and
 * closing the tab (beforeunload).
 */
export function UnsavedChangesPrompt({
  dirty,
  subject = 'these rules',
}: {
  dirty: boolean;
  /** What is not saved: "these rules", "these settings". */
  subject?: string;
}) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return (
    <Modal
      open={blocker.state === 'blocked'}
      onClose={() => blocker.reset?.()}
      title="Leave without saving?"
      primaryAction={{
        content: 'Leave page',
        destructive: true,
        onAction: () => blocker.proceed?.(),
      }}
      secondaryActions={[{ content: 'Stay', onAction: () => blocker.reset?.() }]}
    >
      <Modal.Section>
        <Text as="p">Your changes to {subject} are not saved. If you leave, they are lost.</Text>
      </Modal.Section>
    </Modal>
  );
}
