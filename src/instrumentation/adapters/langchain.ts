import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import type { AdapterContext, FrameworkAdapter } from '../tool-instrumentation';
import { traceToolCall } from '../tool-call-wrapper';

/**
 * `@langchain/core` tools: `StructuredTool.prototype.call`, which `invoke`, `tool()`,
 * `DynamicStructuredTool`, `DynamicTool` and subclasses all reach. It throws the tool's own error
 * (and `ToolInputParsingException` before the tool runs), so the span sees the original error even
 * when LangGraph's `ToolNode` later turns it into a `ToolMessage { status: 'error' }`.
 */
const SUPPORTED = ['>=1.4.0 <1.5.0'];

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
type ToolsModule = { StructuredTool?: { prototype: Record<string, AnyFunction> } };

interface ToolCallArg {
  type?: unknown;
  id?: unknown;
  args?: unknown;
}

export const langchainAdapter: FrameworkAdapter = {
  name: 'langchain',
  setup(ctx) {
    const file = (extension: 'cjs' | 'js') =>
      new InstrumentationNodeModuleFile(
        `@langchain/core/dist/tools/index.${extension}`,
        SUPPORTED,
        (exports: ToolsModule) => {
          const proto = exports?.StructuredTool?.prototype;
          if (typeof proto?.call === 'function')
            ctx.wrap(proto, 'call', (original) => wrapCall(ctx, original));
          return exports;
        },
        (exports: ToolsModule) => {
          if (exports?.StructuredTool) ctx.unwrap(exports.StructuredTool.prototype, 'call');
        },
      );
    return {
      modules: [
        new InstrumentationNodeModuleDefinition('@langchain/core', SUPPORTED, undefined, undefined, [
          file('cjs'),
          file('js'),
        ]),
      ],
    };
  },
};

/** `call(arg, configArg, tags)`: `arg` is the input or a `tool_call`; the id may be on `configArg.toolCall`. */
function wrapCall(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function call(this: unknown, ...args: unknown[]) {
    const tool = this as { name?: unknown; description?: unknown } | undefined;
    if (typeof tool?.name !== 'string') return original.apply(this, args);
    const [arg, configArg] = args as [ToolCallArg | undefined, { toolCall?: ToolCallArg } | undefined];
    const isToolCall = typeof arg === 'object' && arg !== null && arg.type === 'tool_call';
    const callId = (isToolCall ? arg.id : undefined) ?? configArg?.toolCall?.id;
    return traceToolCall(
      ctx.tracer,
      ctx.config,
      {
        name: tool.name,
        callId: typeof callId === 'string' ? callId : undefined,
        description: typeof tool.description === 'string' ? tool.description : undefined,
        type: 'function',
        args: isToolCall ? arg.args : arg,
      },
      () => original.apply(this, args),
    );
  };
}
