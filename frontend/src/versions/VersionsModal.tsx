import { Banner, BlockStack, Button, InlineStack, Modal, Text } from '@shopify/polaris';
import { useEffect, useState } from 'react';
import {
  messageOf,
  useApi,
  type VersionJson,
  type VersionReply,
  type VersionRestoredReply,
  type VersionsList,
} from '../api';
import { ListState } from '../components/ListState';
import { useGet } from '../components/useLoader';
import { useToast } from '../toast';
import { VersionChanges } from './VersionChanges';
import { VersionText } from './VersionText';
import { eventLabel, versionByline } from './words';

export interface VersionsModalProps {
  /** Whose versions: `/api/global-rules/{id}` or `/api/product-rules/{id}`. */
  subjectPath: string;
  /** What is restored, in the confirmation's words ("ruleset", "product rule"). */
  noun: string;
  open: boolean;
  onClose(): void;
  /** After a restore: the editor loads the restored filters. */
  onRestored(): void;
  /** The editor has unsaved edits (a restore replaces them). */
  dirty: boolean;
}

type Step =
  | { kind: 'list' }
  | { kind: 'changes'; version: VersionJson }
  | { kind: 'restore'; version: VersionJson };

/** A ruleset's or product rule's kept versions: each one's changes, and restore (itself a new version). */
export function VersionsModal({
  subjectPath,
  noun,
  open,
  onClose,
  onRestored,
  dirty,
}: VersionsModalProps) {
  const api = useApi();
  const toast = useToast();
  const [step, setStep] = useState<Step>({ kind: 'list' });
  const [restoring, setRestoring] = useState(false);
  const base = `${subjectPath}/versions`;

  useEffect(() => {
    if (open) setStep({ kind: 'list' });
  }, [open]);

  const close = () => {
    if (!restoring) onClose();
  };

  const restore = async (version: VersionJson) => {
    setRestoring(true);
    try {
      const reply = await api.post<VersionRestoredReply>(`${base}/${version.number}/restore`);
      toast.success(reply.message);
      onRestored();
      onClose();
    } catch (err) {
      toast.error(messageOf(err, 'Failed to restore the version'));
    } finally {
      setRestoring(false);
    }
  };

  const title =
    step.kind === 'list'
      ? 'Versions'
      : step.kind === 'changes'
        ? `Version ${step.version.number}: changes`
        : `Restore version ${step.version.number}?`;

  return (
    <Modal
      open={open}
      onClose={close}
      title={title}
      size={step.kind === 'restore' ? undefined : 'large'}
      primaryAction={
        step.kind === 'restore'
          ? {
              content: 'Restore',
              destructive: dirty,
              loading: restoring,
              onAction: () => void restore(step.version),
            }
          : undefined
      }
      secondaryActions={[
        step.kind === 'list'
          ? { content: 'Close', onAction: close }
          : {
              content: 'Back to versions',
              onAction: () => setStep({ kind: 'list' }),
              disabled: restoring,
            },
      ]}
    >
      <Modal.Section>
        {open && step.kind === 'list' && (
          <VersionList
            base={base}
            onView={(version) => setStep({ kind: 'changes', version })}
            onRestore={(version) => setStep({ kind: 'restore', version })}
          />
        )}
        {open && step.kind === 'changes' && (
          <VersionDetail
            url={`${base}/${step.version.number}`}
            onRestore={() => setStep({ kind: 'restore', version: step.version })}
          />
        )}
        {step.kind === 'restore' && (
          <BlockStack gap="300">
            <Text as="p">
              The {noun} gets the rules of version {step.version.number} (
              {versionByline(step.version)}) again, saved as a new version. If the {noun} is
              enabled, checkout uses them at once.
            </Text>
            {dirty && (
              <Banner tone="warning">
                <p>Your unsaved edits on this page will be replaced.</p>
              </Banner>
            )}
          </BlockStack>
        )}
      </Modal.Section>
    </Modal>
  );
}

function VersionList({
  base,
  onView,
  onRestore,
}: {
  base: string;
  onView(version: VersionJson): void;
  onRestore(version: VersionJson): void;
}) {
  const loaded = useGet(base, { pick: (reply: VersionsList) => reply.versions });
  const versions = loaded.data ?? [];
  return (
    <ListState
      label="Loading versions"
      loaded={loaded}
      emptyHeading="No versions yet"
      emptyText="Each Save All keeps a version here, so you can see what changed and go back."
    >
      <ul className="rs-version-list" aria-label="Versions, newest first">
        {versions.map((version, index) => (
          <li key={version.number}>
            <InlineStack align="space-between" blockAlign="center" gap="300" wrap={false}>
              <VersionText version={version}>
                <Text as="h3" variant="headingSm">
                  Version {version.number} · {eventLabel(version.event)}
                  {index === 0 ? ' (current)' : ''}
                </Text>
              </VersionText>
              <InlineStack gap="200" wrap={false}>
                <Button
                  onClick={() => onView(version)}
                  accessibilityLabel={`View changes of version ${version.number}`}
                >
                  View changes
                </Button>
                {index > 0 && (
                  <Button
                    onClick={() => onRestore(version)}
                    accessibilityLabel={`Restore version ${version.number}`}
                  >
                    Restore
                  </Button>
                )}
              </InlineStack>
            </InlineStack>
          </li>
        ))}
      </ul>
    </ListState>
  );
}

function VersionDetail({ url, onRestore }: { url: string; onRestore(): void }) {
  const loaded = useGet<VersionReply>(url);
  const reply = loaded.data;
  return (
    <ListState
      label="Loading changes"
      loaded={loaded}
      emptyHeading="This version is no longer kept"
    >
      {reply && (
        <BlockStack gap="400">
          <Text as="p" tone="subdued">
            {eventLabel(reply.version.event)} {versionByline(reply.version)}:{' '}
            {reply.version.summary}
          </Text>
          <VersionChanges changes={reply.changes} comparedWith={reply.previous_number} />
          <InlineStack>
            <Button onClick={onRestore}>Restore this version</Button>
          </InlineStack>
        </BlockStack>
      )}
    </ListState>
  );
}
