import { registerOTel } from '@vercel/otel';
import { RedactingSpanProcessor, ToolErrorSpanProcessor } from 'otel-tool-errors';

export function register() {
  registerOTel({
    serviceName: 'next-agent',
    // Listed before 'auto', so every exporter sees the spans they mark and redact.
    spanProcessors: [new RedactingSpanProcessor(), new ToolErrorSpanProcessor(), 'auto'],
    // The Retry-After of a failed call tells a rate limit (retry later) from a spent quota.
    instrumentationConfig: {
      fetch: { attributesFromResponseHeaders: { 'http.response.header.retry-after': 'retry-after' } },
    },
  });
}
