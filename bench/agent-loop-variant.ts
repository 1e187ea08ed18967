import { loadPackage } from './subject';
import { FRAMEWORKS, TOOL_CALLS, upstreamErrors, type Floor } from './agent-loops';
import { startFlakyServer } from '../test/helpers/flaky-server';
import { batchProvider, consume, registerMeterProvider } from './tracing';

/**
 * How one process runs case 9's loop: without the package, with the wrapper alone, with the
 * register's set-up, or through a hand-written floor (the loops that have one).
 */
export type LoopVariant = 'without' | 'wrapper' | 'register' | Floor;

export const LOOP_VARIANTS: readonly LoopVariant[] = [
  'without',
  'wrapper',
  'register',
  'span',
  'span+metric',
];

/** One framework's agent loop of case 9, set up as `variant` for the rest of this process. */
export async function startLoopVariant(
  framework: string,
  variant: LoopVariant,
): Promise<{ turn: () => Promise<unknown>; close: () => Promise<void> }> {
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
  if (variant !== 'register' && variant !== 'wrapper') instrumentation.disable();
  const server = await startFlakyServer();
  const loop = await FRAMEWORKS[framework]!.loop(await upstreamErrors(server), provider);
  if (variant === 'span' || variant === 'span+metric') {
    if (!loop.floor) throw new Error(`${framework} has no floor`);
    loop.floor(variant);
  }
  return {
    turn: loop.turn,
    close: async () => {
      await loop.close?.();
      await server.close();
    },
  };
}

type Turns = () => Promise<unknown>;

/** Runs turns for `ms` milliseconds, untimed: the JIT and the caches settle. */
export async function warmUp(turn: Turns, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) consume(await turn());
}

/** Runs turns for `ms` milliseconds: the tool calls made and this process's CPU time for them. */
export async function timeTurns(turn: Turns, ms: number): Promise<{ calls: number; cpuMicros: number }> {
  let turns = 0;
  const cpuStart = process.cpuUsage();
  const until = Date.now() + ms;
  while (Date.now() < until) {
    consume(await turn());
    turns++;
  }
  const cpu = process.cpuUsage(cpuStart);
  return { calls: turns * TOOL_CALLS, cpuMicros: cpu.user + cpu.system };
}
