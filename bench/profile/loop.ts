import { loadPackage } from '../subject';
import { FRAMEWORKS, upstreamErrors } from '../agent-loops';
import { startFlakyServer } from '../../test/helpers/flaky-server';
import { batchProvider, consume, registerMeterProvider } from '../tracing';

/**
 * A driver to profile, not a benchmark: runs one framework's agent turn of case 9 (bench/agent-loops.ts)
 * in a loop for PROFILE_SECONDS (default 10), without the package or with the register's set-up,
 * so that two CPU profiles can be compared by where their time goes (bench/profile/categories.ts):
 *
 *   node --cpu-prof --cpu-prof-dir=.cache/prof/without -r tsx/cjs bench/profile/loop.ts ai-sdk-v6 without
 *   node --cpu-prof --cpu-prof-dir=.cache/prof/register -r tsx/cjs bench/profile/loop.ts ai-sdk-v6 register
 *
 * Build the bundle first (`npm run bench -- agent-loops` does).
 */
const [framework = 'ai-sdk-v6', variant = 'register'] = process.argv.slice(2);
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);

async function main(): Promise<void> {
  const { RedactingSpanProcessor, ToolErrorSpanProcessor, ToolInstrumentation, ToolMetricsSpanProcessor } =
    loadPackage();
  registerMeterProvider();
  const { provider } = batchProvider(
    variant === 'register'
      ? [new RedactingSpanProcessor(), new ToolErrorSpanProcessor(), new ToolMetricsSpanProcessor()]
      : [],
  );
  const instrumentation = new ToolInstrumentation();
  instrumentation.setTracerProvider(provider);
  if (variant === 'without') instrumentation.disable();
  const server = await startFlakyServer();
  const loop = await FRAMEWORKS[framework]!.loop(await upstreamErrors(server));
  let turns = 0;
  const cpuStart = process.cpuUsage();
  const until = Date.now() + SECONDS * 1000;
  while (Date.now() < until) {
    consume(await loop.turn());
    turns++;
  }
  const cpu = process.cpuUsage(cpuStart);
  console.log(
    `${framework} ${variant}: ${turns} turns, ${((cpu.user + cpu.system) / turns / 10) | 0} µs CPU per tool call`,
  );
  await loop.close?.();
  await server.close();
  process.exit(0);
}

void main();
