import type { AdapterContext } from '../adapter';
import { stepContentToRead } from './ai-sdk-step-reader';

/** A part of an AI SDK step's `content` (v6 `onStepFinish`, v7 `onStepEnd`). */
interface ToolCallPart {
  type?: unknown;
  toolName?: unknown;
  toolCallId?: unknown;
  input?: unknown;
  invalid?: unknown;
  error?: unknown;
}

/**
 * One failed span per tool call the AI SDK rejected before `execute` (unknown tool, invalid
 * input), read from a finished step. The same in v6 and v7.
 */
export function traceRejectedCalls(ctx: AdapterContext, step: unknown): void {
  try {
    const content = stepContentToRead(ctx, step);
    if (content === undefined) return;
    for (const part of content as ToolCallPart[]) {
      if (part?.type !== 'tool-call' || part.invalid !== true || typeof part.toolName !== 'string') continue;
      const fields = {
        name: part.toolName,
        callId: part.toolCallId,
        type: 'function' as const,
        args: part.input,
      };
      try {
        ctx.traceToolCall(fields, () => {
          throw part.error;
        });
      } catch {
        // The rethrown SDK error: it was already handled by the SDK, the span is all we wanted.
      }
    }
  } catch {
    // A step shape we do not know: nothing to record.
  }
}
