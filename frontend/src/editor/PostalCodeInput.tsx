import { InlineStack, TextField } from '@shopify/polaris';
import type { PostalRange } from './model';

export interface PostalCodeInputProps {
  /** `between` takes two bounds, every other operator one code. */
  operator: string;
  value: string | PostalRange;
  onChange(value: string | PostalRange): void;
}

/**
 * A postal code, or for `between` its two bounds. Spaces, hyphens and case do
 * not matter: codes are compared upper-case with only letters and digits
 * (docs/rates.md), and `between` looks at as many characters as the bounds have.
 */
export function PostalCodeInput({ operator, value, onChange }: PostalCodeInputProps) {
  if (operator === 'between') {
    const range = typeof value === 'object' ? value : { from: '', to: '' };
    return (
      <InlineStack gap="200" wrap={false} blockAlign="center">
        <TextField
          label="Postal code from"
          labelHidden
          prefix="From"
          placeholder="90000"
          autoComplete="off"
          value={range.from}
          onChange={(from) => onChange({ ...range, from })}
        />
        <TextField
          label="Postal code to"
          labelHidden
          prefix="To"
          placeholder="96199"
          autoComplete="off"
          value={range.to}
          onChange={(to) => onChange({ ...range, to })}
        />
      </InlineStack>
    );
  }
  return (
    <TextField
      label="Postal code"
      labelHidden
      placeholder={operator.includes('starts_with') ? 'Prefix, e.g. 902' : 'e.g. 90210'}
      autoComplete="off"
      value={typeof value === 'string' ? value : ''}
      onChange={onChange}
    />
  );
}
