import type { DiagLogger } from '@opentelemetry/api';
import type { InstrumentationNodeModuleDefinition } from '@opentelemetry/instrumentation';
import type { LoadedFileWatch } from '../loaded-file-watch';
import type { ToolCallOptions, ToolCallReport } from '../tool-call/options';
import type { ToolCallInfo } from '../types';

/**
 * What a framework adapter is and what it gets. An adapter is one file: a `FrameworkAdapter`, its
 * declaration (plain data: the packages it patches, their tested releases, the files) and a `setup`
 * that receives an `AdapterContext` and returns the patches of what it declared (or hooks that
 * need none).
 */

export type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

/** A tool call as a framework hands it over: ids and descriptions of any type, kept when strings. */
export interface ToolCallFields extends Omit<ToolCallInfo, 'callId' | 'description'> {
  callId?: unknown;
  description?: unknown;
  /**
   * The abort signal the framework handed the tool for this call, if it hands one: a thrown abort
   * is read against it, to tell the caller's cancel from the tool's own timeout.
   */
  callerSignal?: unknown;
  /**
   * The framework's own number for this attempt of the call, where it numbers retries (LangGraph's
   * `executionInfo.nodeAttempt`): an attempt's `tool.call.attempt` takes it (call-attempt.ts).
   */
  frameworkAttempt?: unknown;
}

/** What to do to a loaded module's exports. `patch` may return other exports for the app to get. */
export interface ModulePatch<Exports = any> {
  patch(exports: Exports): Exports | void;
  unpatch(exports: Exports): void;
  /**
   * What the exports must have for `patch` to do its job. Checked before patching: when a release
   * lacks any of it, nothing of that package is patched and the user is told (`wrapExports` fills it).
   */
  expects?: ExportShape;
}

/** Exported functions, and methods of exported classes, by name. */
export interface ExportShape {
  functions?: readonly string[];
  /** `{ Client: ['callTool'] }`: `exports.Client.prototype.callTool` is a function. */
  prototypes?: Readonly<Record<string, readonly string[]>>;
}

/** Wrappers for a module's exports: `(original) => wrapper`, by class and method, or by function. */
export interface ExportWrappers {
  /** `{ Client: { callTool: wrap } }` wraps `exports.Client.prototype.callTool`. */
  prototypes?: Record<string, Record<string, (original: AnyFunction) => AnyFunction>>;
  /** `{ createTool: wrap }` wraps the exported function `exports.createTool`. */
  functions?: Record<string, (original: AnyFunction) => AnyFunction>;
}

/** Files of a package patched the same way: usually one file's CommonJS and ESM builds. */
export interface FilePatch<Exports = any> extends ModulePatch<Exports> {
  /** The module names of one file's builds, as its package declares them. */
  files: readonly string[];
}

/**
 * What an adapter patches, as plain data that needs none of the adapter's code: ToolInstrumentation
 * makes its module hooks from it, and the register's entry points read it before any adapter loads
 * (each framework's modules start the register; the build puts the declarations into the entry
 * points as data, tsup-framework-declarations.ts).
 */
export interface FrameworkDeclaration {
  /** The name users pass in `disabledFrameworks`. */
  readonly name: string;
  readonly packages: readonly PackageDeclaration[];
  /**
   * Process-global registries the framework reads its integrations from, which the adapter fills
   * (AI SDK 7's `registerTelemetry` array): their first read starts the register, whatever name the
   * framework was installed under, or bundled into the app.
   */
  readonly globals?: readonly string[];
  /**
   * The tool spans the framework makes itself, which `ToolErrorSpanProcessor` enriches even where
   * this adapter cannot patch (named in what the user is told then); none if it makes none.
   */
  readonly ownToolSpans?: string;
}

/** One package an adapter patches: `setup` patches it with `patchPackage`, or `patchFiles` when it names files. */
export interface PackageDeclaration {
  readonly name: string;
  /**
   * The releases the adapter's tests pass on, each `>=1.2.3 <2` (release-range.ts); how a release
   * outside them is treated: framework-support.ts.
   */
  readonly tested: readonly string[];
  /**
   * The files inside the package that are patched, each as the module names of its builds
   * (`builds`); without them, the package's main exports are.
   */
  readonly files?: ReadonlyArray<readonly string[]>;
}

/** What an adapter gets from the instrumentation. */
export interface AdapterContext {
  /** The package's `diag` logger; each applied patch is logged here at debug level. */
  readonly diag: DiagLogger;
  /**
   * Runs `run` as one tool call: see `traceToolCall`, with this instrumentation's tracer and
   * config. `options` describe the framework; `report` is for `outcome: 'reported'`.
   */
  traceToolCall<T>(fields: ToolCallFields, run: (report: ToolCallReport) => T, options?: ToolCallOptions): T;
  /**
   * Puts `wrapper(original)` on top of `target[name]`, active while this instrumentation is enabled
   * (it calls through to what it wrapped otherwise), so a wrapper need not check `isEnabled`.
   * Wrappers of other instances stay in place; this instance's own, if still there, is reused.
   */
  wrap<T extends object, K extends keyof T>(target: T, name: K, wrapper: (original: T[K]) => T[K]): void;
  /**
   * Takes this instance's wrapper off `target[name]` when it is on top; under another wrapper it
   * stays, calling through. Does nothing if this instance never wrapped it.
   */
  unwrap<T extends object>(target: T, name: keyof T): void;
  /** For code that outlives a `disable()` outside `wrap`: handlers registered once, tool objects made earlier. */
  isEnabled(): boolean;
  /** The patch that puts `wrappers` on a module's exports (through `wrap`) and takes them off. */
  wrapExports(wrappers: ExportWrappers): ModulePatch;
  /**
   * The main exports (CommonJS and ESM alike) of package `name`, as the adapter declares it. The
   * releases its tests pass on are patched; a newer release is patched when its exports still have
   * the expected shape (and logged); anything else is left alone and the user told why. Throws
   * when the adapter declares no such package, or declares files of it.
   */
  patchPackage(name: string, patch: ModulePatch): InstrumentationNodeModuleDefinition;
  /**
   * The files the adapter declares inside package `name`, judged as `patchPackage` judges releases.
   * Throws unless `files` are the declared files, each once.
   */
  patchFiles(name: string, files: readonly FilePatch[]): InstrumentationNodeModuleDefinition;
  /**
   * A CommonJS file of declared package `name` known only by its absolute path, patched while the
   * watch runs (start it in `enable`, stop it in `disable`), for files require-in-the-middle cannot
   * find by package name. Its release is judged as `patchPackage` judges them.
   */
  watchFile(name: string, filename: string, patch: ModulePatch): LoadedFileWatch;
}

/** One framework's hooks for one `ToolInstrumentation`. */
export interface FrameworkHooks {
  /** Patched by require-in-the-middle (CJS) and import-in-the-middle (ESM) when loaded. */
  modules?: InstrumentationNodeModuleDefinition[];
  /** For hooks that need no module patching (diagnostics channels, global registries). */
  enable?(): void;
  disable?(): void;
}

/** A framework's declaration, and the set-up that patches what it declares. */
export interface FrameworkAdapter extends FrameworkDeclaration {
  setup(ctx: AdapterContext): FrameworkHooks;
}

/** The adapter's declaration alone: the data, without its code. */
export function declarationOf({
  name,
  packages,
  globals,
  ownToolSpans,
}: FrameworkAdapter): FrameworkDeclaration {
  return {
    name,
    packages,
    ...(globals === undefined ? {} : { globals }),
    ...(ownToolSpans === undefined ? {} : { ownToolSpans }),
  };
}

/** The module names of one file's builds: `builds('pkg/dist/tool', 'js', 'mjs')`. */
export function builds(path: string, ...extensions: string[]): string[] {
  return extensions.map((extension) => `${path}.${extension}`);
}

/** A string that says something, or `undefined`: how frameworks' optional ids and texts are read. */
export function textOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
