import { ChoiceList } from '@shopify/polaris';
import { useCallback, useEffect, useState } from 'react';
import { formatAmount } from '../money/money';
import { useShopCurrency } from '../money/useShopCurrency';
import { RulesetNameModal } from './RulesetNameModal';
import { RULESET_TEMPLATES, templateByKey, type RulesetTemplate } from './templates';

/*
 * Its own module, loaded when the merchant first clicks Add Ruleset: the
 * starter templates would otherwise weigh on the Global Rules page's first
 * load (frontend/test/size-budget.int.spec.ts).
 */

export interface AddRulesetModalProps {
  open: boolean;
  onClose: () => void;
  /** Resolves when created (the modal then closes); rejects to keep it open. Without a template: blank. */
  onCreate: (name: string, template: RulesetTemplate | undefined) => Promise<void>;
}

const BLANK = 'blank';

/** Add Ruleset: a name, and a blank ruleset or one of the starter templates. */
export function AddRulesetModal({ open, onClose, onCreate }: AddRulesetModalProps) {
  const [choice, setChoice] = useState(BLANK);
  useEffect(() => {
    if (open) setChoice(BLANK);
  }, [open]);
  const template = templateByKey(choice);
  return (
    <RulesetNameModal
      open={open}
      title="Add Ruleset"
      action="Add"
      suggestedName={template?.name ?? ''}
      onClose={onClose}
      onSubmit={(name) => onCreate(name, template)}
    >
      <TemplateChoice choice={choice} onChange={setChoice} />
    </RulesetNameModal>
  );
}

/** Rendered only while the dialog is open, so the shop's currency is asked for only then. */
function TemplateChoice({ choice, onChange }: { choice: string; onChange: (key: string) => void }) {
  const currency = useShopCurrency();
  const money = useCallback((amount: number) => formatAmount(amount, currency), [currency]);
  return (
    <ChoiceList
      title="Start from"
      choices={[
        { label: 'Blank', value: BLANK, helpText: 'No rules yet: add your own.' },
        ...RULESET_TEMPLATES.map((t) => ({
          label: t.name,
          value: t.key,
          helpText: t.description(money),
        })),
      ]}
      selected={[choice]}
      onChange={([value]) => onChange(value ?? BLANK)}
    />
  );
}
