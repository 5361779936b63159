import { Router } from 'express';
import { parseInput } from '../../http/validate';
import type { WebVitalsMetrics } from './metrics';
import { webVitalsBody } from './schemas';

/**
 * POST /api/vitals: a page view's LCP, CLS and INP from the merchant's
 * browser, recorded into the gateway's histograms (metrics.ts) and answered
 * 204. The session, the shop's rate limit and the small body limit
 * (VITALS_BODY_LIMIT) are the /api chain's; nothing is stored.
 */
export function vitalsRouter(vitals: WebVitalsMetrics): Router {
  const router = Router();
  router.post('/', (req, res) => {
    vitals.record(parseInput(webVitalsBody, req.body));
    res.status(204).end();
  });
  return router;
}
