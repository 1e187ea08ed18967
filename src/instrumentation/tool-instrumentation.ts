import { types } from 'node:util';
import { diag, type Tracer } from '@opentelemetry/api';
import {
  InstrumentationBase,
  type InstrumentationModuleDefinition,
  type InstrumentationNodeModuleDefinition,
} from '@opentelemetry/instrumentation';
import { aiSdkV6Adapter } from './adapters/ai-sdk-v6';
import { aiSdkV7Adapter } from './adapters/ai-sdk-v7';
import { googleAdkAdapter } from './adapters/google-adk';
import { langchainAdapter } from './adapters/langchain';
import { llamaindexAdapter } from './adapters/llamaindex';
import { mastraAdapter } from './adapters/mastra';
import { mcpAdapter } from './adapters/mcp';
import { openaiAgentsAdapter } from './adapters/openai-agents';
import { ENV_GENAI_CAPTURE_MESSAGE_CONTENT } from './capture-env';
import {
  checkCaptureOptions,
  describeValue,
  INSTRUMENTATION_NAME,
  INSTRUMENTATION_VERSION,
  type ToolInstrumentationConfig,
} from './config';
import { checkEsmSetUpLater } from './esm-set-up';

/** What an adapter gets from the instrumentation. `tracer` and `config` are read live. */
export interface AdapterContext {
  readonly tracer: Tracer;
  readonly config: ToolInstrumentationConfig;
  /**
   * Puts `wrapper(original)` on top of `target[name]`, active while this instrumentation is enabled
   * (it calls through to what it wrapped otherwise). Wrappers of other instances stay in place;
   * this instance's own wrapper, if still in place, is reused rather than stacked.
   */
  wrap<T extends object, K extends keyof T>(target: T, name: K, wrapper: (original: T[K]) => T[K]): void;
  /**
   * Takes this instance's wrapper off `target[name]` when it is on top; under another wrapper it
   * stays, calling through. Does nothing if this instance never wrapped it.
   */
  unwrap<T extends object>(target: T, name: keyof T): void;
  isEnabled(): boolean;
}

/** One framework's hooks for one `ToolInstrumentation`. */
export interface FrameworkHooks {
  /** Patched by require-in-the-middle (CJS) and import-in-the-middle (ESM) when loaded. */
  modules?: InstrumentationNodeModuleDefinition[];
  /** For hooks that need no module patching (diagnostics channels, global registries). */
  enable?(): void;
  disable?(): void;
}

export interface FrameworkAdapter {
  /** The name users pass in `disabledFrameworks`. */
  readonly name: string;
  setup(ctx: AdapterContext): FrameworkHooks;
}

/** Every framework this instrumentation knows, one adapter file each. */
const ADAPTERS: readonly FrameworkAdapter[] = [
  mcpAdapter,
  langchainAdapter,
  aiSdkV6Adapter,
  aiSdkV7Adapter,
  openaiAgentsAdapter,
  mastraAdapter,
  googleAdkAdapter,
  llamaindexAdapter,
];

/** The names `disabledFrameworks` accepts. */
export const TOOL_FRAMEWORK_NAMES: readonly string[] = Object.freeze(ADAPTERS.map((adapter) => adapter.name));

/**
 * Patches tool execution in the agent frameworks: one `execute_tool {gen_ai.tool.name}` span per
 * call where the framework has none, the framework's own tool span enriched where it has one, and
 * every failure classified (`error.type`, `tool.error_kind`, status ERROR).
 */
export class ToolInstrumentation extends InstrumentationBase<ToolInstrumentationConfig> {
  // `declare`: assigned in init(), which the base constructor calls before field initialisers run.
  declare private frameworkHooks: FrameworkHooks[];
  declare private moduleDefinitions: InstrumentationNodeModuleDefinition[];

  constructor(config: ToolInstrumentationConfig = {}) {
    super(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION, withCaptureDefaults(checkConfig(config)));
  }

  override setConfig(config: ToolInstrumentationConfig = {}): void {
    super.setConfig(checkConfig(config));
  }

  protected init(): InstrumentationNodeModuleDefinition[] {
    // Once per instance: getModuleDefinitions() calls init() again, and the hooks hold state.
    this.frameworkHooks ??= this.setUpFrameworks();
    this.moduleDefinitions ??= this.frameworkHooks.flatMap((hooks) => hooks.modules ?? []);
    return this.moduleDefinitions;
  }

  /** The supported packages that no patch has reached yet, in CommonJS or ESM. */
  private unpatchedPackages(): string[] {
    const patched = new Set<string>();
    const all = new Set<string>();
    // The base class keeps the exports it patched on the definition (or on the file it patched).
    for (const definition of this.moduleDefinitions as InstrumentationModuleDefinition[]) {
      all.add(definition.name);
      if (
        definition.moduleExports !== undefined ||
        definition.files.some((file) => file.moduleExports !== undefined)
      )
        patched.add(definition.name);
    }
    return [...all].filter((name) => !patched.has(name));
  }

  private setUpFrameworks(): FrameworkHooks[] {
    const disabled = new Set(this.getConfig().disabledFrameworks ?? []);
    const tracer = () => this.tracer;
    const config = () => this.getConfig();
    const isEnabled = () => this.isEnabled();
    const wrappers = new OwnWrappers(isEnabled);
    const ctx: AdapterContext = {
      get tracer() {
        return tracer();
      },
      get config() {
        return config();
      },
      wrap: (target, name, wrapper) => wrappers.wrap(target, name, wrapper as (original: unknown) => unknown),
      unwrap: (target, name) => wrappers.unwrap(target, name),
      isEnabled,
    };
    return ADAPTERS.filter((adapter) => !disabled.has(adapter.name)).map((adapter) => adapter.setup(ctx));
  }

  override enable(): void {
    if (this.isEnabled()) return;
    super.enable();
    for (const hooks of this.frameworkHooks) hooks.enable?.();
    checkEsmSetUpLater(() => this.unpatchedPackages());
  }

  override disable(): void {
    if (!this.isEnabled()) return;
    super.disable();
    for (const hooks of this.frameworkHooks) hooks.disable?.();
  }
}

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

/** A wrapper in a shimmer-style chain: `__original` is what it wrapped. */
interface ChainedWrapper extends AnyFunction {
  __original?: unknown;
  [RETIRED]?: boolean;
}

/**
 * Set on a wrapper its instance unwrapped: it calls through, and comes off once nothing but retired
 * wrappers lie above it. A registered symbol, so every copy of this package (its CJS and ESM builds
 * in one process) sees it.
 */
const RETIRED = Symbol.for('otel-tool-errors.retiredWrapper');
const logger = diag.createComponentLogger({ namespace: 'otel-tool-errors' });
/** Bounds walks down a wrapper chain that something else may have made circular. */
const MAX_CHAIN_LENGTH = 64;

/**
 * One instance's wrappers. shimmer's unwrap restores whatever is under the top wrapper, so with two
 * instances (the register's and an app's, or a CJS and an ESM copy) disabling one would remove the
 * other. Instead each wrapper calls through while its instance is disabled, and unwrapping takes
 * off only retired wrappers lying on top: the original is back once every instance is disabled.
 * Two enabled wrappers still make one span: the inner one enriches the outer one's tool span.
 */
class OwnWrappers {
  private readonly installed = new WeakMap<object, Map<PropertyKey, ChainedWrapper>>();

  constructor(private readonly isEnabled: () => boolean) {}

  wrap(target: object, name: PropertyKey, wrapper: (original: unknown) => unknown): void {
    try {
      const slot = target as Record<PropertyKey, unknown>;
      const own = this.installed.get(target)?.get(name);
      if (own && chainIncludes(slot[name], own)) {
        own[RETIRED] = false;
        return;
      }
      const original = slot[name];
      if (typeof original !== 'function') return;
      const active = wrapper(original) as AnyFunction;
      const isEnabled = this.isEnabled;
      const gate: ChainedWrapper = function (this: unknown, ...args: unknown[]) {
        return Reflect.apply(isEnabled() && !gate[RETIRED] ? active : original, this, args);
      };
      defineHidden(gate, 'length', original.length);
      defineHidden(gate, 'name', original.name);
      // shimmer's fields, so `isWrapped` and other instrumentations read the chain as theirs.
      defineHidden(gate, '__original', original);
      defineHidden(gate, '__unwrap', () => {
        if (slot[name] === gate) install(target, name, original);
      });
      defineHidden(gate, '__wrapped', true);
      install(target, name, gate);
      let byName = this.installed.get(target);
      if (!byName) this.installed.set(target, (byName = new Map()));
      byName.set(name, gate);
    } catch (err) {
      logger.error(`could not wrap ${String(name)}`, err);
    }
  }

  unwrap(target: object, name: PropertyKey): void {
    try {
      const own = this.installed.get(target)?.get(name);
      if (!own) return;
      own[RETIRED] = true;
      const slot = target as Record<PropertyKey, unknown>;
      for (let i = 0; i < MAX_CHAIN_LENGTH; i++) {
        const top = slot[name] as ChainedWrapper | undefined;
        if (typeof top !== 'function' || top[RETIRED] !== true) break;
        install(target, name, top.__original);
      }
    } catch (err) {
      logger.error(`could not unwrap ${String(name)}`, err);
    }
  }
}

function chainIncludes(top: unknown, wrapper: ChainedWrapper): boolean {
  let fn = top as ChainedWrapper | undefined;
  for (
    let i = 0;
    i < MAX_CHAIN_LENGTH && typeof fn === 'function';
    i++, fn = fn.__original as ChainedWrapper
  ) {
    if (fn === wrapper) return true;
  }
  return false;
}

/** Sets `target[name]` as shimmer does; a module namespace from import-in-the-middle is a Proxy. */
function install(target: object, name: PropertyKey, value: unknown): void {
  if (types.isProxy(target)) {
    Object.defineProperty(target, name, { value });
    return;
  }
  const enumerable = Object.prototype.propertyIsEnumerable.call(target, name);
  Object.defineProperty(target, name, { configurable: true, enumerable, writable: true, value });
}

function defineHidden(target: object, name: PropertyKey, value: unknown): void {
  Object.defineProperty(target, name, { configurable: true, enumerable: false, writable: true, value });
}

function checkConfig(config: ToolInstrumentationConfig): ToolInstrumentationConfig {
  if (typeof config !== 'object' || config === null) {
    throw new TypeError(`ToolInstrumentation: config must be an object, got ${describeValue(config)}`);
  }
  checkCaptureOptions(config, 'ToolInstrumentation');
  const disabled: unknown = config.disabledFrameworks;
  if (
    disabled !== undefined &&
    (!Array.isArray(disabled) || disabled.some((name) => typeof name !== 'string'))
  ) {
    throw new TypeError(
      `ToolInstrumentation: disabledFrameworks must be an array of framework names, such as ['mcp'], got ${describeValue(disabled)}`,
    );
  }
  for (const name of config.disabledFrameworks ?? []) {
    if (!TOOL_FRAMEWORK_NAMES.includes(name)) {
      throw new TypeError(
        `ToolInstrumentation: unknown framework ${JSON.stringify(name)} in disabledFrameworks; known: ${TOOL_FRAMEWORK_NAMES.join(', ')}`,
      );
    }
  }
  return config;
}

/**
 * `captureArguments` and `captureResults` left unset follow the GenAI conventions' switch,
 * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`; set, they win.
 */
function withCaptureDefaults(config: ToolInstrumentationConfig): ToolInstrumentationConfig {
  if (config.captureArguments !== undefined && config.captureResults !== undefined) return config;
  const captureContent = process.env[ENV_GENAI_CAPTURE_MESSAGE_CONTENT]?.trim().toLowerCase() === 'true';
  return {
    ...config,
    captureArguments: config.captureArguments ?? captureContent,
    captureResults: config.captureResults ?? captureContent,
  };
}
