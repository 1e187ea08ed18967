// The demo's agent as a long-running service, for scripts/e2e.sh: the same scripted model,
// tools and flaky service as `npm run demo`, but several rounds in one process, with a pause
// longer than the metric export interval between them. Rates over the app's own cumulative
// metrics (tool_errors_total, gen_ai_execute_tool_duration_seconds_*) need a process whose
// counters grow between two exports; each one-shot demo run is a new process whose counters
// only ever hold one value.
//
//   OTEL_METRIC_EXPORT_INTERVAL=1000 node --import otel-tool-errors/register scripts/e2e-service.mjs <rounds>
import { generateText, stepCountIs } from 'ai';
import { connectDirectoryServer } from '../examples/demo/mcp-server.mjs';
import { createScriptedModel } from '../examples/demo/scripted-model.mjs';
import { refusedPort, startFlakyService } from '../examples/demo/flaky-service.mjs';
import { createTools } from '../examples/demo/tools.mjs';

const rounds = Number(process.argv[2] || 2);
const pauseMs = 2 * Number(process.env.OTEL_METRIC_EXPORT_INTERVAL || 60_000) + 500;
const service = await startFlakyService();
const refusedUrl = `http://127.0.0.1:${await refusedPort()}`;
const directory = await connectDirectoryServer();
try {
  for (let round = 1; round <= rounds; round++) {
    await generateText({
      model: createScriptedModel(),
      tools: createTools({ serviceUrl: service.url, refusedUrl, mcpClient: directory.client }),
      prompt: 'Plan my trip to New York and catch me up on my day.',
      stopWhen: stepCountIs(2),
    });
    console.log(`e2e-service: round ${round} done`);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
} finally {
  await directory.close();
  await service.close();
}
