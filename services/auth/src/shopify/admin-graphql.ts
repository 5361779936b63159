import { type ShopifyLibrary } from '@ratesmith/kit/shopify';
import { Session, type GraphqlClient } from '@shopify/shopify-api';

/** The Admin GraphQL client of one shop, with its offline access token. */
export function adminGraphql(
  shopify: ShopifyLibrary,
  shop: string,
  accessToken: string,
): GraphqlClient {
  const session = new Session({
    id: shopify.session.getOfflineId(shop),
    shop,
    state: '',
    isOnline: false,
    accessToken,
  });
  return new shopify.clients.Graphql({ session });
}
