import { BlockStack, Card, Link, Text } from '@shopify/polaris';
import type { ActivityReply, VersionJson } from '../api';
import { ListState } from '../components/ListState';
import { useGet } from '../components/useLoader';
import { VersionText } from './VersionText';
import { eventLabel } from './words';

/** What the subject's name is the name of; settings name themselves. */
const SUBJECTS: Record<VersionJson['kind'], string> = {
  ruleset: 'Ruleset ',
  product_rule: 'Product rule ',
  settings: '',
};

/** Where a change is edited, so the merchant can open it from the Dashboard. */
function linkOf(version: VersionJson): string {
  if (version.kind === 'ruleset') return `/edit-global-rule/${version.subject_id}`;
  if (version.kind === 'product_rule') return `/edit-product-rule/${version.subject_id}`;
  return '/settings';
}

/** The Dashboard's latest changes to what checkout uses, newest first. */
export function ActivityCard() {
  const loaded = useGet('/api/activity', { pick: (reply: ActivityReply) => reply.activity });
  const activity = loaded.data ?? [];
  return (
    <BlockStack gap="200">
      <Text as="h2" variant="headingMd">
        Recent changes at checkout
      </Text>
      <ListState
        label="Loading recent changes"
        loaded={loaded}
        emptyHeading="No changes yet"
        emptyText="Saving the enabled ruleset, enabling or disabling a ruleset, and saving product rules or settings show up here."
      >
        <Card>
          <ul className="rs-version-list" aria-label="Recent changes at checkout, newest first">
            {activity.map((version) => (
              <li key={`${version.kind}-${version.subject_id}-${version.number}`}>
                <VersionText version={version}>
                  <Text as="p" fontWeight="medium">
                    {SUBJECTS[version.kind]}
                    <Link url={linkOf(version)}>{version.subject_name}</Link>:{' '}
                    {eventLabel(version.event).toLowerCase()} (version {version.number})
                  </Text>
                </VersionText>
              </li>
            ))}
          </ul>
        </Card>
      </ListState>
    </BlockStack>
  );
}
