/**
 * Child process (see child-process-spans.ts): runs a real Google ADK agent, with a scripted model,
 * that calls three tools in one turn, and reports the exported spans. ADK traces only through the
 * global tracer provider, so this process sets one before ADK makes its first span.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  BaseLlm,
  FunctionTool,
  InMemoryRunner,
  LlmAgent,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import { z } from 'zod';
import { ToolErrorSpanProcessor } from '../../src';
import { captureDiagnostics, reportAndExit, stage } from './child-process-spans';

/** Asks for every tool at once, then answers. */
class ScriptedLlm extends BaseLlm {
  private turn = 0;
  constructor() {
    super({ model: 'scripted' });
  }
  async *generateContentAsync(_request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.turn++;
    if (this.turn === 1) {
      yield {
        content: {
          role: 'model',
          parts: [
            { functionCall: { id: 'call-1', name: 'lookup', args: {} } },
            { functionCall: { id: 'call-2', name: 'quota', args: {} } },
            { functionCall: { id: 'call-3', name: 'clock', args: {} } },
          ],
        },
      };
    } else {
      yield { content: { role: 'model', parts: [{ text: 'done' }] } };
    }
  }
  async connect(): Promise<never> {
    throw new Error('live connections are not scripted');
  }
}

async function main(): Promise<void> {
  stage('ADK loaded');
  const diagnostics = captureDiagnostics();
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new ToolErrorSpanProcessor(), new SimpleSpanProcessor(exporter)],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);

  const empty = z.object({});
  const tools = [
    new FunctionTool({
      name: 'lookup',
      description: 'Throws.',
      parameters: empty,
      execute: async () => {
        throw new Error('HTTP 503 from upstream');
      },
    }),
    new FunctionTool({
      name: 'quota',
      description: 'Returns an error result (the ADK { status, error_message } contract).',
      parameters: empty,
      execute: async () => ({ status: 'error', error_message: 'Quota exceeded for this project' }),
    }),
    new FunctionTool({
      name: 'clock',
      description: 'Works.',
      parameters: empty,
      execute: async () => ({ now: '12:00' }),
    }),
  ];
  const agent = new LlmAgent({
    name: 'agent',
    model: new ScriptedLlm(),
    tools,
    instruction: 'Use the tools.',
  });
  stage('agent made');
  const runner = new InMemoryRunner({ agent, appName: 'adk-fixture' });
  // Running the generator to its end runs the agent.
  for await (const event of runner.runEphemeral({
    userId: 'u',
    newMessage: { role: 'user', parts: [{ text: 'go' }] },
  })) {
    stage(`event from ${event.author ?? 'unknown'}`);
    if (event.errorCode)
      throw new Error(`the agent run failed: ${event.errorCode} ${event.errorMessage ?? ''}`);
  }
  stage('agent run ended');
  reportAndExit(exporter.getFinishedSpans(), diagnostics);
}

void main();
