import type { SpanContext } from '@opentelemetry/api';

/**
 * Which tool calls are attempts of a failed one: a call of the same tool, with the same arguments,
 * in the same trace, that starts after the failed call ended (a parallel call, started while the
 * other ran, is none). The wrapper records each failed call when it ends and looks a call up when
 * it starts; a successful attempt ends the record.
 *
 * Arguments are compared by a 53-bit hash (cyrb53) of the tool's name and its canonical arguments
 * (keys in order, JSON text parsed), seeded at random once per process: neither the seed nor the
 * hashes ever leave the process, and no argument value is kept. Nothing is checked against
 * forgery, so no cryptographic digest: an HMAC-SHA256 cost a failed call about 20 µs in the AI
 * SDK's agent loop, a hash in JavaScript well under one (BENCHMARKS.md). Two argument sets of one
 * tool in one trace share a hash with a chance of 2^-53.
 *
 * Memory is bounded: at most `maxTraces` traces and `maxFailedCalls` failed calls in all
 * (`maxPerTrace` in one trace), each kept `ttlMs` after the call failed; past a bound the oldest
 * go first. A call whose failed call was dropped is a first call again.
 */

/** A failed call, as the next attempt finds it. */
export interface FailedCall {
  /** The failed call's span: the next attempt links to it. */
  readonly spanContext: SpanContext;
  /** Its attempt number: 1 for a first call. */
  readonly attempt: number;
  /** When it ended (ms, the bookkeeping's clock). */
  readonly endedAt: number;
  /** Its `error.type` and `tool.error_kind`, as written when it ended. */
  readonly errorType: string | undefined;
  readonly errorKind: string | undefined;
  /** The span contexts of the failed attempts in this chain, oldest first (at most `MAX_CHAIN`). */
  readonly chain: readonly SpanContext[];
}

export interface ToolCallAttemptsOptions {
  maxTraces?: number;
  maxFailedCalls?: number;
  maxPerTrace?: number;
  ttlMs?: number;
  /** The clock, in ms. */
  now?: () => number;
}

export const ATTEMPT_BOUNDS = Object.freeze({
  maxTraces: 1000,
  maxFailedCalls: 10_000,
  maxPerTrace: 100,
  ttlMs: 5 * 60_000,
});

/** Failures between two sweeps of expired traces. */
const SWEEP_EVERY = 64;

/** Failed attempts of one chain remembered for the recovered count. */
const MAX_CHAIN = 16;

export class ToolCallAttempts {
  private readonly traces = new Map<string, Map<number, FailedCall>>();
  private failedCalls = 0;
  private readonly maxTraces: number;
  private readonly maxFailedCalls: number;
  private readonly maxPerTrace: number;
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly seed = Math.floor(Math.random() * 2 ** 32);
  private sinceSweep = 0;

  constructor(options: ToolCallAttemptsOptions = {}) {
    this.maxTraces = options.maxTraces ?? ATTEMPT_BOUNDS.maxTraces;
    this.maxFailedCalls = options.maxFailedCalls ?? ATTEMPT_BOUNDS.maxFailedCalls;
    this.maxPerTrace = options.maxPerTrace ?? ATTEMPT_BOUNDS.maxPerTrace;
    this.ttlMs = options.ttlMs ?? ATTEMPT_BOUNDS.ttlMs;
    this.now = options.now ?? Date.now;
  }

  /** Whether any failed call of `traceId` is remembered: without one, no call needs a digest. */
  hasFailures(traceId: string): boolean {
    return this.traces.has(traceId);
  }

  /**
   * The digest that identifies a call: the tool's name, a side (`client`, `server`: the two spans
   * of one MCP call are attempts each of its own side) and the canonical arguments.
   */
  digest(toolName: string, side: string, args: unknown): number {
    const parts = [side, '\u0000', toolName, '\u0000'];
    writeCanonical(parts, args);
    return cyrb53(parts.join(''), this.seed);
  }

  /** The failed call a call of `digest` starting now is an attempt of, if any. */
  previous(traceId: string, digest: number): FailedCall | undefined {
    const calls = this.traces.get(traceId);
    const failed = calls?.get(digest);
    if (failed === undefined) return undefined;
    if (this.now() - failed.endedAt <= this.ttlMs) return failed;
    this.remove(traceId, calls!, digest);
    return undefined;
  }

  /** A call failed: the next call of `digest` in `traceId` is its attempt. */
  failed(
    traceId: string,
    digest: number,
    call: Omit<FailedCall, 'endedAt' | 'chain'>,
    previous?: FailedCall,
  ): void {
    let calls = this.traces.get(traceId);
    if (calls === undefined) {
      calls = new Map();
    } else {
      // Most recently used last: the oldest trace is the first to go.
      this.traces.delete(traceId);
      if (calls.delete(digest)) this.failedCalls--;
    }
    this.traces.set(traceId, calls);
    const chain = previous === undefined ? [call.spanContext] : [...previous.chain, call.spanContext];
    // Field by field: an object spread here cost 3 µs a failed call (BENCHMARKS.md).
    calls.set(digest, {
      spanContext: call.spanContext,
      attempt: call.attempt,
      errorType: call.errorType,
      errorKind: call.errorKind,
      endedAt: this.now(),
      chain: chain.length > MAX_CHAIN ? chain.slice(-MAX_CHAIN) : chain,
    });
    this.failedCalls++;
    this.prune(calls);
  }

  /** An attempt succeeded: the failure is recovered, the next call is a first call. */
  recovered(traceId: string, digest: number): void {
    const calls = this.traces.get(traceId);
    if (calls?.has(digest)) this.remove(traceId, calls, digest);
  }

  /** @internal For tests: traces and failed calls remembered now. */
  get sizes(): { traces: number; failedCalls: number } {
    return { traces: this.traces.size, failedCalls: this.failedCalls };
  }

  clear(): void {
    this.traces.clear();
    this.failedCalls = 0;
  }

  private remove(traceId: string, calls: Map<number, FailedCall>, digest: number): void {
    if (calls.delete(digest)) this.failedCalls--;
    if (calls.size === 0) this.traces.delete(traceId);
  }

  /** Drops what is past the bounds: expired calls of the oldest traces, then the oldest. */
  private prune(current: Map<number, FailedCall>): void {
    while (current.size > this.maxPerTrace) {
      const oldest = current.keys().next().value!;
      current.delete(oldest);
      this.failedCalls--;
    }
    // Expired traces are swept every SWEEP_EVERY failures; the bounds are kept at each.
    const sweep = ++this.sinceSweep >= SWEEP_EVERY;
    if (sweep) this.sinceSweep = 0;
    else if (this.traces.size <= this.maxTraces && this.failedCalls <= this.maxFailedCalls) return;
    const expiredBefore = this.now() - this.ttlMs;
    for (const [traceId, calls] of this.traces) {
      if (calls === current) break;
      const over = this.traces.size > this.maxTraces || this.failedCalls > this.maxFailedCalls;
      let newest = 0;
      for (const call of calls.values()) newest = Math.max(newest, call.endedAt);
      if (!over && (!sweep || newest >= expiredBefore)) break;
      this.traces.delete(traceId);
      this.failedCalls -= calls.size;
    }
    // The current trace alone past the total (a total bound below the per-trace one).
    while (this.failedCalls > this.maxFailedCalls && current.size > 0) {
      current.delete(current.keys().next().value!);
      this.failedCalls--;
    }
  }
}

/** The process's bookkeeping, shared by every tool call the wrapper traces. */
export const toolCallAttempts = new ToolCallAttempts();

/** Object nesting followed in arguments; deeper values count by their kind only. */
const MAX_DEPTH = 32;
/** Text longer than this is not parsed as JSON. */
const MAX_JSON_TEXT = 64 * 1024;

/**
 * Writes `value` into the digest in one canonical form: object keys in order, text that is a JSON
 * object or array parsed first (OpenAI Agents hands over the model's JSON text), cycles cut.
 */
function writeCanonical(out: string[], value: unknown): void {
  if (typeof value === 'string') {
    const parsed = parsedJson(value);
    if (parsed !== undefined) return writeValue(out, parsed, 0, new Set());
  }
  writeValue(out, value, 0, new Set());
}

function parsedJson(text: string): unknown {
  if (text.length > MAX_JSON_TEXT) return undefined;
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function writeValue(out: string[], value: unknown, depth: number, seen: Set<object>): void {
  switch (typeof value) {
    case 'string':
      out.push(`s${value.length}:`);
      out.push(value);
      return;
    case 'number':
    case 'boolean':
    case 'bigint':
      out.push(`${(typeof value)[0]}${String(value)};`);
      return;
    case 'undefined':
      out.push('u;');
      return;
    case 'function':
    case 'symbol':
      out.push(`${typeof value};`);
      return;
  }
  if (value === null) return void out.push('n;');
  const object = value as object;
  if (seen.has(object) || depth >= MAX_DEPTH) return void out.push('cut;');
  if (object instanceof Date) return void out.push(`d${object.getTime()};`);
  seen.add(object);
  try {
    if (Array.isArray(object)) {
      out.push(`a${object.length}[`);
      for (const item of object) writeValue(out, item, depth + 1, seen);
      out.push(']');
      return;
    }
    const keys = Object.keys(object).sort();
    out.push(`o${keys.length}{`);
    for (const key of keys) {
      out.push(`${key.length}:`);
      out.push(key);
      writeValue(out, (object as Record<string, unknown>)[key], depth + 1, seen);
    }
    out.push('}');
  } finally {
    seen.delete(object);
  }
}

/** cyrb53 (public domain, by bryc): a 53-bit hash of `text`, kept a number (base-36 text cost 1 µs more). */
function cyrb53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
