/**
 * Child process (see child-process-spans.ts): OpenInference's LangChain instrumentation and this
 * package's ToolInstrumentation and processor together on real LangChain tools. OpenInference
 * patches LangChain's CallbackManager for good, which is why this runs in its own process.
 */
import { createRequire } from 'node:module';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { LangChainInstrumentation as OpenInferenceLangChain } from '@arizeai/openinference-instrumentation-langchain';
import { z } from 'zod';
import { ToolErrorSpanProcessor, ToolInstrumentation } from '../../src';
import { captureDiagnostics, reportAndExit } from './child-process-spans';

const load = createRequire(__filename);

async function main(): Promise<void> {
  const diagnostics = captureDiagnostics();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({
    spanProcessors: [new ToolErrorSpanProcessor(), new SimpleSpanProcessor(exporter)],
  });
  const ours = new ToolInstrumentation();
  ours.setTracerProvider(provider);
  const openInference = new OpenInferenceLangChain({ tracerProvider: provider });
  // The module object require returns, as require-in-the-middle hands it to both instrumentations.
  openInference.manuallyInstrument(load('@langchain/core/callbacks/manager'));
  const { tool } = load('@langchain/core/tools');

  const schema = z.object({ q: z.string() });
  const refused = tool(
    async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    },
    { name: 'refused', description: 'Cannot connect.', schema },
  );
  const works = tool(async () => 'sunny', { name: 'works', description: 'Works.', schema });

  await refused.invoke({ q: 'a' }).catch(() => undefined);
  await works.invoke({ q: 'a' });
  // OpenInference ends its spans from LangChain's callback queue (the copy the tools came from).
  await load('@langchain/core/callbacks/promises').awaitAllCallbacks();
  reportAndExit(exporter.getFinishedSpans(), diagnostics);
}

void main();
