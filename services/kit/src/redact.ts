import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace';

/**
 * The one place secrets are taken out of text that leaves a process: span
 * names and attributes (the exporter below, used by telemetry.ts) and log
 * lines (logger.ts). Field names are pino's redact paths; this module handles
 * secrets *inside* strings:
 *
 * - the value of every secret query parameter (`code`, `hmac`, `state`,
 *   `host`, `session`, `signature`, and any name containing token, secret,
 *   password or api_key), in a URL, a bare query string or a fragment, also
 *   one level percent-encoded inside another parameter (a `redirect_uri`);
 * - the segment after `/carrier/rates/`: the rate key is a per-shop secret.
 *
 * Over-redaction is accepted: a `state=` in any query-like text goes.
 */
export const REDACTED = '[redacted]';

const SECRET_PARAMS = new Set(['code', 'hmac', 'state', 'host', 'session', 'signature', 'sig']);
const SECRET_PARAM_PATTERN = /token|secret|passw|api_?key|hmac|signature/;

/** Whether the value of a query parameter of this name is a secret. */
export function isSecretParam(rawName: string): boolean {
  let name = rawName;
  try {
    name = decodeURIComponent(rawName.replace(/\+/g, ' '));
  } catch {
    // a malformed escape: judge the name as written
  }
  name = name.trim().toLowerCase().replace(/\[\]$/, '');
  return SECRET_PARAMS.has(name) || SECRET_PARAM_PATTERN.test(name);
}

// A parameter starts a string, or follows `?`, `&`, `#` or a JSON quote (a log
// line is scrubbed as a whole). Values end where a URL, a JSON string or a
// line of text would end them. A backslash ends a value too, so an escaped
// quote in a JSON line stays escaped.
const PARAM = /(^|[?&#"])([^=&#?\s"'<>\\]+)=([^&#\s"'<>\\]*)/g;
// The same one level percent-encoded: %3F ? , %26 &, %23 #, %3D =.
const ENCODED_PARAM =
  /(%3F|%26|%23)((?:(?!%3D|%26|%3F|%23)[^=&#?\s"'<>\\])+)%3D((?:(?!%26|%23)[^&#\s"'<>\\])*)/gi;
const CARRIER_PATH = /(\/carrier\/rates\/)(?!:|\[redacted\])([^/?#\s"'<>\\]+)/gi;
const ENCODED_CARRIER_PATH =
  /(%2Fcarrier%2Frates%2F)(?!%5Bredacted%5D)((?:(?!%2F|%3F|%23|%26)[^/?#&\s"'<>\\])+)/gi;
/** Cheap test first: most strings have nothing to scrub. */
const MAYBE = /=|%3D|carrier/i;

function scrubParams(text: string): string {
  return text.replace(PARAM, (_all, sep: string, name: string, value: string) => {
    if (isSecretParam(name)) return `${sep}${name}=${value ? REDACTED : ''}`;
    // A non-secret value may hold a nested URL: `next=/x?code=…`.
    return `${sep}${name}=${value.includes('=') ? scrubParams(value) : value}`;
  });
}

/**
 * The text with every secret query value and rate key replaced by
 * `[redacted]`; anything else unchanged.
 */
export function redactText(text: string): string {
  if (!MAYBE.test(text)) return text;
  return scrubParams(text)
    .replace(ENCODED_PARAM, (all, sep: string, name: string, value: string) =>
      isSecretParam(name) && value ? `${sep}${name}%3D${encodeURIComponent(REDACTED)}` : all,
    )
    .replace(CARRIER_PATH, `$1${REDACTED}`)
    .replace(ENCODED_CARRIER_PATH, `$1${encodeURIComponent(REDACTED)}`);
}

function redactValue(value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value))
    return value.map((v: unknown) => (typeof v === 'string' ? redactText(v) : v)) as AttributeValue;
  return value;
}

/** Every string (and string array element) of the attributes, redacted. */
export function redactAttributes(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) out[key] = redactValue(value);
  return out;
}

/** A copy of a finished span with its name, attributes, events and status message redacted. */
export function redactSpan(span: ReadableSpan): ReadableSpan {
  const events: TimedEvent[] = span.events.map((e) => ({
    ...e,
    name: redactText(e.name),
    ...(e.attributes ? { attributes: redactAttributes(e.attributes) } : {}),
  }));
  return {
    name: redactText(span.name),
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status.message
      ? { ...span.status, message: redactText(span.status.message) }
      : span.status,
    attributes: redactAttributes(span.attributes),
    links: span.links.map((l) =>
      l.attributes ? { ...l, attributes: redactAttributes(l.attributes) } : l,
    ),
    events,
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/**
 * Wraps the exporter every span leaves the process through, so what it sends
 * is redacted whichever instrumentation made the span and whenever the URL,
 * route or name was set. (Instrumentation hooks run when a span starts: they
 * would miss names and attributes set later, e.g. the route Express adds, and
 * spans of other instrumentations.)
 */
export class RedactingSpanExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], resultCallback: Parameters<SpanExporter['export']>[1]): void {
    this.inner.export(spans.map(redactSpan), resultCallback);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
