import type { ToolCallOptions } from '../../tool-call/options';
import type { AdapterContext } from '../adapter';
import { stepContentToRead } from './ai-sdk-step-reader';

/**
 * The calls an AI SDK approval step decides about before `execute` (`needsApproval`), which never
 * reach a tool: one span each, so that approvals asked and refused show per tool. The same parts
 * in v6 and v7: a step's `tool-approval-request` (the call waits for the app's answer: `paused`),
 * and in the next call's prompt a `tool-approval-response` with `approved: false` for a request
 * of an earlier assistant message that has no result yet, which the SDK answers with an
 * `execution-denied` result (`denied`). An approved call runs `execute` and gets its own span.
 * v7's `toolApproval` policy answers in the step itself: an automatic `tool-approval-response`
 * with `approved: false` is `denied` too.
 */

interface ToolCallLike {
  toolName?: unknown;
  toolCallId?: unknown;
  input?: unknown;
  providerExecuted?: unknown;
}

interface PartLike extends ToolCallLike {
  type?: unknown;
  approvalId?: unknown;
  approved?: unknown;
  isAutomatic?: unknown;
  toolCall?: ToolCallLike;
}

/**
 * Refused approvals already traced, by approval id: `ai@6` also calls the global telemetry
 * integrations, so the v6 wrapper and the v7 integration both see one prompt, and so do the
 * wrappers and integrations of every instance. One set per module: the SDK makes each approval id,
 * and one span per refusal is what each instance would make alone. The newest few.
 */
const tracedRefusals = new Set<unknown>();
const MAX_TRACED_REFUSALS = 1024;

const PAUSED: ToolCallOptions = { halts: { returned: () => 'paused' } };
const DENIED: ToolCallOptions = { halts: { returned: () => 'denied' } };

/** A `paused` span per approval the finished step asks for; a `denied` one per automatic refusal in it. */
export function traceApprovalRequests(ctx: AdapterContext, step: unknown): void {
  try {
    const content = stepContentToRead(ctx, step);
    if (content === undefined) return;
    for (const part of content as PartLike[]) {
      // An automatic answer (v7 `toolApproval`) asks nobody: no pause.
      if (part?.type === 'tool-approval-request' && part.isAutomatic !== true)
        traceUndecided(ctx, part.toolCall, PAUSED);
      else if (part?.type === 'tool-approval-response' && part.approved === false && firstRefusal(part))
        traceUndecided(ctx, part.toolCall, DENIED);
    }
  } catch {
    // A step shape we do not know: nothing to record.
  }
}

/** A `denied` span per approval the prompt's last message refuses. */
export function traceDeniedApprovals(ctx: AdapterContext, messages: unknown): void {
  if (!ctx.isEnabled() || !Array.isArray(messages) || messages.length === 0) return;
  try {
    const last = partsOf(messages[messages.length - 1]);
    const refused = last.filter((part) => part.type === 'tool-approval-response' && part.approved === false);
    if (refused.length === 0) return;
    const answered = new Set(
      last.filter((part) => part.type === 'tool-result').map((part) => part.toolCallId),
    );
    const calls = new Map<unknown, ToolCallLike>();
    const requests = new Map<unknown, unknown>();
    for (const message of messages) {
      for (const part of partsOf(message)) {
        if (part.type === 'tool-call') calls.set(part.toolCallId, part);
        else if (part.type === 'tool-approval-request') requests.set(part.approvalId, part.toolCallId);
      }
    }
    const traced = new Set<unknown>();
    for (const response of refused) {
      const callId = requests.get(response.approvalId);
      if (callId === undefined || answered.has(callId) || traced.has(callId)) continue;
      if (!firstRefusal(response)) continue;
      traced.add(callId);
      traceUndecided(ctx, calls.get(callId), DENIED);
    }
  } catch {
    // A prompt shape we do not know: nothing to record.
  }
}

/** Whether this refusal was not traced yet (the same approval can be seen twice, see tracedRefusals). */
function firstRefusal(part: PartLike): boolean {
  if (tracedRefusals.has(part.approvalId)) return false;
  tracedRefusals.add(part.approvalId);
  if (tracedRefusals.size > MAX_TRACED_REFUSALS) tracedRefusals.delete(tracedRefusals.values().next().value);
  return true;
}

function partsOf(message: unknown): PartLike[] {
  const content = (message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? (content as PartLike[]).filter((part) => part !== null) : [];
}

/** A span for a call the tool never saw, ended at once with its outcome. */
function traceUndecided(ctx: AdapterContext, call: ToolCallLike | undefined, outcome: ToolCallOptions): void {
  if (typeof call?.toolName !== 'string') return;
  ctx.traceToolCall(
    {
      name: call.toolName,
      callId: call.toolCallId,
      type: call.providerExecuted === true ? 'extension' : 'function',
      args: call.input,
    },
    () => undefined,
    outcome,
  );
}
