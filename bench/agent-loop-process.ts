import { LOOP_VARIANTS, startLoopVariant, timeTurns, warmUp, type LoopVariant } from './agent-loop-variant';

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

async function main(): Promise<void> {
  if (!LOOP_VARIANTS.includes(variant as LoopVariant)) {
    throw new Error(`unknown variant ${variant}; known: ${LOOP_VARIANTS.join(', ')}`);
  }
  const loop = await startLoopVariant(framework, variant as LoopVariant);
  await warmUp(loop.turn, WARMUP_MS);
  const timed = await timeTurns(loop.turn, MEASURE_MS);
  await loop.close();
  process.stdout.write(`${JSON.stringify(timed)}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
