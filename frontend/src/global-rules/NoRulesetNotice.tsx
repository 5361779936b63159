import { useNoticeSettled } from '../components/NoticesFirst';
import { NoRulesetBanner, useCheckoutWithoutRuleset } from './withoutRuleset';

/**
 * The Dashboard's banner while no ruleset is enabled, with the facts read when it
 * shows: its own chunk there, and a module apart from the words the Global Rules page
 * shares, so that page's first load stays within its budget
 * (frontend/test/size-budget.int.spec.ts).
 */
export function NoRulesetNotice() {
  const facts = useCheckoutWithoutRuleset(true);
  // Its words change once the facts are read: the Dashboard's cards wait for them.
  useNoticeSettled(facts !== null);
  return (
    <NoRulesetBanner
      title="No ruleset is enabled"
      facts={facts}
      tense="now"
      action={{ content: 'Go to Global Rules', url: '/global-rules' }}
    />
  );
}
