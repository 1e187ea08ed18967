/**
 * Child process: an AI SDK v6 agent traced by `@vercel/otel` as a Next.js app's instrumentation.ts
 * sets it up, with this package's processors in its `spanProcessors` after `'auto'` (the order a
 * user writes first). @vercel/otel bundles its own SDK, whose spans never call `onEnding`. Its
 * `'auto'` processors export OTLP to OTEL_EXPORTER_OTLP_ENDPOINT. `lookup` calls a real API that
 * answers 503 with axios, `search` with fetch (a key in the query), `clock` works. With
 * ENRICHING_EXPORTER=1, as docs/deployment.md sets it up: the trace exporter (to TRACES_URL) wrapped
 * in `ToolErrorEnrichingExporter`, which reads the fetch spans that end after their tool span.
 */
import { OTLPHttpJsonTraceExporter, registerOTel } from '@vercel/otel';
import { trace } from '@opentelemetry/api';
import { generateText, stepCountIs, tool } from 'ai';
import axios from 'axios';
import { z } from 'zod';
import {
  RedactingSpanProcessor,
  ToolErrorEnrichingExporter,
  ToolErrorSpanProcessor,
} from '../../src/index.js';
import { modelCallingEach } from './scripted-agent.js';

registerOTel(
  process.env.ENRICHING_EXPORTER === '1'
    ? {
        serviceName: 'vercel-otel-app',
        spanProcessors: [new RedactingSpanProcessor(), new ToolErrorSpanProcessor(), 'auto'],
        traceExporter: new ToolErrorEnrichingExporter(
          new OTLPHttpJsonTraceExporter({ url: process.env.TRACES_URL }),
        ),
      }
    : {
        serviceName: 'vercel-otel-app',
        spanProcessors: ['auto', new RedactingSpanProcessor(), new ToolErrorSpanProcessor()],
      },
);
const api = process.env.FLAKY_URL!;
const noInput = z.object({});
const { text } = await generateText({
  model: modelCallingEach({ lookup: {}, search: {}, clock: {} }),
  prompt: 'go',
  tools: {
    lookup: tool({
      inputSchema: noInput,
      execute: async () => (await axios.get(`${api}/503`)).data as unknown,
    }),
    search: tool({
      inputSchema: noInput,
      execute: async () => {
        const response = await fetch(`${api}/500?api_key=sk-live-fixture`);
        if (!response.ok) throw new Error('search failed');
        return response.text();
      },
    }),
    clock: tool({ inputSchema: noInput, execute: async () => '12:00' }),
  },
  stopWhen: stepCountIs(3),
  experimental_telemetry: { isEnabled: true },
});
console.log(`app: ${text}`);
const provider = trace.getTracerProvider() as { getDelegate?: () => { forceFlush?: () => Promise<void> } };
await provider.getDelegate?.().forceFlush?.();
