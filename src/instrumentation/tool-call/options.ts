import type { Context, Span, SpanKind } from '@opentelemetry/api';
import type { ToolErrorClassification } from '../../classify/classification';
import type { HaltVerdict } from './halt-verdict';

/**
 * What an adapter tells `traceToolCall` about its framework. Each option describes the framework;
 * what the call does with it is in ToolCall's lifecycle (tool-call.ts).
 */
export interface ToolCallOptions {
  /**
   * How the framework takes the tool's outcome:
   * - `returned` (the default): `run`'s value goes back to a caller that may leave a rejected
   *   promise unhandled, so a promise is watched only once its caller reacts to it (promise-watch.ts);
   * - `awaited`: the framework awaits whatever `run` returns, so it is watched at once;
   * - `reported`: the framework reports the outcome through an event of its own (a telemetry
   *   hook, a message stream): `run` gets a `ToolCallReport` to settle the call with, and what
   *   it returns is passed through unwatched.
   */
  outcome?: 'returned' | 'awaited' | 'reported';
  /** How the framework returns an error as a result (fixed texts of its own); default `classifyToolResult`. */
  classifyResult?: (result: unknown) => ToolErrorClassification | undefined;
  /**
   * How the framework stops a call for someone else (a human's approval, another agent): what it
   * throws or what the tool returns then. Such a call ends `paused`, `denied` or `handoff`, with
   * no status, no `error.type` and no exception event.
   */
  halts?: { thrown?: HaltVerdict; returned?: HaltVerdict };
  /** The framework is a protocol whose calls have spans of their own conventions (MCP `tools/call`). */
  protocol?: ProtocolConventions;
  /** The framework's own tool span gets no exception event from it (ADK): the call records the real error there. */
  frameworkRecordsNoException?: boolean;
}

/** What a call is traced with: the adapter's options, and what the framework handed this call. */
export interface ToolCallSettings extends ToolCallOptions {
  /** The abort signal the framework handed the tool, to tell its cancel from a timeout (caller-signal.ts). */
  callerSignal?: unknown;
  /**
   * The framework's own number for this attempt of the call, where it numbers its retries
   * (LangGraph's node retries): `tool.call.attempt` then takes it (call-attempt.ts).
   */
  frameworkAttempt?: number;
}

/** A protocol's span conventions for a tool call. */
export interface ProtocolConventions {
  /** Names a span the call starts `{operation} {tool}` (capped). */
  operation: string;
  kind: SpanKind;
  /**
   * The context the request carried (a server's remote parent): the span always starts under it
   * (or under the active context when it has none), linked to the active span, and enriches none.
   */
  parent?: Context;
  /**
   * The `error.type` of a call that returned an error result, on a span the call started (MCP:
   * `tool_error`). The finer type goes to `tool.error_detail_type`.
   */
  errorResultType?: string;
  /** Adds what the protocol knows of a thrown error (a JSON-RPC code) to the span it marked. */
  onError?(span: Span, err: unknown): void;
}

/** How a framework reports a call's outcome (`outcome: 'reported'`): the first report settles the call. */
export interface ToolCallReport {
  /** The call returned `value` (classified like any result; a stream in it is watched). */
  resolve(value: unknown): void;
  /** The call failed with `reason`. */
  reject(reason: unknown): void;
}
