import { isSpanContextValid, trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * JSON logs, one object a line, carrying the active trace and span ids so a
 * log line leads to its trace. Secrets are redacted by path as a last guard;
 * code should not log them in the first place.
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
      redact: {
        paths: [
          'authorization',
          'headers.authorization',
          '*.authorization',
          'token',
          '*.token',
          'accessToken',
          '*.accessToken',
          'password',
          'secret',
        ],
        censor: '[redacted]',
      },
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
