import type { ToolCallHalt } from '../../../semconv';
import { builds, type AdapterContext, type FilePatch, type PackageDeclaration } from '../adapter';

/**
 * LangGraph stops a tool for someone else with control flow: `interrupt()` throws a
 * `GraphInterrupt` (a `NodeInterrupt` from older code) to pause the graph for a human, and a
 * handoff is a `Command` with `graph: Command.PARENT` that the tool returns (or a `ParentCommand`
 * a subgraph inside the tool throws). Told apart the way LangGraph's own `ToolNode` and Pregel
 * loop tell them, with its exported helpers (`isGraphInterrupt`, `isParentCommand`, `isCommand`,
 * `Command.PARENT`), held from each copy of LangGraph the app loads. The whole 1.x line but
 * 1.0.12, which was published without its build (it cannot be loaded at all).
 */
const ERRORS = builds('@langchain/langgraph/dist/errors', 'cjs', 'js');
const CONSTANTS = builds('@langchain/langgraph/dist/constants', 'cjs', 'js');

/** The files of LangGraph whose exports are held: its errors and its `Command`. */
export const LANGGRAPH: PackageDeclaration = {
  name: '@langchain/langgraph',
  tested: ['>=1.0.0 <1.0.12', '>=1.0.13 <2'],
  files: [ERRORS, CONSTANTS],
};

interface ErrorsModule {
  isGraphInterrupt?: unknown;
  isParentCommand?: unknown;
}

interface ConstantsModule {
  isCommand?: unknown;
  Command?: { PARENT?: unknown };
}

type Predicate = (value: unknown) => boolean;

/**
 * One instrumentation's view of LangGraph's control flow: the helpers of each copy of LangGraph
 * that instance patched, so that another instance's `disable()` takes none of them away.
 */
export class LangGraphControlFlow {
  private readonly interruptChecks = new Set<Predicate>();
  private readonly parentCommandChecks = new Set<Predicate>();
  private readonly handoffCommandChecks = new Set<Predicate>();
  private readonly commandChecksByModule = new WeakMap<object, Predicate>();

  /** How LangGraph stops a tool for a human or another agent, for `traceToolCall`'s `halts`. */
  readonly halts = {
    /** What LangGraph threw to stop the tool: `paused` for an interrupt, `handoff` for a parent command. */
    thrown: (err: unknown): ToolCallHalt | undefined => {
      if (err === undefined || err === null) return undefined;
      for (const isInterrupt of this.interruptChecks) if (isInterrupt(err)) return 'paused';
      for (const isParentCommand of this.parentCommandChecks) if (isParentCommand(err)) return 'handoff';
      return undefined;
    },
    /** A `Command` to the parent graph returned by the tool: a handoff to another agent. */
    returned: (result: unknown): ToolCallHalt | undefined => {
      if (typeof result !== 'object' || result === null) return undefined;
      for (const isHandoff of this.handoffCommandChecks) if (isHandoff(result)) return 'handoff';
      return undefined;
    },
  };

  /** The patch of the files `LANGGRAPH` declares. */
  files(ctx: AdapterContext) {
    const errors: FilePatch<ErrorsModule> = {
      files: ERRORS,
      patch: (exports) => {
        if (typeof exports?.isGraphInterrupt === 'function')
          this.interruptChecks.add(exports.isGraphInterrupt as Predicate);
        if (typeof exports?.isParentCommand === 'function')
          this.parentCommandChecks.add(exports.isParentCommand as Predicate);
      },
      unpatch: (exports) => {
        this.interruptChecks.delete(exports?.isGraphInterrupt as Predicate);
        this.parentCommandChecks.delete(exports?.isParentCommand as Predicate);
      },
    };
    const constants: FilePatch<ConstantsModule> = {
      files: CONSTANTS,
      patch: (exports) => {
        const isCommand = exports?.isCommand;
        const parent = exports?.Command?.PARENT;
        if (typeof isCommand !== 'function' || typeof parent !== 'string') return;
        const check = (value: unknown) =>
          (isCommand as Predicate)(value) && (value as { graph?: unknown }).graph === parent;
        this.commandChecksByModule.set(exports, check);
        this.handoffCommandChecks.add(check);
      },
      unpatch: (exports) => {
        const check = this.commandChecksByModule.get(exports);
        if (check) this.handoffCommandChecks.delete(check);
      },
    };
    return ctx.patchFiles(LANGGRAPH.name, [errors, constants]);
  }
}
