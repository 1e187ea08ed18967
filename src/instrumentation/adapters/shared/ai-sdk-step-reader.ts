import type { AdapterContext } from '../adapter';

/**
 * Which instance reads each finished AI SDK step, by the step's `content`. With two instances
 * enabled, each one's `onStepFinish` wrapper (v6) or telemetry integration (v7) gets the step: the
 * first to ask reads it and the others leave it, so a call the SDK decided without its tool
 * (rejected, or waiting for approval) gets one span. v7 hands each integration a copy of the step
 * event, but the same `content` array. One map per module, since it decides between instances.
 */
const readers = new WeakMap<object, AdapterContext>();

/** The step's `content`, when this enabled instance is the one to read it. */
export function stepContentToRead(ctx: AdapterContext, step: unknown): unknown[] | undefined {
  if (!ctx.isEnabled()) return undefined;
  const content = (step as { content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return undefined;
  const reader = readers.get(content);
  if (reader === undefined) readers.set(content, ctx);
  return reader === undefined || reader === ctx ? content : undefined;
}
