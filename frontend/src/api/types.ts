/** Response shapes of the gateway's /api: one declaration each, in @ratesmith/contracts/edge. */
export type {
  CarrierServiceReply,
  CarrierServiceState,
  CarrierServiceStatus,
  CheckoutCartJson,
  CheckoutOutcomesReply,
  GlobalRuleReply,
  GlobalRulesList,
  GlobalRuleSummary,
  ProductRuleSummary,
  ProductRulesList,
  SettingsReply,
  ShopReply,
  StatusReply,
  StoreVariant,
  StoreVariantsReply,
  SettingsJson as ShopSettings,
} from '@ratesmith/contracts/edge';
