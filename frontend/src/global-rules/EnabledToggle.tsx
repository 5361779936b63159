import { Icon, InlineStack, Spinner, Text } from '@shopify/polaris';
import { CheckCircleIcon, XCircleIcon } from '@shopify/polaris-icons';

/** The ruleset's tick (enabled) or cross (disabled); selecting a cross enables that ruleset. */
export function EnabledToggle({
  name,
  active,
  busy,
  onToggle,
}: {
  name: string;
  active: boolean;
  busy: boolean;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      className={`rs-toggle ${active ? 'rs-toggle--on' : 'rs-toggle--off'}`}
      // The name holds the word the button shows (WCAG 2.5.3, label in name).
      aria-label={active ? `${name} is enabled` : `Disabled: enable ${name}`}
      aria-pressed={active}
      aria-busy={busy}
      onClick={onToggle}
      disabled={busy}
    >
      <InlineStack gap="100" blockAlign="center" wrap={false}>
        {busy ? (
          <Spinner size="small" />
        ) : (
          <Icon
            source={active ? CheckCircleIcon : XCircleIcon}
            tone={active ? 'success' : 'subdued'}
          />
        )}
        <Text as="span" tone={active ? 'success' : 'subdued'} fontWeight="medium">
          {active ? 'Enabled' : 'Disabled'}
        </Text>
      </InlineStack>
    </button>
  );
}
