import { boundErrorType } from '../classify/error-type';
import { isToolErrorKind, type ToolErrorKind } from '../classify/kinds';
import { ERROR_TYPE_VALUE_OTHER, type ToolCallHalt } from '../semconv';
import { BoundedValues } from './bounded-values';

/** One finished tool call, as read from its span. */
export interface ToolCallRecord {
  readonly toolName: string;
  readonly durationSeconds: number;
  /** Set for failed calls only. */
  readonly errorType?: string;
  readonly errorKind?: string;
  readonly retryable?: boolean;
  /** Set when the framework stopped the call (`tool.call.outcome`): it then counts as no failure. */
  readonly halt?: ToolCallHalt;
}

/** The calls that share a tool name, an outcome, an `error.type` and a `tool.error_kind`. */
export interface ToolCallSummaryRow {
  readonly toolName: string;
  /** `paused`, `denied` or `handoff`: the framework stopped the call (`tool.call.outcome`). */
  readonly outcome: 'ok' | 'error' | ToolCallHalt;
  readonly errorType?: string;
  /** A taxonomy kind, `_OTHER` for a foreign value, absent when the span had none. */
  readonly errorKind?: ToolErrorKind | typeof ERROR_TYPE_VALUE_OTHER;
  readonly retryable?: boolean;
  readonly calls: number;
  readonly totalDurationSeconds: number;
  readonly maxDurationSeconds: number;
}

export interface ToolCallSummaryOptions {
  /** Distinct tool names kept before further ones count as `_OTHER`. Default 100. */
  maxToolNames?: number;
}

type MutableRow = { -readonly [K in keyof ToolCallSummaryRow]: ToolCallSummaryRow[K] };

/**
 * Counts tool calls in process, by tool and `error.type`, for apps and tests that want the numbers
 * without a metrics backend. Bounded: tool names are capped, `error.type` shares the process-wide
 * cap the spans use, and kinds come from the fixed taxonomy. It keeps no messages or arguments, so
 * nothing sensitive accumulates.
 */
export class ToolCallSummary {
  private readonly byKey = new Map<string, MutableRow>();
  private readonly toolNames: BoundedValues;

  constructor(options: ToolCallSummaryOptions = {}) {
    this.toolNames = new BoundedValues(options.maxToolNames ?? 100, 'ToolCallSummary maxToolNames');
  }

  record(call: ToolCallRecord): void {
    const toolName = this.toolNames.admit(call.toolName);
    const failed = call.halt === undefined && (call.errorType !== undefined || call.errorKind !== undefined);
    const errorType = failed ? boundErrorType(call.errorType ?? ERROR_TYPE_VALUE_OTHER) : undefined;
    const errorKind =
      !failed || call.errorKind === undefined
        ? undefined
        : isToolErrorKind(call.errorKind)
          ? call.errorKind
          : ERROR_TYPE_VALUE_OTHER;
    // JSON keeps the key unambiguous whatever characters the names contain.
    const outcome = call.halt ?? (failed ? 'error' : 'ok');
    const key = JSON.stringify([toolName, outcome, errorType, errorKind]);
    let row = this.byKey.get(key);
    if (!row) {
      row = {
        toolName,
        outcome,
        calls: 0,
        totalDurationSeconds: 0,
        maxDurationSeconds: 0,
      };
      if (errorType !== undefined) row.errorType = errorType;
      if (errorKind !== undefined) row.errorKind = errorKind;
      this.byKey.set(key, row);
    }
    if (failed && call.retryable !== undefined) row.retryable = call.retryable;
    row.calls++;
    row.totalDurationSeconds += call.durationSeconds;
    row.maxDurationSeconds = Math.max(row.maxDurationSeconds, call.durationSeconds);
  }

  /** A copy of the rows, in the order they were first seen. */
  rows(): ToolCallSummaryRow[] {
    return [...this.byKey.values()].map((row) => ({ ...row }));
  }

  /** Failed calls as `{"tool:error.type": count}`. */
  errorCounts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const row of this.byKey.values()) {
      if (row.outcome !== 'error') continue;
      const key = `${row.toolName}:${row.errorType}`;
      counts[key] = (counts[key] ?? 0) + row.calls;
    }
    return counts;
  }

  reset(): void {
    this.byKey.clear();
    this.toolNames.clear();
  }
}

// Shared through a global symbol so the register (CJS or ESM bundle) and the app's own copy of the
// package read and write one summary.
const DEFAULT_SUMMARY_KEY = Symbol.for('otel-tool-errors.tool-call-summary');

/** The process-wide summary that `ToolMetricsSpanProcessor` fills unless given another. */
export function getToolCallSummary(): ToolCallSummary {
  const holder = globalThis as { [DEFAULT_SUMMARY_KEY]?: ToolCallSummary };
  return (holder[DEFAULT_SUMMARY_KEY] ??= new ToolCallSummary());
}
