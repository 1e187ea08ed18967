import { logger } from '../../logger';
import type { ToolCallHalt } from '../../semconv';

/** An adapter's reading of a thrown or returned value: did the framework stop the call, and how. */
export type HaltVerdict = (value: unknown) => ToolCallHalt | undefined;

/** The verdict on `value`; none when there is no verdict or it throws (reported through `diag`). */
export function haltOf(verdict: HaltVerdict | undefined, value: unknown): ToolCallHalt | undefined {
  if (verdict === undefined) return undefined;
  try {
    return verdict(value);
  } catch (err) {
    logger.error('could not tell whether the framework stopped the tool call', err);
    return undefined;
  }
}
