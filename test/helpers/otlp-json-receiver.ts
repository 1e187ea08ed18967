import { createServer, type IncomingMessage } from 'node:http';
import { listenOnLoopback } from './loopback';

/**
 * A real OTLP/HTTP receiver on 127.0.0.1 for every test that exports. It keeps each request body
 * exactly as the exporter sent it (so tests can search the real bytes, protobuf ones included),
 * decodes OTLP/JSON traces and metrics (exporters set to `http/json`), and can answer slowly to
 * play a struggling collector.
 */

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
  bytesValue?: string;
};
type KeyValue = { key: string; value?: AnyValue };

/** One span of an OTLP/JSON export request, with its attributes flattened into a record. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** OTLP SpanKind: 2 = SERVER, 3 = CLIENT. */
  kind: number;
  /** 2 = ERROR. */
  statusCode: number;
  statusMessage?: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  /** The span's links (an attempt's link to the failed call it follows). */
  links?: { traceId: string; spanId: string; attributes: Record<string, unknown> }[];
  serviceName?: unknown;
  /** The attributes of the span's resource. */
  resource: Record<string, unknown>;
}

export interface ReceivedDataPoint {
  metric: string;
  attributes: Record<string, unknown>;
  /** Histogram count or counter value. */
  value: number;
}

export interface OtlpJsonReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: the exporters add `/v1/traces` and `/v1/metrics`. */
  readonly endpoint: string;
  /** The traces endpoint, for an exporter's `url` or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. */
  readonly tracesUrl: string;
  /** Every request body, byte for byte, in arrival order. */
  readonly bodies: Buffer[];
  /** Spans decoded from the JSON bodies answered with success so far. */
  spans(): ReceivedSpan[];
  dataPoints(): ReceivedDataPoint[];
  requestCount(): number;
  /** Answers each later request only after `ms` milliseconds (0: at once). */
  setResponseDelay(ms: number): void;
  /** Answers the next trace exports with these statuses, one each, before answering 200 again. */
  failTraceExports(...statuses: number[]): void;
  /** Accepts later requests and never answers them. */
  stopAnswering(): void;
  /** Forgets the bodies, spans and data points received so far. */
  reset(): void;
  /** Stops listening and destroys open sockets, including requests still being delayed. */
  close(): Promise<void>;
}

/** `port`: listen there (a port the test reserved), not on one the system chooses. */
export async function startOtlpJsonReceiver(options: { port?: number } = {}): Promise<OtlpJsonReceiver> {
  const bodies: Buffer[] = [];
  const spans: ReceivedSpan[] = [];
  const points: ReceivedDataPoint[] = [];
  const traceFailures: number[] = [];
  let delayMs = 0;
  let answering = true;
  let requests = 0;

  const server = createServer((req, res) => {
    requests++;
    void readBody(req).then((body) => {
      bodies.push(body);
      if (!answering) return;
      const json = (req.headers['content-type'] ?? '').includes('json');
      const failure = req.url === '/v1/traces' ? traceFailures.shift() : undefined;
      const answer = () => {
        if (failure !== undefined) {
          res.writeHead(failure, { 'content-type': 'application/json' }).end('{}');
          return;
        }
        // What was answered with success is what was received.
        if (json && req.url === '/v1/traces') spans.push(...decodeJsonSpans(body));
        if (json && req.url === '/v1/metrics') points.push(...decodeJsonDataPoints(body));
        res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
        // An empty Export*ServiceResponse: `{}` in JSON, zero bytes in protobuf.
        res.end(json ? '{}' : undefined);
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  const { url, close } = await listenOnLoopback(server, options.port);

  return {
    endpoint: url,
    tracesUrl: `${url}/v1/traces`,
    bodies,
    spans: () => spans,
    dataPoints: () => points,
    requestCount: () => requests,
    setResponseDelay(ms) {
      delayMs = ms;
    },
    failTraceExports(...statuses) {
      traceFailures.push(...statuses);
    },
    stopAnswering() {
      answering = false;
    },
    reset() {
      bodies.length = 0;
      spans.length = 0;
      points.length = 0;
    },
    close,
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    // A destroyed socket (close() during a delayed answer) ends the request without 'end'.
    req.on('error', () => resolve(Buffer.concat(chunks)));
  });
}

interface JsonTracesRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: {
        name: string;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        kind?: number;
        status?: { code?: number; message?: string };
        attributes?: KeyValue[];
        events?: { name: string; attributes?: KeyValue[] }[];
        links?: { traceId: string; spanId: string; attributes?: KeyValue[] }[];
      }[];
    }[];
  }[];
}

export function decodeJsonSpans(body: Buffer): ReceivedSpan[] {
  const request = JSON.parse(body.toString('utf8')) as JsonTracesRequest;
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = flatten(resourceSpans.resource?.attributes);
    const serviceName = resource['service.name'];
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        out.push({
          name: span.name,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          kind: span.kind ?? 0,
          statusCode: span.status?.code ?? 0,
          statusMessage: span.status?.message,
          attributes: flatten(span.attributes),
          events: (span.events ?? []).map((event) => ({
            name: event.name,
            attributes: flatten(event.attributes),
          })),
          // Only on spans with links, so that specs comparing whole spans stay as they were.
          ...(span.links?.length
            ? {
                links: span.links.map((link) => ({
                  traceId: link.traceId,
                  spanId: link.spanId,
                  attributes: flatten(link.attributes),
                })),
              }
            : {}),
          serviceName,
          resource,
        });
      }
    }
  }
  return out;
}

interface JsonMetricsRequest {
  resourceMetrics?: {
    scopeMetrics?: {
      metrics?: {
        name: string;
        histogram?: { dataPoints?: JsonDataPoint[] };
        sum?: { dataPoints?: JsonDataPoint[] };
      }[];
    }[];
  }[];
}
type JsonDataPoint = { attributes?: KeyValue[]; count?: unknown; asInt?: unknown; asDouble?: unknown };

function decodeJsonDataPoints(body: Buffer): ReceivedDataPoint[] {
  const request = JSON.parse(body.toString('utf8')) as JsonMetricsRequest;
  const out: ReceivedDataPoint[] = [];
  for (const resourceMetrics of request.resourceMetrics ?? []) {
    for (const scope of resourceMetrics.scopeMetrics ?? []) {
      for (const metric of scope.metrics ?? []) {
        for (const point of metric.histogram?.dataPoints ?? metric.sum?.dataPoints ?? []) {
          out.push({
            metric: metric.name,
            attributes: flatten(point.attributes),
            value: Number(point.count ?? point.asInt ?? point.asDouble),
          });
        }
      }
    }
  }
  return out;
}

/** Attributes as a record; arrays are what the HTTP instrumentations record headers as. */
function flatten(attributes: KeyValue[] | undefined): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const { key, value } of attributes ?? []) if (value) record[key] = anyValue(value);
  return record;
}

function anyValue(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(anyValue);
  if (value.kvlistValue) return flatten(value.kvlistValue.values);
  return value.bytesValue;
}
