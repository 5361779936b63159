import { useCallback, useState } from 'react';
import {
  ADMISSIONS,
  checkValue,
  valueHint,
  type FieldDefinition,
} from '@ratesmith/contracts/filters';
import { valueToWire, type EditorCondition } from './model';

/**
 * A value's message at its own input: what to type, in the words of its value
 * kind (value-kinds.ts in the contracts, the messages the error list gives
 * too). Only for a value typed wrong: a blank one is "incomplete", which the
 * error list says once Save All is pressed.
 */
export function valueError(
  field: Pick<FieldDefinition, 'key' | 'kind' | 'label'>,
  operator: string,
  value: EditorCondition['value'],
): string | undefined {
  const sent = valueToWire(value, field.key);
  return checkValue(field.kind, operator, sent, ADMISSIONS.draft) === 'invalid'
    ? `${field.label} ${valueHint(field.kind, operator, sent)}`
    : undefined;
}

/** An action's amount (or product cost) typed wrong, said at its input; blank says nothing here. */
export function amountError(label: string, typed: string): string | undefined {
  return checkValue('amount', '', typed, ADMISSIONS.draft) === 'invalid'
    ? `${label} ${valueHint('amount', '', typed)}`
    : undefined;
}

/**
 * Validation on blur: false until the merchant has left the input once, so a
 * message never shows while a value is first being typed.
 */
export function useLeft(): [left: boolean, onBlur: () => void] {
  const [left, setLeft] = useState(false);
  return [left, useCallback(() => setLeft(true), [])];
}
