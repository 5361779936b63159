import { createApiClient, type ApiClient } from '../api';
import { tokenSourceFor } from './environment';

const clients = new Map<string, ApiClient>();

/**
 * The page's api client for `shop`, made once: the screens (the shell's
 * ApiProvider) and the web vitals report share it, and so its cached demo
 * session token, so a report sent as the page goes away needs no token
 * request first.
 */
export function shopApiClient(shop: string): ApiClient {
  let client = clients.get(shop);
  if (!client) {
    client = createApiClient({ tokens: tokenSourceFor(shop) });
    clients.set(shop, client);
  }
  return client;
}
