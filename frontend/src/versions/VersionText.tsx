import { BlockStack, Text } from '@shopify/polaris';
import type { ReactNode } from 'react';
import type { VersionJson } from '../api';
import { versionByline } from './words';

/** A version as the lists show it: the caller's title, then when and by whom, then what changed. */
export function VersionText({ version, children }: { version: VersionJson; children: ReactNode }) {
  return (
    <BlockStack gap="100">
      {children}
      <Text as="p" tone="subdued">
        {versionByline(version)}
      </Text>
      <Text as="p">{version.summary}</Text>
    </BlockStack>
  );
}
