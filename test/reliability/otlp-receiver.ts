import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A real OTLP/HTTP trace receiver on 127.0.0.1 for the reliability suites. It keeps every request
 * body exactly as the exporter sent it (so tests can search the real bytes), decodes OTLP/JSON
 * bodies into spans, and can answer slowly to play a struggling collector.
 */

export type OtlpAnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
  bytesValue?: string;
};
export type OtlpKeyValue = { key: string; value?: OtlpAnyValue };

/** One span of an OTLP/JSON export request, with its attributes flattened into a record. */
export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** 2 = ERROR in OTLP. */
  statusCode: number;
  statusMessage?: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
}

export interface OtlpReceiver {
  /** The traces endpoint: `http://127.0.0.1:<port>/v1/traces`. */
  readonly url: string;
  /** Every request body, byte for byte, in arrival order. */
  readonly bodies: Buffer[];
  /** Spans decoded from the JSON bodies received so far. */
  spans(): ReceivedSpan[];
  requestCount(): number;
  /** Answers each later request only after `ms` milliseconds (0: at once). */
  setResponseDelay(ms: number): void;
  /** Forgets the bodies and spans received so far. */
  reset(): void;
  /** Stops listening and destroys open sockets, including requests still being delayed. */
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: Buffer[] = [];
  const spans: ReceivedSpan[] = [];
  const sockets = new Set<Socket>();
  let delayMs = 0;
  let requests = 0;

  const server: Server = createServer((req, res) => {
    requests++;
    void readBody(req).then((body) => {
      bodies.push(body);
      if ((req.headers['content-type'] ?? '').includes('json')) spans.push(...decodeJsonSpans(body));
      const answer = () => {
        const json = (req.headers['content-type'] ?? '').includes('json');
        res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
        // An empty ExportTraceServiceResponse: `{}` in JSON, zero bytes in protobuf.
        res.end(json ? '{}' : undefined);
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    bodies,
    spans: () => spans,
    requestCount: () => requests,
    setResponseDelay(ms) {
      delayMs = ms;
    },
    reset() {
      bodies.length = 0;
      spans.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
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

interface JsonExportRequest {
  resourceSpans?: {
    scopeSpans?: {
      spans?: {
        name: string;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        status?: { code?: number; message?: string };
        attributes?: OtlpKeyValue[];
        events?: { name: string; attributes?: OtlpKeyValue[] }[];
      }[];
    }[];
  }[];
}

export function decodeJsonSpans(body: Buffer): ReceivedSpan[] {
  const request = JSON.parse(body.toString('utf8')) as JsonExportRequest;
  const out: ReceivedSpan[] = [];
  for (const resourceSpans of request.resourceSpans ?? []) {
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      for (const span of scopeSpans.spans ?? []) {
        out.push({
          name: span.name,
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId || undefined,
          statusCode: span.status?.code ?? 0,
          statusMessage: span.status?.message,
          attributes: flatten(span.attributes),
          events: (span.events ?? []).map((event) => ({
            name: event.name,
            attributes: flatten(event.attributes),
          })),
        });
      }
    }
  }
  return out;
}

function flatten(attributes: OtlpKeyValue[] | undefined): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const { key, value } of attributes ?? []) record[key] = anyValue(value);
  return record;
}

function anyValue(value: OtlpAnyValue | undefined): unknown {
  if (!value) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(anyValue);
  if (value.kvlistValue) return flatten(value.kvlistValue.values);
  return value.bytesValue;
}
