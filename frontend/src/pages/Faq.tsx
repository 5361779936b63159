import {
  BlockStack,
  Card,
  Collapsible,
  Icon,
  InlineStack,
  List,
  Page,
  Text,
} from '@shopify/polaris';
import { ChevronDownIcon, ChevronUpIcon } from '@shopify/polaris-icons';
import { useId, useState, type ReactNode } from 'react';

interface Question {
  question: string;
  answer: ReactNode;
}

/** The rule order of rate-engine.md section 4, in the merchant's words. */
const QUESTIONS: Question[] = [
  {
    question: 'In what order are my rules applied?',
    answer: (
      <BlockStack gap="200">
        <Text as="p">Your enabled ruleset first, then product rules:</Text>
        <List type="number">
          <List.Item>
            The ruleset: only your enabled ruleset counts. Its rules run from top to bottom. The
            first rule whose conditions match the cart changes the fee and stops the ruleset, unless
            that rule is set to continue to the next rule.
          </List.Item>
          <List.Item>
            Product rules: every enabled product rule whose product is in the cart, in the order you
            added them. Each runs its rules from top to bottom the same way; stopping ends only that
            product rule.
          </List.Item>
          <List.Item>
            “Make Shipping Free For This Item” is applied last (see the next question).
          </List.Item>
        </List>
        <Text as="p">Order matters: move a rule up in the editor to have it checked earlier.</Text>
      </BlockStack>
    ),
  },
  {
    question: 'How does “Make Shipping Free For This Item” change the fee?',
    answer: (
      <Text as="p">
        It runs after all other rules and lowers the fee in proportion to the free items: the fee is
        multiplied by the share of items that still pay for shipping. With 4 items in the cart of
        which 2 ship free, the fee is halved; with all items free, shipping is free.
      </Text>
    ),
  },
  {
    question: 'How do I stop shipping to some places or for some carts?',
    answer: (
      <Text as="p">
        Add a rule whose action is Block Shipping, with conditions for the carts it is meant for
        (for example Shipping Postal Code starts with 995). When it matches, Ratesmith answers
        checkout with no shipping rate at all, not even your fallback rate, and no later rule or
        product rule changes that. Put it first so that no earlier rule stops before it.
      </Text>
    ),
  },
  {
    question: 'What happens when no rule matches a cart?',
    answer: (
      <BlockStack gap="200">
        <Text as="p">
          Then Ratesmith offers no shipping rate for that cart, so it never gives away free shipping
          by accident: checkout shows your other shipping rates, if you have any. Because Ratesmith
          did answer, Shopify does not fall back to your backup rates, and it keeps that empty
          answer for about 15 minutes for the same cart and address. Add a last rule with no
          conditions (the editor calls it &ldquo;Every cart&rdquo;) if every cart should get a
          Ratesmith rate.
        </Text>
        <Text as="p">
          Or enable the fallback rate in Settings: such a cart then gets that rate, with its name,
          description and amount.
        </Text>
        <Text as="p">
          The Dashboard counts the checkouts of the last 7 days that got the fallback rate or no
          rate, and shows a few of their carts so you can open them in the rate preview. For that,
          Ratesmith keeps a count per day for 30 days and your latest 20 such carts: the destination
          country, the currency and each line&apos;s product and variant id, quantity, price and
          weight. Nothing about the customer (no name, address or email) is kept, and all of it is
          deleted with the rest of your shop&apos;s data 48 hours after you uninstall the app.
        </Text>
        <Text as="p">
          Recent checkouts shows a sample of the checkouts Ratesmith answered (a few a minute) with
          what each rule did. For each, Ratesmith keeps for 14 days, at most your latest 200: when
          it was, the destination country, the currency, each line&apos;s product and variant id,
          quantity, price and weight, the rates answered, how long the answer took and the
          step-by-step account of your rules. Not the customer&apos;s name, address, postal code,
          region, email or phone. They are deleted with the rest of your shop&apos;s data 48 hours
          after you uninstall the app.
        </Text>
        <Text as="p">
          Checkout analytics count, for every checkout Ratesmith answers, which rates it got and
          which of your rules matched it, stopped at it and how much each changed the fee. Ratesmith
          keeps only these counts, one set per day, for 30 days: no cart, no order and nothing about
          the customer. They are deleted with the rest of your shop&apos;s data 48 hours after you
          uninstall the app.
        </Text>
      </BlockStack>
    ),
  },
];

/** Three questions; opening one closes the others. */
export default function Faq() {
  const [open, setOpen] = useState<number | undefined>(undefined);
  const baseId = useId();
  return (
    <Page title="FAQ">
      <Card padding="0">
        {QUESTIONS.map((q, i) => {
          const expanded = open === i;
          const panelId = `${baseId}-answer-${i}`;
          return (
            <div key={q.question} className="rs-faq__item">
              <h2 className="rs-faq__heading">
                <button
                  type="button"
                  className="rs-faq__question"
                  aria-expanded={expanded}
                  aria-controls={panelId}
                  onClick={() => setOpen(expanded ? undefined : i)}
                >
                  <InlineStack align="space-between" blockAlign="center" wrap={false}>
                    <Text as="span" variant="headingSm">
                      {q.question}
                    </Text>
                    <span aria-hidden="true">
                      <Icon source={expanded ? ChevronUpIcon : ChevronDownIcon} />
                    </span>
                  </InlineStack>
                </button>
              </h2>
              <Collapsible
                id={panelId}
                open={expanded}
                transition={{ duration: '150ms', timingFunction: 'ease-in-out' }}
              >
                <div className="rs-faq__answer" role="region" aria-label={q.question}>
                  {q.answer}
                </div>
              </Collapsible>
            </div>
          );
        })}
      </Card>
    </Page>
  );
}
