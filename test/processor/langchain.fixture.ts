/**
 * Child process (see child-process-spans.ts): LangChain tools traced by the two LangChain
 * instrumentations at once. OpenInference makes `openinference.span.kind=TOOL` spans; OpenLLMetry
 * (Traceloop) makes `execute_tool {name}` spans and patches LangChain's CallbackManager for good,
 * which is why this runs in its own process.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { LangChainInstrumentation as OpenInferenceLangChain } from '@arizeai/openinference-instrumentation-langchain';
import { LangChainInstrumentation as TraceloopLangChain } from '@traceloop/instrumentation-langchain';
import * as CallbackManagerModule from '@langchain/core/callbacks/manager';
import { awaitAllCallbacks } from '@langchain/core/callbacks/promises';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { ToolErrorSpanProcessor } from '../../src';
import { captureDiagnostics, reportAndExit } from './child-process-spans';

async function main(): Promise<void> {
  const diagnostics = captureDiagnostics();
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new ToolErrorSpanProcessor(), new SimpleSpanProcessor(exporter)],
  });
  const openInference = new OpenInferenceLangChain({ tracerProvider: provider });
  openInference.manuallyInstrument(CallbackManagerModule);
  const traceloop = new TraceloopLangChain();
  traceloop.setTracerProvider(provider);

  const schema = z.object({ q: z.string() });
  const refused = tool(
    async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    },
    { name: 'refused', description: 'Cannot connect.', schema },
  );
  const mcp = tool(
    async () =>
      JSON.stringify({ isError: true, content: [{ type: 'text', text: 'Unauthorized: invalid API key' }] }),
    { name: 'mcp', description: 'Returns an MCP error result.', schema },
  );
  const works = tool(async () => 'sunny', { name: 'works', description: 'Works.', schema });
  const leaky = tool(
    async () => {
      throw new Error('upstream said {"access_token":"at8Hq2kWm5"} with glpat-xK9mQ2vR7tYpL4nW8sZe');
    },
    { name: 'leaky', description: 'Fails with secrets in its error.', schema },
  );

  await refused.invoke({ q: 'a' }).catch(() => undefined);
  await mcp.invoke({ q: 'a' });
  await works.invoke({ q: 'a' });
  await leaky.invoke({ q: 'a' }).catch(() => undefined);
  // Both instrumentations end their spans from LangChain's callback queue.
  await awaitAllCallbacks();
  reportAndExit(exporter.getFinishedSpans(), diagnostics);
}

void main();
