import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { dirname } from 'node:path';
import { startLoopVariant, timeTurns, warmUp, type LoopVariant } from '../agent-loop-variant';

/**
 * A driver to profile, not a benchmark: runs one framework's agent turn of case 9 (bench/agent-loops.ts)
 * in a loop, without the package, with the register's set-up, with the wrapper alone (`wrapper`)
 * or through the hand-written floor
 * (`floor`, the AI SDK loops), and writes a CPU profile of
 * PROFILE_SECONDS (default 10) of turns taken after PROFILE_WARMUP seconds of them (default 12: past
 * the instrumentation's one-off set-up check 10 s after it starts, and the start-up's module
 * loading), so that two profiles can be compared by where their time goes
 * (bench/profile/categories.ts):
 *
 *   node -r tsx/cjs bench/profile/loop.ts ai-sdk-v6 without .cache/prof/without.cpuprofile
 *   node -r tsx/cjs bench/profile/loop.ts ai-sdk-v6 register .cache/prof/register.cpuprofile
 *
 * Build the bundle first (`npm run bench -- agent-loops` does).
 */
const [framework = 'ai-sdk-v6', variant = 'register', out = `.cache/prof/${variant}.cpuprofile`] =
  process.argv.slice(2);
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const WARMUP = Number(process.env.PROFILE_WARMUP ?? 12);

async function main(): Promise<void> {
  // `floor`: the hand-written span per call of case 9, for the loops that have one.
  const loop = await startLoopVariant(framework, variant === 'floor' ? 'span' : (variant as LoopVariant));
  await warmUp(loop.turn, WARMUP * 1000);
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (err, result) => (err ? reject(err) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  const { calls, cpuMicros } = await timeTurns(loop.turn, SECONDS * 1000);
  const { profile } = (await post('Profiler.stop')) as { profile: object };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(profile));
  console.log(
    `${framework} ${variant}: ${calls} tool calls, ${(cpuMicros / calls) | 0} µs CPU per tool call; profile in ${out}`,
  );
  await loop.close();
  process.exit(0);
}

void main();
