import { Select, TextField } from '@shopify/polaris';
import { WEIGHT_UNITS } from '@ratesmith/contracts/filters';
import type { WeightValue } from './model';

export interface WeightInputProps {
  label: string;
  labelHidden?: boolean;
  value: WeightValue;
  onChange(value: WeightValue): void;
  helpText?: string;
  /** What is wrong with the weight as typed (shown at its amount, which is marked invalid). */
  error?: string;
}

const UNIT_LABELS: Record<string, string> = {
  g: 'g (grams)',
  kg: 'kg (kilograms)',
  lb: 'lb (pounds)',
  oz: 'oz (ounces)',
};
const UNIT_OPTIONS = WEIGHT_UNITS.map((unit) => ({
  label: UNIT_LABELS[unit] ?? unit,
  value: unit,
}));

/** A weight: its amount as typed (at most 3 decimals) and its unit (g, kg, lb, oz). */
export function WeightInput({
  label,
  labelHidden,
  value,
  onChange,
  helpText,
  error,
}: WeightInputProps) {
  // A plain flex row: the amount takes the width the unit leaves, in a form group too.
  return (
    <div style={{ display: 'flex', gap: 8, alignItems: 'flex-start', width: '100%' }}>
      <div style={{ flex: 1, minWidth: 110 }}>
        <TextField
          label={label}
          labelHidden={labelHidden}
          placeholder="e.g. 1.5"
          inputMode="decimal"
          autoComplete="off"
          helpText={helpText}
          error={error}
          value={value.amount}
          onChange={(amount) => onChange({ ...value, amount })}
        />
      </div>
      <div style={{ minWidth: 140 }}>
        <Select
          label={`${label} unit`}
          labelHidden={labelHidden}
          options={UNIT_OPTIONS}
          value={value.unit}
          onChange={(unit) => onChange({ ...value, unit })}
        />
      </div>
    </div>
  );
}
