import { isSpanContextValid, trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';
import { REDACTED, redactText } from './redact';

export type { Logger };

/** Fields that hold secrets, at the top of a line, one level down and in headers. */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  '["set-cookie"]',
  'token',
  'accessToken',
  'access_token',
  'refreshToken',
  'refresh_token',
  'sessionToken',
  'session_token',
  'idToken',
  'id_token',
  'subject_token',
  'hmac',
  'password',
  'secret',
  'apiSecret',
  'api_secret',
  'client_secret',
  'rateKey',
  'rate_key',
  '["x-shopify-access-token"]',
  '["x-shopify-hmac-sha256"]',
];
const REDACT_PATHS = [
  ...SECRET_FIELDS.flatMap((f) => {
    const path = (prefix: string) => (f.startsWith('[') ? `${prefix}${f}` : `${prefix}.${f}`);
    return [f, path('*'), path('headers'), path('*.headers')];
  }),
  // An OAuth code at the top or in a query, but not `err.code` (ECONNREFUSED…).
  'code',
  'query.code',
  '*.query.code',
];

/**
 * JSON logs, one object a line, carrying the active trace and span ids so a
 * log line leads to its trace. Secrets are redacted as a last guard (by field
 * name, and inside strings by redact.ts); code should not log them in the
 * first place.
 */
export function createLogger(
  service: string,
  level = 'info',
  destination?: pino.DestinationStream,
): Logger {
  return pino(
    {
      level,
      base: { service },
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      // Secrets inside strings (a URL's query, a carrier path), wherever they
      // are in the line: message, any field, an error's message or stack.
      hooks: { streamWrite: redactText },
      mixin() {
        const span = trace.getActiveSpan();
        const spanContext = span?.spanContext();
        if (!spanContext || !isSpanContextValid(spanContext)) return {};
        const { traceId, spanId } = spanContext;
        return { trace_id: traceId, span_id: spanId };
      },
    },
    destination,
  );
}
