import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A real OTLP/HTTP receiver on 127.0.0.1 that decodes OTLP/JSON traces and metrics (exporters
 * set to `http/json`). contrib-test-utils' TestCollector takes
 * traces only and listens on every interface; this one takes both, on loopback only.
 */

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value?: AnyValue };

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** OTLP SpanKind: 2 = SERVER, 3 = CLIENT. */
  kind: number;
  /** 2 = ERROR. */
  statusCode: number;
  attributes: Record<string, unknown>;
  serviceName?: unknown;
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
  spans(): ReceivedSpan[];
  dataPoints(): ReceivedDataPoint[];
  close(): Promise<void>;
}

function flatten(attributes: KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of attributes ?? []) {
    if (value) out[key] = scalarOrArray(value);
  }
  return out;
}

/** Arrays are what the HTTP instrumentations record headers as (`http.response.header.*`). */
function scalarOrArray(value: AnyValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(scalarOrArray);
  return (
    value.stringValue ??
    value.boolValue ??
    (value.intValue !== undefined ? Number(value.intValue) : value.doubleValue)
  );
}

export async function startOtlpJsonReceiver(): Promise<OtlpJsonReceiver> {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedDataPoint[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const data = JSON.parse(body);
      if (req.url === '/v1/traces') {
        for (const resourceSpans of data.resourceSpans ?? []) {
          const serviceName = flatten(resourceSpans.resource?.attributes)['service.name'];
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                name: span.name,
                traceId: span.traceId,
                spanId: span.spanId,
                kind: span.kind ?? 0,
                parentSpanId: span.parentSpanId || undefined,
                statusCode: span.status?.code ?? 0,
                attributes: flatten(span.attributes),
                serviceName,
              });
            }
          }
        }
      } else if (req.url === '/v1/metrics') {
        for (const resourceMetrics of data.resourceMetrics ?? []) {
          for (const scope of resourceMetrics.scopeMetrics ?? []) {
            for (const metric of scope.metrics ?? []) {
              const dataPoints = metric.histogram?.dataPoints ?? metric.sum?.dataPoints ?? [];
              for (const point of dataPoints) {
                points.push({
                  metric: metric.name,
                  attributes: flatten(point.attributes),
                  value: Number(point.count ?? point.asInt ?? point.asDouble),
                });
              }
            }
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans: () => spans,
    dataPoints: () => points,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
