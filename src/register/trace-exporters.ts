import { OTLPTraceExporter as OtlpGrpcExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { OtlpProtocol, RegisterSettings } from './settings';

function otlpExporter(protocol: OtlpProtocol): SpanExporter {
  // Each exporter reads its endpoint, headers, timeout and compression from the OTEL_EXPORTER_OTLP_* variables.
  switch (protocol) {
    case 'grpc':
      return new OtlpGrpcExporter();
    case 'http/json':
      return new OtlpJsonExporter();
    case 'http/protobuf':
      return new OtlpProtoExporter();
  }
}

/**
 * The exporting processors NodeSDK would have built from `OTEL_TRACES_EXPORTER`. We build them
 * ourselves because passing `spanProcessors` to NodeSDK (to add ours) drops its env-configured ones.
 */
export function exportingSpanProcessors(settings: RegisterSettings): SpanProcessor[] {
  return settings.tracesExporters.map((name) =>
    name === 'console'
      ? new SimpleSpanProcessor(new ConsoleSpanExporter())
      : // Reads OTEL_BSP_* for its queue, batch size, delay and timeout.
        new BatchSpanProcessor(otlpExporter(settings.tracesProtocol)),
  );
}
