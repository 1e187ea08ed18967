import type { ToolCallReport } from '../tool-call/options';
import type { AdapterContext, FrameworkAdapter } from './adapter';
import { traceApprovalRequests, traceDeniedApprovals } from './shared/ai-sdk-approvals';
import { traceRejectedCalls } from './shared/ai-sdk-rejected-calls';

/**
 * Vercel AI SDK v7 (ESM-only). No patching: the adapter is a telemetry integration, the same kind
 * of object `registerTelemetry()` takes. `registerTelemetry` keeps integrations on a process-global
 * array, which every copy of `ai@7` reads whatever name it was installed under; the adapter puts
 * itself FIRST there, so its `executeTool` wrapper is the innermost one: when `@ai-sdk/otel` is
 * registered, its `execute_tool` span is already active and gets enriched rather than duplicated.
 *
 * - `executeTool` runs the tool in the span's context and sees what it throws;
 * - `onToolExecutionEnd` brings the output, so returned error results are classified too, before
 *   `@ai-sdk/otel` ends its span (integrations are called in array order);
 * - `onStepEnd` records the calls the SDK rejected before `execute` (unknown tool, invalid input)
 *   and those waiting for approval (`paused`); `onStart` those whose approval the prompt refuses
 *   (`denied`, see ai-sdk-approvals.ts).
 *
 * Limits: a call with its own `telemetry.integrations` replaces the global ones, this one included;
 * a call with `telemetry.isEnabled: false` runs no integration at all.
 */
const REGISTRY = 'AI_SDK_TELEMETRY_INTEGRATIONS';
const SUPPORTED = ['>=7.0.0 <8'];
/**
 * Nothing to patch, but `ai` is declared all the same: so that its release is judged and reported
 * like any framework's, and the v6 adapter leaves `ai` 7 to this one. A release without
 * `registerTelemetry` no longer reads the integrations this adapter relies on.
 */
const JUDGED_ONLY = {
  patch: () => undefined,
  unpatch: () => undefined,
  expects: { functions: ['registerTelemetry'] },
};

interface ToolCallEvent {
  callId?: unknown;
  toolCallId?: unknown;
  toolCall?: { toolName?: unknown; toolCallId?: unknown; input?: unknown; providerExecuted?: unknown };
  execute: () => Promise<unknown>;
}

interface ToolEndEvent {
  callId?: unknown;
  toolCall?: { toolCallId?: unknown };
  toolOutput?: { type?: unknown; output?: unknown; error?: unknown };
}

export const aiSdkV7Adapter: FrameworkAdapter = {
  name: 'ai-sdk-v7',
  ownToolSpans: "`@ai-sdk/otel`'s `execute_tool` spans",
  setup(ctx) {
    const pending = new Map<string, ToolCallReport>();
    const integration = {
      executeTool: (event: ToolCallEvent) => executeTool(ctx, pending, event),
      onToolExecutionEnd(event: ToolEndEvent) {
        const key = keyOf(event.callId, event.toolCall?.toolCallId);
        const outcome = pending.get(key);
        const output = event.toolOutput;
        if (!outcome || !output) return;
        pending.delete(key);
        if (output.type === 'tool-error') outcome.reject(output.error);
        else if (output.type === 'tool-result') outcome.resolve(output.output);
      },
      onStart: (event: { messages?: unknown }) => traceDeniedApprovals(ctx, event?.messages),
      onStepEnd(event: unknown) {
        traceRejectedCalls(ctx, event);
        traceApprovalRequests(ctx, event);
      },
    };
    const registry = (): unknown[] => {
      const store = globalThis as Record<string, unknown>;
      if (!Array.isArray(store[REGISTRY])) store[REGISTRY] = [];
      return store[REGISTRY] as unknown[];
    };
    return {
      modules: [ctx.patchPackage('ai', SUPPORTED, JUDGED_ONLY)],
      enable() {
        const integrations = registry();
        if (!integrations.includes(integration)) integrations.unshift(integration);
      },
      disable() {
        const integrations = registry();
        const index = integrations.indexOf(integration);
        if (index >= 0) integrations.splice(index, 1);
      },
    };
  },
};

function executeTool(ctx: AdapterContext, pending: Map<string, ToolCallReport>, event: ToolCallEvent) {
  const { toolCall, execute } = event;
  if (!ctx.isEnabled() || typeof toolCall?.toolName !== 'string') return execute();
  const key = keyOf(event.callId, event.toolCallId);
  return ctx.traceToolCall(
    {
      name: toolCall.toolName,
      callId: event.toolCallId,
      type: toolCall.providerExecuted ? 'extension' : 'function',
      args: toolCall.input,
    },
    (outcome) => {
      pending.set(key, outcome);
      const run = execute();
      // Fallback when onToolExecutionEnd brings no output (telemetry that hides outputs).
      run.then(
        () => setImmediate(() => settleLate(pending, key, outcome, undefined, false)),
        (err: unknown) => setImmediate(() => settleLate(pending, key, outcome, err, true)),
      );
      return run;
    },
    // The span settles with the output onToolExecutionEnd brings, inside that event, before
    // `@ai-sdk/otel` ends its span; `execute` itself resolves to nothing.
    { outcome: 'reported' },
  );
}

function settleLate(
  pending: Map<string, ToolCallReport>,
  key: string,
  outcome: ToolCallReport,
  value: unknown,
  failed: boolean,
): void {
  if (pending.get(key) !== outcome) return;
  pending.delete(key);
  if (failed) outcome.reject(value);
  else outcome.resolve(value);
}

function keyOf(callId: unknown, toolCallId: unknown): string {
  return `${String(callId)}\u0000${String(toolCallId)}`;
}
