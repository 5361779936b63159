import { FormLayout, TextField } from '@shopify/polaris';
import { MAX_WINDOW_DAYS } from '@ratesmith/contracts/delivery';

export interface WindowDayFieldsProps {
  /** What the window is of: the fields read "<label>: fewest business days" and "…: most …". */
  label: string;
  min: string;
  max: string;
  onMin: (value: string) => void;
  onMax: (value: string) => void;
  error?: boolean;
  disabled?: boolean;
  /** Under the "most" field. */
  maxHelp?: string;
  condensed?: boolean;
}

/**
 * A delivery window's two fields, whole business days of transit from 0 to
 * MAX_WINDOW_DAYS: the Settings' windows and a rule's override (docs/rates.md).
 */
export function WindowDayFields(props: WindowDayFieldsProps) {
  const field = (bound: 'fewest' | 'most', value: string, onChange: (value: string) => void) => (
    <TextField
      label={`${props.label}: ${bound} business days`}
      type="number"
      min={0}
      max={MAX_WINDOW_DAYS}
      step={1}
      value={value}
      onChange={onChange}
      error={props.error}
      disabled={props.disabled}
      helpText={bound === 'most' ? props.maxHelp : undefined}
      autoComplete="off"
    />
  );
  return (
    <FormLayout.Group condensed={props.condensed}>
      {field('fewest', props.min, props.onMin)}
      {field('most', props.max, props.onMax)}
    </FormLayout.Group>
  );
}
