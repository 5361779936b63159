import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { SHOP_DOMAIN } from '@ratesmith/kit';

/**
 * helmet's defaults would forbid the Shopify admin from framing the app
 * (frame-ancestors 'self' and X-Frame-Options). Shopify requires
 * `frame-ancestors https://<shop> https://admin.shopify.com` for the shop that
 * asked, so the directive is computed per request from the `shop` parameter
 * (only a well-formed shop domain is echoed; anything else gets 'none').
 */
export function securityHeaders(options: {
  https: boolean;
  /** Origin of TRAINING_VIDEO_URL, allowed in media-src beside the app's own files. */
  mediaOrigin?: string;
}): RequestHandler {
  return helmet({
    xFrameOptions: false,
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://cdn.shopify.com'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https://cdn.shopify.com'],
        connectSrc: ["'self'", 'https://*.shopify.com'],
        // The training video: the walkthrough served by the gateway, or TRAINING_VIDEO_URL.
        mediaSrc: ["'self'", ...(options.mediaOrigin ? [options.mediaOrigin] : [])],
        // Over plain http (local demo) upgrading would break every request.
        upgradeInsecureRequests: options.https ? [] : null,
        frameAncestors: [
          (req) => frameAncestorsFor((req as { query?: Record<string, unknown> }).query?.shop),
        ],
      },
    },
  });
}

export function frameAncestorsFor(shop: unknown): string {
  const domain = typeof shop === 'string' ? shop.trim().toLowerCase() : '';
  return SHOP_DOMAIN.test(domain) ? `https://${domain} https://admin.shopify.com` : "'none'";
}

/** Bodies of writes must be JSON; anything else is refused before parsing. */
export const requireJsonBody: RequestHandler = (req, res, next) => {
  const hasBody =
    Number(req.headers['content-length'] ?? 0) > 0 ||
    req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !req.is('application/json')) {
    res.status(415).json({
      status: false,
      message: 'Send the request body as JSON (Content-Type: application/json).',
    });
    return;
  }
  next();
};
