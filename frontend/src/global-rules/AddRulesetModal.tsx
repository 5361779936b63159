import { Form, FormLayout, Modal, TextField } from '@shopify/polaris';
import { useState } from 'react';

export const RULESET_NAME_MAX = 200;

export interface AddRulesetModalProps {
  open: boolean;
  onClose: () => void;
  /** Resolves when created (the modal then closes); rejects to keep it open. */
  onCreate: (name: string) => Promise<void>;
}

export function AddRulesetModal({ open, onClose, onCreate }: AddRulesetModalProps) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);

  const close = () => {
    setName('');
    setError(undefined);
    onClose();
  };
  const submit = async () => {
    const trimmed = name.trim();
    if (!trimmed) {
      setError('Please enter a rule name');
      return;
    }
    setSaving(true);
    try {
      await onCreate(trimmed);
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
      title="Add Ruleset"
      primaryAction={{ content: 'Add', onAction: () => void submit(), loading: saving }}
      secondaryActions={[{ content: 'Cancel', onAction: close, disabled: saving }]}
    >
      <Modal.Section>
        <Form onSubmit={() => void submit()}>
          <FormLayout>
            <TextField
              label="Rule name"
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
          </FormLayout>
        </Form>
      </Modal.Section>
    </Modal>
  );
}
