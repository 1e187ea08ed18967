/**
 * An agent whose tools fail in every common way, run under the zero-code register:
 *
 *   node --import otel-tool-errors/register examples/demo/agent.mjs
 *
 * It needs the flaky service's URLs in DEMO_SERVICE_URL and DEMO_REFUSED_URL; `npm run demo`
 * (examples/demo/run.mjs) starts the service and sets them. The table it prints is read from the
 * spans: the register's ToolMetricsSpanProcessor fills the in-process summary from each tool span.
 */
import { trace } from '@opentelemetry/api';
import { generateText, stepCountIs } from 'ai';
import { getToolCallSummary } from 'otel-tool-errors';
import { connectDirectoryServer } from './mcp-server.mjs';
import { createScriptedModel, TOOL_CALLS } from './scripted-model.mjs';
import { printSummaryTable } from './table.mjs';
import { createTools } from './tools.mjs';

const { DEMO_SERVICE_URL: serviceUrl, DEMO_REFUSED_URL: refusedUrl } = process.env;
if (!serviceUrl || !refusedUrl) {
  console.error('Set DEMO_SERVICE_URL and DEMO_REFUSED_URL, or run `npm run demo`.');
  process.exit(2);
}

// One span for the whole run, so that its tool calls share one trace. The tools' own spans are
// `execute_tool {name}`, one operation per tool in Jaeger's Monitor tab.
const tracer = trace.getTracer('trip-planner');
await tracer.startActiveSpan(
  'invoke_agent trip-planner',
  { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'trip-planner' } },
  async (span) => {
    const directory = await connectDirectoryServer();
    try {
      const result = await generateText({
        model: createScriptedModel(),
        tools: createTools({ serviceUrl, refusedUrl, mcpClient: directory.client }),
        prompt: 'Plan my trip to New York and catch me up on my day.',
        stopWhen: stepCountIs(2),
      });
      console.log(`Agent: ${result.text}\n`);
    } finally {
      await directory.close();
      span.end();
    }
  },
);

printSummaryTable(
  getToolCallSummary().rows(),
  TOOL_CALLS.map((call) => call.toolName),
);
