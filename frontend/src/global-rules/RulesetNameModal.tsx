import { Form, FormLayout, Modal, TextField } from '@shopify/polaris';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { LIMITS, rulesetNameProblem } from '@ratesmith/contracts/filters';

export const RULESET_NAME_MAX = LIMITS.rulesetName;

export interface RulesetNameModalProps {
  open: boolean;
  title: string;
  /** The primary button's words ("Add", "Rename"). */
  action: string;
  /** The name the field starts with each time the modal opens. */
  initialName?: string;
  /** Replaces the name while the merchant has not typed one of their own (a template's name). */
  suggestedName?: string;
  /** More of the form, below the name. */
  children?: ReactNode;
  onClose: () => void;
  /** Called with the trimmed, valid name; resolves when done (the modal then closes), rejects to keep it open. */
  onSubmit: (name: string) => Promise<void>;
}

/**
 * A ruleset's name, asked for by Add Ruleset and by Rename alike: the same
 * check as the rules service (rulesetNameProblem), so the same messages.
 */
export function RulesetNameModal({
  open,
  title,
  action,
  initialName = '',
  suggestedName,
  children,
  onClose,
  onSubmit,
}: RulesetNameModalProps) {
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const lastSuggestion = useRef(initialName);

  useEffect(() => {
    if (suggestedName === undefined) return;
    setName((current) =>
      current.trim() === '' || current === lastSuggestion.current ? suggestedName : current,
    );
    lastSuggestion.current = suggestedName;
  }, [suggestedName]);

  useEffect(() => {
    if (open) {
      setName(initialName);
      setError(undefined);
    }
  }, [open, initialName]);

  const close = () => {
    setName('');
    setError(undefined);
    onClose();
  };
  const submit = async () => {
    const problem = rulesetNameProblem(name);
    if (problem) {
      setError(problem);
      return;
    }
    setSaving(true);
    try {
      await onSubmit(name.trim());
      setName('');
      setError(undefined);
    } catch {
      // the page shows the failure as a toast; the dialog stays open to retry
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      onClose={close}
      title={title}
      primaryAction={{ content: action, onAction: () => void submit(), loading: saving }}
      secondaryActions={[{ content: 'Cancel', onAction: close, disabled: saving }]}
    >
      <Modal.Section>
        <Form onSubmit={() => void submit()}>
          <FormLayout>
            <TextField
              label="Ruleset name"
              value={name}
              onChange={(value) => {
                setName(value);
                setError(undefined);
              }}
              error={error}
              maxLength={RULESET_NAME_MAX}
              showCharacterCount
              autoComplete="off"
              autoFocus
            />
            {children}
          </FormLayout>
        </Form>
      </Modal.Section>
    </Modal>
  );
}

/** Rename, from the Global Rules list and from the ruleset's editor alike. */
export function RenameRulesetModal(
  props: Pick<RulesetNameModalProps, 'open' | 'initialName' | 'onClose' | 'onSubmit'>,
) {
  return <RulesetNameModal {...props} title="Rename ruleset" action="Rename" />;
}
