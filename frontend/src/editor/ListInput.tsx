import { BlockStack, InlineStack, Tag, TextField } from '@shopify/polaris';
import { LIMITS } from '@ratesmith/contracts/filters';
import { useState, type ClipboardEvent, type KeyboardEvent } from 'react';

/** What separates typed or pasted values: a comma, a semicolon or a new line (never a space: "K2P 1L4" is one code). */
const SEPARATORS = /[,;\r\n]+/;

/** The values of a text, trimmed, blanks left out. */
export function splitValues(text: string): string[] {
  return text
    .split(SEPARATORS)
    .map((value) => value.trim())
    .filter(Boolean);
}

export interface ListInputProps {
  /** What one value is, for the label ("Postal codes"). */
  label: string;
  placeholder: string;
  values: string[];
  onChange(values: string[]): void;
}

/**
 * The value of a list operator (docs/rates.md, "Lists"): each value a chip. A
 * comma, semicolon or new line, typed or pasted, splits values, never joins
 * them; Enter or leaving the field adds what is typed. Values are kept as
 * typed (the shared validation normalises and says what is wrong), each once.
 */
export function ListInput({ label, placeholder, values, onChange }: ListInputProps) {
  const [typed, setTyped] = useState('');
  const add = (text: string) => {
    const added = splitValues(text);
    if (added.length) onChange([...new Set([...values, ...added])]);
  };
  const onText = (text: string) => {
    if (!SEPARATORS.test(text)) return setTyped(text);
    // Everything before the last separator becomes values; what follows it is still being typed.
    const parts = text.split(SEPARATORS);
    setTyped(parts.pop() ?? '');
    add(parts.join(','));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add(typed);
    setTyped('');
  };
  const onPaste = (event: ClipboardEvent) => {
    // A single-line field would drop a pasted list's line breaks and join its values.
    const text = event.clipboardData.getData('text');
    if (!SEPARATORS.test(text)) return;
    event.preventDefault();
    add(`${typed},${text}`);
    setTyped('');
  };
  return (
    <BlockStack gap="200">
      <div onKeyDown={onKeyDown} onPasteCapture={onPaste}>
        <TextField
          label={label}
          labelHidden
          placeholder={placeholder}
          autoComplete="off"
          value={typed}
          onChange={onText}
          onBlur={() => {
            add(typed);
            setTyped('');
          }}
          helpText={`${values.length} of ${LIMITS.listValues}. A comma or a new line adds a value.`}
        />
      </div>
      {values.length > 0 && (
        <InlineStack gap="100" wrap>
          {values.map((value) => (
            <Tag key={value} onRemove={() => onChange(values.filter((v) => v !== value))}>
              {value}
            </Tag>
          ))}
        </InlineStack>
      )}
    </BlockStack>
  );
}
