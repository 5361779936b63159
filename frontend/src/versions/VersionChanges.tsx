import { Badge, BlockStack, Box, Text } from '@shopify/polaris';
import type { FilterChange } from '../api';

const TONES = {
  added: 'success',
  removed: 'critical',
  moved: 'info',
  changed: 'attention',
} as const;

const TYPE_LABELS: Record<FilterChange['type'], string> = {
  added: 'Added',
  removed: 'Removed',
  moved: 'Moved',
  changed: 'Changed',
};

/** What a version changed, filter by filter, with the changed fields and conditions below each. */
export function VersionChanges({
  changes,
  comparedWith,
}: {
  changes: FilterChange[];
  /** The version compared with; null when there is none kept before (compared with no filters). */
  comparedWith: number | null;
}) {
  return (
    <BlockStack gap="300">
      <Text as="p" tone="subdued">
        {comparedWith === null
          ? 'Compared with no rules (no older version is kept).'
          : `Compared with version ${comparedWith}.`}
      </Text>
      {changes.length === 0 ? (
        <Text as="p">No rule changed in this version.</Text>
      ) : (
        <ul className="rs-version-changes" aria-label="Changes">
          {changes.map((change, index) => (
            <li key={`${change.type}-${index}`}>
              <BlockStack gap="100">
                <span>
                  <Badge tone={TONES[change.type]}>{TYPE_LABELS[change.type]}</Badge>{' '}
                  <Text as="span" fontWeight="medium">
                    {change.text}
                  </Text>
                </span>
                {change.details.length > 0 && (
                  <Box paddingInlineStart="400">
                    <ul>
                      {change.details.map((detail) => (
                        <li key={detail}>
                          <Text as="span">{detail}</Text>
                        </li>
                      ))}
                    </ul>
                  </Box>
                )}
              </BlockStack>
            </li>
          ))}
        </ul>
      )}
    </BlockStack>
  );
}
