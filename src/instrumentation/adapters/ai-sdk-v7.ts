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
  packages: [{ name: 'ai', tested: ['>=7.0.0 <8'] }],
  globals: [REGISTRY],
  ownToolSpans: "`@ai-sdk/otel`'s `execute_tool` spans",
  setup(ctx) {
    const pending = new PendingCalls();
    const integration = {
      executeTool: (event: ToolCallEvent) => executeTool(ctx, pending, event),
      onToolExecutionEnd(event: ToolEndEvent) {
        const call = pending.take(event.callId, event.toolCall?.toolCallId);
        if (!call) return;
        const output = event.toolOutput;
        // The error as `execute` rejected with it: telemetry that hides outputs (`recordOutputs:
        // false`) sends the event's copy as undefined. A result comes only with the event.
        if (call.ran?.failed) call.report.reject(call.ran.value);
        else if (output?.type === 'tool-error') call.report.reject(output.error);
        else call.report.resolve(output?.type === 'tool-result' ? output.output : undefined);
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
      modules: [ctx.patchPackage('ai', JUDGED_ONLY)],
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

/** A call waiting for the `onToolExecutionEnd` that brings its output. */
interface PendingCall {
  report: ToolCallReport;
  /** How the SDK's `execute` settled, once it has. */
  ran?: { failed: boolean; value: unknown };
}

/**
 * The calls awaiting their `onToolExecutionEnd`, by the SDK's call id (one `generateText` or
 * `streamText`) and the tool call's id, the SDK's own strings as keys. A call whose event never
 * comes (a release or a code path that sends none) is settled from how `execute` ended, by one
 * sweep after the tick: the sweep holds the maps, never a call, so a loop that does not yield to
 * the event loop (a scripted model's turns) keeps no ended call alive.
 */
class PendingCalls {
  private readonly calls = new Map<unknown, Map<unknown, PendingCall>>();
  private sweepScheduled = false;

  add(callId: unknown, toolCallId: unknown, call: PendingCall): void {
    let ofCall = this.calls.get(callId);
    if (ofCall === undefined) this.calls.set(callId, (ofCall = new Map()));
    ofCall.set(toolCallId, call);
  }

  take(callId: unknown, toolCallId: unknown): PendingCall | undefined {
    const ofCall = this.calls.get(callId);
    const call = ofCall?.get(toolCallId);
    if (call !== undefined) this.forget(callId, ofCall!, toolCallId);
    return call;
  }

  /** `execute` settled: if its event does not come within the tick, the sweep settles the call. */
  ran(): void {
    if (this.sweepScheduled) return;
    this.sweepScheduled = true;
    setImmediate(() => {
      this.sweepScheduled = false;
      for (const [callId, ofCall] of this.calls) {
        for (const [toolCallId, call] of ofCall) {
          if (call.ran === undefined) continue;
          this.forget(callId, ofCall, toolCallId);
          settleFromRun(call);
        }
      }
    });
  }

  private forget(callId: unknown, ofCall: Map<unknown, PendingCall>, toolCallId: unknown): void {
    ofCall.delete(toolCallId);
    if (ofCall.size === 0) this.calls.delete(callId);
  }
}

function settleFromRun(call: PendingCall): void {
  if (call.ran?.failed) call.report.reject(call.ran.value);
  else call.report.resolve(undefined);
}

function executeTool(ctx: AdapterContext, pending: PendingCalls, event: ToolCallEvent) {
  const { toolCall, execute } = event;
  if (!ctx.isEnabled() || typeof toolCall?.toolName !== 'string') return execute();
  return ctx.traceToolCall(
    {
      name: toolCall.toolName,
      callId: event.toolCallId,
      type: toolCall.providerExecuted ? 'extension' : 'function',
      args: toolCall.input,
    },
    (report) => {
      const call: PendingCall = { report };
      pending.add(event.callId, event.toolCallId, call);
      const run = execute();
      // Reacting first, before the SDK's own `await`: known by the time its event comes.
      run.then(
        () => ((call.ran = { failed: false, value: undefined }), pending.ran()),
        (err: unknown) => ((call.ran = { failed: true, value: err }), pending.ran()),
      );
      return run;
    },
    // The span settles with the output onToolExecutionEnd brings, inside that event, before
    // `@ai-sdk/otel` ends its span; `execute` itself resolves to nothing.
    { outcome: 'reported' },
  );
}
