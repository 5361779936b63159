import { Banner, Text, type BannerHandles, type BannerProps } from '@shopify/polaris';
import { useEffect, useState, type ReactNode, type Ref } from 'react';
import { useApi, type ApiClient, type ProductRulesList, type SettingsReply } from '../api';
import { formatAmount } from '../money/money';
import { useShopCurrency } from '../money/useShopCurrency';

/**
 * What checkout gets while no ruleset is enabled (docs/rates.md, "Order"):
 * product rules still run for the carts holding their products; a cart that
 * no rule matches gets the fallback rate when Settings turn it on, else no
 * rate. Said before a merchant deletes or disables the enabled ruleset, or
 * imports a file that enables none, and on the Dashboard while none is.
 */
export interface CheckoutWithoutRuleset {
  /** Settings' fallback rate when it is on (its cost in currency units), else null. */
  fallback: { name: string; cost: number } | null;
  /** Enabled product rules that have at least one rule: the only rules left to match. */
  productRules: number;
}

/** The settings fields and product rules the words depend on, as the API answers them. */
export function checkoutWithoutRuleset(
  settings: Pick<SettingsReply['settings'], 'fallback_enabled' | 'fallback_name' | 'fallback_cost'>,
  productRules: readonly { enabled: boolean; filters: number }[],
): CheckoutWithoutRuleset {
  return {
    fallback: settings.fallback_enabled
      ? { name: settings.fallback_name.trim(), cost: settings.fallback_cost }
      : null,
    productRules: productRules.filter((rule) => rule.enabled && rule.filters > 0).length,
  };
}

/** GET /api/settings and /api/product-rules: the shop's facts as they are now. */
export async function readCheckoutWithoutRuleset(
  api: ApiClient,
  signal?: AbortSignal,
): Promise<{ settings: SettingsReply['settings']; productRules: ProductRulesList }> {
  const [settings, productRules] = await Promise.all([
    api.get<SettingsReply>('/api/settings', { signal }),
    api.get<ProductRulesList>('/api/product-rules', { signal }),
  ]);
  return { settings: settings.settings, productRules };
}

/** The product rules of GET /api/product-rules as checkoutWithoutRuleset counts them. */
export const productRulesOf = (list: ProductRulesList) =>
  list.products.data.map((rule) => ({
    productId: rule.product_id,
    enabled: rule.active,
    filters: rule.filters.length,
  }));

/**
 * The shop's facts, read each time `when` turns true (a confirmation opens);
 * null while they are read, and when they cannot be (the words then say what
 * holds either way).
 */
export function useCheckoutWithoutRuleset(when: boolean): CheckoutWithoutRuleset | null {
  const api = useApi();
  const [facts, setFacts] = useState<CheckoutWithoutRuleset | null>(null);
  useEffect(() => {
    if (!when) return;
    // Facts of an earlier opening may be out of date (Settings saved since): not shown.
    setFacts(null);
    const controller = new AbortController();
    readCheckoutWithoutRuleset(api, controller.signal).then(
      ({ settings, productRules }) => {
        if (!controller.signal.aborted)
          setFacts(checkoutWithoutRuleset(settings, productRulesOf(productRules)));
      },
      () => {
        if (!controller.signal.aborted) setFacts(null);
      },
    );
    return () => controller.abort();
  }, [api, when]);
  return when ? facts : null;
}

/**
 * In words: "Checkout will get no Ratesmith rates. Instead every cart will get
 * your fallback rate “Standard” at $7.50." `tense` "will" before the change;
 * "now" while no ruleset is enabled ("Until a ruleset is enabled, checkout
 * gets …"). Null facts (not read): what holds whatever Settings say.
 */
export function withoutRulesetWords(
  facts: CheckoutWithoutRuleset | null,
  money: (amount: number) => string,
  tense: 'will' | 'now',
): string {
  const will = tense === 'will';
  const gets = will ? 'will get' : 'gets';
  const checkout = will ? 'Checkout' : 'Until a ruleset is enabled, checkout';
  if (!facts)
    return `${checkout} ${gets} no Ratesmith rates from a ruleset: a cart that no product rule matches ${gets} no rate from Ratesmith, or your fallback rate if one is enabled in Settings.`;
  const { fallback, productRules } = facts;
  const except =
    productRules === 0
      ? ''
      : productRules === 1
        ? ', except for carts that your product rule matches'
        : `, except for carts that one of your ${productRules} product rules matches`;
  const first = `${checkout} ${gets} no Ratesmith rates${except}.`;
  if (!fallback) return first;
  const rate = fallback.name
    ? `your fallback rate “${fallback.name}” at ${money(fallback.cost)}`
    : `your fallback rate at ${money(fallback.cost)}`;
  const who = productRules === 0 ? 'every cart' : 'every other cart';
  return `${first} Instead ${who} ${gets} ${rate}.`;
}

/**
 * The warning itself (a Banner, tone warning): in a confirmation before the
 * change, or on a page while no ruleset is enabled.
 */
export function NoRulesetBanner({
  title,
  facts,
  tense,
  action,
  children,
  bannerRef,
}: {
  title: string;
  facts: CheckoutWithoutRuleset | null;
  tense: 'will' | 'now';
  action?: BannerProps['action'];
  children?: ReactNode;
  /** Polaris' handle to focus the banner (after the save that made it appear). */
  bannerRef?: Ref<BannerHandles>;
}) {
  const currency = useShopCurrency();
  return (
    <Banner tone="warning" title={title} action={action} ref={bannerRef}>
      <Text as="p">
        {withoutRulesetWords(facts, (amount) => formatAmount(amount, currency), tense)}
      </Text>
      {children}
    </Banner>
  );
}
