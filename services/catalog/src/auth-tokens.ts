import type { authV1 } from '@ratesmith/contracts';
import { AppError, type ClientOf } from '@ratesmith/kit';
import type { TokenSource } from './domain/catalog-app';

/**
 * The shop's offline token from the auth service over NATS (it refreshes
 * tokens that expire soon). A shop without one is told how to reconnect; a
 * 404 would read as "no products" on the picker, so it becomes a 403.
 */
export function authTokens(auth: ClientOf<typeof authV1.AuthService>): TokenSource {
  return {
    async accessToken(shop, requestId) {
      try {
        const reply = await auth.call('getAccessToken', { shop }, { requestId });
        return reply.accessToken;
      } catch (err) {
        if (err instanceof AppError && err.kind === 'not_found') {
          throw new AppError('forbidden', err.message, [], { cause: err });
        }
        throw err;
      }
    },
  };
}
