/**
 * Child process (see child-process-spans.ts): runs a real VoltAgent agent, with the AI SDK's mock
 * model, whose tools throw, return an MCP error result, and work. VoltAgent builds and registers its
 * own tracer provider from the span processors it is given.
 *
 * `filtered` keeps VoltAgent's default span filter, which wraps every processor in a
 * SpanFilterProcessor that forwards onStart and onEnd but not onEnding: the processor marks spans
 * in onEnd. `filtered-exporter` marks them with ToolErrorEnrichingExporter instead, and no
 * processor. `unfiltered` turns the filter off.
 */
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { ToolErrorEnrichingExporter, ToolErrorSpanProcessor } from '../../src';
import { captureDiagnostics, reportAndExit } from './child-process-spans';
import { modelCallingEach } from './scripted-agent';

async function main(): Promise<void> {
  const variant = process.argv[2];
  // VoltAgent refreshes a model registry over the network at import unless NODE_ENV is production.
  process.env.NODE_ENV = 'production';
  const { Agent, VoltAgent, VoltAgentObservability, createTool } = await import('@voltagent/core');
  const diagnostics = captureDiagnostics();

  const exporter = new InMemorySpanExporter();
  const observability = new VoltAgentObservability({
    spanProcessors:
      variant === 'filtered-exporter'
        ? [new SimpleSpanProcessor(new ToolErrorEnrichingExporter(exporter))]
        : [new ToolErrorSpanProcessor(), new SimpleSpanProcessor(exporter)],
    ...(variant === 'unfiltered' ? { spanFilters: { enabled: false } } : {}),
    voltOpsSync: { sampling: { strategy: 'never' } },
  });

  const model = modelCallingEach({ lookup: {}, mcp: {}, clock: {} });
  const empty = z.object({});
  const tools = [
    createTool({
      name: 'lookup',
      description: 'Throws what axios throws for a 503.',
      parameters: empty,
      execute: async () => {
        throw new Error('Request failed with status code 503');
      },
    }),
    createTool({
      name: 'mcp',
      description: 'Returns an MCP error result.',
      parameters: empty,
      execute: async () => ({
        isError: true,
        content: [{ type: 'text', text: 'MCP error -32602: Tool search not found' }],
      }),
    }),
    createTool({
      name: 'clock',
      description: 'Works.',
      parameters: empty,
      execute: async () => ({ now: '12:00' }),
    }),
  ];
  const agent = new Agent({ name: 'agent', instructions: 'Use the tools.', model, tools });
  // Registering the observability with VoltAgent makes it the one every agent traces to.
  new VoltAgent({ agents: { agent }, observability });
  await agent.generateText('go', { maxSteps: 3 });
  await observability.forceFlush();
  reportAndExit(exporter.getFinishedSpans(), diagnostics);
}

void main();
