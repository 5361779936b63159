import type { authV1, ShippingProfileJson, ShippingZonesReply } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router, type RequestHandler } from 'express';
import { shopOf, traced } from '../../http/context';
import { parseInput } from '../../http/validate';
import { shippingZonesBody } from './schemas';
import { SHOPIFY_BACKED_TIMEOUT_MS } from '../../shopify-backed-calls';

function profilesJson(profiles: authV1.ShippingProfile[]): ShippingProfileJson[] {
  return profiles.map((p) => ({
    id: p.id,
    name: p.name,
    default: p.isDefault,
    zones: p.zones.map((z) => ({
      id: z.id,
      name: z.name,
      countries: z.countries.map((c) => ({
        code: c.code,
        rest_of_world: c.restOfWorld,
        provinces: [...c.provinces],
      })),
      ratesmith: z.ratesmith,
    })),
  }));
}

function changedMessage(count: number, ratesmith: boolean): string {
  if (count === 0) return 'Saved.';
  const zones = count === 1 ? 'this shipping zone' : `these ${count} shipping zones`;
  return ratesmith
    ? `Checkout now asks Ratesmith for rates in ${zones}.`
    : `Checkout no longer asks Ratesmith for rates in ${zones}.`;
}

/**
 * Where checkout asks Ratesmith: GET the shop's delivery profiles and zones
 * (read from Shopify now), POST to add Ratesmith to zones or take it out.
 */
export function shippingZonesRouter(auth: ClientOf<typeof authV1.AuthService>): Router {
  const wait = (res: Parameters<RequestHandler>[1]) => ({
    ...traced(res),
    timeoutMs: SHOPIFY_BACKED_TIMEOUT_MS,
  });
  const get: RequestHandler = async (_req, res) => {
    const reply = await auth.call('getShippingZones', { shop: shopOf(res) }, wait(res));
    res.json({
      status: true,
      message: '',
      profiles: profilesJson(reply.profiles),
      confirmed: reply.confirmed,
    } satisfies ShippingZonesReply);
  };
  const set: RequestHandler = async (req, res) => {
    const body = parseInput(shippingZonesBody, req.body);
    const reply = await auth.call(
      'setShippingZones',
      { shop: shopOf(res), zoneIds: body.zone_ids, ratesmith: body.ratesmith },
      wait(res),
    );
    res.json({
      status: true,
      message: changedMessage(new Set(body.zone_ids).size, body.ratesmith),
      profiles: profilesJson(reply.profiles),
      confirmed: reply.confirmed,
    } satisfies ShippingZonesReply);
  };
  const router = Router();
  router.get('/', get);
  router.post('/', set);
  return router;
}
