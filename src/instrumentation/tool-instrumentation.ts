import type { Tracer } from '@opentelemetry/api';
import {
  InstrumentationBase,
  isWrapped,
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
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION, type ToolInstrumentationConfig } from './config';

/** What an adapter gets from the instrumentation. `tracer` and `config` are read live. */
export interface AdapterContext {
  readonly tracer: Tracer;
  readonly config: ToolInstrumentationConfig;
  /** Replaces `target[name]` with `wrapper(original)`; unwraps a previous wrap first (shimmer). */
  wrap<T extends object, K extends keyof T>(target: T, name: K, wrapper: (original: T[K]) => T[K]): void;
  /** Restores `target[name]` if it is wrapped; does nothing otherwise. */
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

/**
 * Patches tool execution in the agent frameworks: one `execute_tool {gen_ai.tool.name}` span per
 * call where the framework has none, the framework's own tool span enriched where it has one, and
 * every failure classified (`error.type`, `tool.error_kind`, status ERROR).
 */
export class ToolInstrumentation extends InstrumentationBase<ToolInstrumentationConfig> {
  // `declare`: assigned in init(), which the base constructor calls before field initialisers run.
  declare private frameworkHooks: FrameworkHooks[];

  constructor(config: ToolInstrumentationConfig = {}) {
    super(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION, checkConfig(config));
  }

  protected init(): InstrumentationNodeModuleDefinition[] {
    // Once per instance: getModuleDefinitions() calls init() again, and the hooks hold state.
    this.frameworkHooks ??= this.setUpFrameworks();
    return this.frameworkHooks.flatMap((hooks) => hooks.modules ?? []);
  }

  private setUpFrameworks(): FrameworkHooks[] {
    const disabled = new Set(this.getConfig().disabledFrameworks ?? []);
    const tracer = () => this.tracer;
    const config = () => this.getConfig();
    const ctx: AdapterContext = {
      get tracer() {
        return tracer();
      },
      get config() {
        return config();
      },
      wrap: (target, name, wrapper) => this._wrap(target, name, wrapper),
      unwrap: (target, name) => {
        if (isWrapped(target[name])) this._unwrap(target, name);
      },
      isEnabled: () => this.isEnabled(),
    };
    return ADAPTERS.filter((adapter) => !disabled.has(adapter.name)).map((adapter) => adapter.setup(ctx));
  }

  override enable(): void {
    if (this.isEnabled()) return;
    super.enable();
    for (const hooks of this.frameworkHooks) hooks.enable?.();
  }

  override disable(): void {
    if (!this.isEnabled()) return;
    super.disable();
    for (const hooks of this.frameworkHooks) hooks.disable?.();
  }
}

function checkConfig(config: ToolInstrumentationConfig): ToolInstrumentationConfig {
  const known = ADAPTERS.map((adapter) => adapter.name);
  for (const name of config.disabledFrameworks ?? []) {
    if (!known.includes(name)) {
      throw new TypeError(
        `ToolInstrumentation: unknown framework ${JSON.stringify(name)} in disabledFrameworks; known: ${known.join(', ')}`,
      );
    }
  }
  return config;
}
