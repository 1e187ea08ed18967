import { LOOP_VARIANTS, startLoopVariant, type LoopVariant } from './agent-loop-variant';
import { consume } from './tracing';

/**
 * `agent-loop-process.ts <framework> <variant>`: one variant of case 9's loop alone in this process
 * (bench/agent-loops-processes.ts starts it): LOOP_WARMUP_MS of turns (default 3000), then
 * LOOP_MEASURE_MS of turns (default 5000) timed by this process's CPU time. Both together stay
 * under the 10 s after which the instrumentation runs its one-off set-up check. Prints
 * `{ calls, cpuMicros }` as JSON.
 */
const [framework = '', variant = ''] = process.argv.slice(2);
const WARMUP_MS = Number(process.env.LOOP_WARMUP_MS ?? 3000);
const MEASURE_MS = Number(process.env.LOOP_MEASURE_MS ?? 5000);
const TOOL_CALLS_PER_TURN = 10;

async function main(): Promise<void> {
  if (!LOOP_VARIANTS.includes(variant as LoopVariant)) {
    throw new Error(`unknown variant ${variant}; known: ${LOOP_VARIANTS.join(', ')}`);
  }
  const loop = await startLoopVariant(framework, variant as LoopVariant);
  const warmUntil = Date.now() + WARMUP_MS;
  while (Date.now() < warmUntil) consume(await loop.turn());
  let turns = 0;
  const cpuStart = process.cpuUsage();
  const until = Date.now() + MEASURE_MS;
  while (Date.now() < until) {
    consume(await loop.turn());
    turns++;
  }
  const cpu = process.cpuUsage(cpuStart);
  await loop.close();
  process.stdout.write(
    `${JSON.stringify({ calls: turns * TOOL_CALLS_PER_TURN, cpuMicros: cpu.user + cpu.system })}\n`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
