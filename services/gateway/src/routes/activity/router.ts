import type { ActivityReply, rulesV1 } from '@ratesmith/contracts';
import type { ClientOf } from '@ratesmith/kit';
import { Router, type RequestHandler } from 'express';
import { shopOf, traced } from '../../http/context';
import { versionJson } from '../versions/handlers';

/**
 * GET /api/activity: the Dashboard's latest changes to what checkout sees
 * (saves of the active ruleset, enable and disable, product rules in use,
 * settings), newest first. No input: the shop is the token's.
 */
export function activityRouter(rules: ClientOf<typeof rulesV1.RulesService>): Router {
  const list: RequestHandler = async (_req, res) => {
    const reply = await rules.call('listActivity', { shop: shopOf(res) }, traced(res));
    res.json({ status: true, activity: reply.versions.map(versionJson) } satisfies ActivityReply);
  };
  const router = Router();
  router.get('/', list);
  return router;
}
