import { BlockStack, Box, Button, Popover, TextField } from '@shopify/polaris';
import { useEffect, useId, useState } from 'react';

export interface MoveToPositionProps {
  /** 1-based position of the rule now. */
  number: number;
  count: number;
  /** Moves the rule to `position` (1-based). */
  onMove(position: number): void;
}

/**
 * "Move to position": a small popover with the new position, so a rule of a
 * long list goes where it belongs in one step instead of 60 presses of "up".
 * Enter moves; Escape closes (Polaris returns the focus to the button).
 */
export function MoveToPosition({ number, count, onMove }: MoveToPositionProps) {
  const [open, setOpen] = useState(false);
  // The popover is made on the first open: Polaris' Popover measures its button as it
  // mounts (a forced layout), which a 100-rule list paid 100 times while opening.
  const [made, setMade] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const fieldId = useId();

  // Focus without scrolling: a focus that scrolls the page moves the button out of view,
  // and Polaris closes a popover whose button scrolls out.
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => {
      const field = document.getElementById(fieldId);
      field?.focus({ preventScroll: true });
      if (field instanceof HTMLInputElement) field.select();
    }, 0);
    return () => clearTimeout(timer);
  }, [open, fieldId]);

  const close = () => {
    setOpen(false);
    setError(undefined);
  };
  const submit = () => {
    const position = Number(text.trim());
    if (!/^\d+$/.test(text.trim()) || position < 1 || position > count) {
      setError(`Enter a position from 1 to ${count}.`);
      return;
    }
    close();
    if (position !== number) onMove(position);
  };

  const button = (
    <Button
      variant="tertiary"
      disabled={count < 2}
      accessibilityLabel={`Move to a position: rule #${number}`}
      ariaExpanded={open}
      onClick={() => {
        setText(String(number));
        setError(undefined);
        setMade(true);
        setOpen((was) => !was);
      }}
    >
      Move to…
    </Button>
  );
  if (!made) return button;
  return (
    <Popover active={open} onClose={close} autofocusTarget="none" activator={button}>
      <Box padding="300" minWidth="220px">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <BlockStack gap="200">
            <TextField
              label={`New position for rule #${number} (1 to ${count})`}
              inputMode="numeric"
              autoComplete="off"
              value={text}
              onChange={(value) => {
                setText(value);
                setError(undefined);
              }}
              error={error}
              id={fieldId}
            />
            <Button submit variant="primary">
              Move
            </Button>
          </BlockStack>
        </form>
      </Box>
    </Popover>
  );
}
