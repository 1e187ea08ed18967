import { createRequire } from 'node:module';
import type * as Ai from 'ai';
import type * as AiTest from 'ai/test';
import { GoogleGenAI } from '@google/genai';
import { BlobServiceClient } from '@azure/storage-blob';
import { expect } from 'chai';
import { z } from 'zod';
import { ToolErrorSpanProcessor, ToolExecutionError } from '../../../src';
import { expectExecuteToolSpan, underAgentSpan } from '../../helpers/agent-span';
import { modelCalling } from '../../helpers/ai-sdk-mock-model';
import { useAdapterTestBed } from '../../helpers/test-bed';
import { errorOf, executedFailure, unexecutedFailure } from '../../helpers/tool-failures';
import { startApiServer, type ApiServer } from './api-server';
import { CLIENT_TIMEOUT_MS, installedVersion, thrownBy } from './corpus';

// Loaded after the instrumentation is enabled, so require-in-the-middle hands out the patched exports.
const load = createRequire(__filename);

/** Longer than any spec here waits: the timeout that is not the one being tested. */
const LONG_MS = 10_000;

/**
 * The two clients whose own timeout reaches the classifier as a bare `AbortError`, the same error
 * as a caller's cancel (the corpus's known misses), run as AI SDK tools that forward the SDK's
 * abort signal: the tool span tells the two apart by that signal.
 */
describe(`classifier corpus through the AI SDK ${installedVersion('ai')}: a client's own timeout or the caller's cancel`, () => {
  const bed = useAdapterTestBed({ spanProcessors: [new ToolErrorSpanProcessor()] });
  let ai: typeof Ai;
  let MockLanguageModelV3: typeof AiTest.MockLanguageModelV3;
  let api: ApiServer;
  let tools: Ai.ToolSet;

  before(async () => {
    ai = load('ai');
    ({ MockLanguageModelV3 } = load('ai/test') as typeof AiTest);
    api = await startApiServer();
    api.reply('hang');
    tools = {
      // @google/genai: its own timeout is `httpOptions.timeout`; the caller's signal goes in `config`.
      gemini: ai.tool({
        inputSchema: z.object({ timeoutMs: z.number() }),
        execute: ({ timeoutMs }, { abortSignal }) =>
          new GoogleGenAI({
            apiKey: 'test-key',
            httpOptions: { baseUrl: api.url, timeout: timeoutMs, retryOptions: { attempts: 1 } },
          }).models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config: { abortSignal } }),
      }),
      // @azure/storage-blob: a client-side timeout is an abort signal, combined with the caller's.
      blob: ai.tool({
        inputSchema: z.object({ timeoutMs: z.number() }),
        execute: ({ timeoutMs }, { abortSignal }) =>
          new BlobServiceClient(`${api.url}/corpusaccount`, undefined, { retryOptions: { maxTries: 1 } })
            .getContainerClient('corpus')
            .getBlobClient('k')
            .download(0, undefined, {
              abortSignal: AbortSignal.any(
                abortSignal
                  ? [abortSignal, AbortSignal.timeout(timeoutMs)]
                  : [AbortSignal.timeout(timeoutMs)],
              ),
            }),
      }),
      // A tool that states the kind itself: the caller's signal changes nothing.
      stated_cancel: ai.tool({
        inputSchema: z.object({ timeoutMs: z.number() }),
        execute: async (): Promise<string> => {
          throw new ToolExecutionError('the user closed the dialog', { kind: 'canceled' });
        },
      }),
    };
  });
  after(() => api?.close());

  /** Runs `toolName` once through `generateText` and returns its span's error attributes. */
  async function toolError(toolName: string, timeoutMs: number, options: Record<string, unknown>) {
    const { agent } = await underAgentSpan(bed.tracer, () =>
      ai.generateText({
        model: modelCalling(MockLanguageModelV3, toolName, { timeoutMs }),
        prompt: 'go',
        tools,
        stopWhen: ai.stepCountIs(3),
        ...options,
      }),
    );
    return errorOf(expectExecuteToolSpan(bed.tracing, toolName, agent));
  }

  /** A caller's signal that is aborted, with no reason, after `ms`. */
  function canceledAfter(ms: number): AbortSignal {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), ms).unref();
    return controller.signal;
  }

  const canceled = unexecutedFailure('AbortError', 'canceled');
  const timeout = executedFailure('timeout', 'timeout');

  for (const [toolName, pkg] of [
    ['gemini', '@google/genai'],
    ['blob', '@azure/storage-blob'],
  ] as const) {
    describe(`${pkg} ${installedVersion(pkg)}`, () => {
      it("its own timeout, the caller's signal not aborted -> timeout", async () => {
        const signal = new AbortController().signal;
        expect(await toolError(toolName, CLIENT_TIMEOUT_MS, { abortSignal: signal })).to.deep.equal(timeout);
      });

      it('the caller aborts its signal -> canceled', async () => {
        const signal = canceledAfter(CLIENT_TIMEOUT_MS);
        expect(await toolError(toolName, LONG_MS, { abortSignal: signal })).to.deep.equal(canceled);
      });

      it("the AI SDK's own timeout (a TimeoutError reason) -> timeout", async () => {
        expect(await toolError(toolName, LONG_MS, { timeout: CLIENT_TIMEOUT_MS })).to.deep.equal(timeout);
      });
    });
  }

  it("@google/genai: its own timeout on the AI SDK's own tool span (telemetry on) -> timeout", async () => {
    await underAgentSpan(bed.tracer, () =>
      ai.generateText({
        model: modelCalling(MockLanguageModelV3, 'gemini', { timeoutMs: CLIENT_TIMEOUT_MS }),
        prompt: 'go',
        tools,
        abortSignal: new AbortController().signal,
        experimental_telemetry: { isEnabled: true, tracer: bed.tracer },
      }),
    );
    // The SDK records the AbortError on its span; the processor keeps the wrapper's answer.
    expect(errorOf(bed.tracing.span('ai.toolCall'))).to.deep.equal(timeout);
  });

  it('a ToolExecutionError that states canceled stays canceled, the signal not aborted', async () => {
    const signal = new AbortController().signal;
    expect(await toolError('stated_cancel', LONG_MS, { abortSignal: signal })).to.deep.equal(
      unexecutedFailure('canceled', 'canceled'),
    );
  });

  // Why the error alone cannot tell (the classifier corpus's known misses): the client's timeout
  // and a caller's cancel throw the same object, down to the client's stack frames.
  describe('the error alone: the same for a timeout and a cancel', () => {
    const gemini = (timeout: number, abortSignal?: AbortSignal) =>
      new GoogleGenAI({
        apiKey: 'test-key',
        httpOptions: { baseUrl: api.url, timeout, retryOptions: { attempts: 1 } },
      }).models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config: { abortSignal } });
    const blob = (abortSignal: AbortSignal) =>
      new BlobServiceClient(`${api.url}/corpusaccount`, undefined, { retryOptions: { maxTries: 1 } })
        .getContainerClient('corpus')
        .getBlobClient('k')
        .download(0, undefined, { abortSignal });

    /**
     * What a classifier could read: class, own properties, cause, and the client's stack frames.
     * Past those, a stack shows only who called `abort()` (Node's timer, or the app's code).
     */
    function evidence(err: unknown) {
      const e = err as Error & Record<string, unknown>;
      const own = Object.fromEntries(Object.getOwnPropertyNames(e).map((key) => [key, e[key]]));
      delete own.stack;
      const frames = String(e.stack)
        .split('\n')
        .slice(1)
        .filter((frame) => frame.includes('/node_modules/'));
      return {
        class: e.constructor?.name,
        name: e.name,
        message: e.message,
        code: e.code,
        cause: e.cause,
        own,
        frames,
      };
    }

    it('@google/genai: httpOptions.timeout and a caller abort()', async () => {
      const timedOut = await thrownBy(() => gemini(CLIENT_TIMEOUT_MS));
      const canceledError = await thrownBy(() => gemini(LONG_MS, canceledAfter(CLIENT_TIMEOUT_MS)));
      // Node 20's fetch rejects with the client's frames in the stack, Node 24's with its own only:
      // either way the two are the same.
      expect(evidence(timedOut)).to.deep.equal(evidence(canceledError));
      expect(evidence(timedOut)).to.include({ class: 'DOMException', name: 'AbortError', cause: undefined });
    });

    it('@azure/storage-blob: AbortSignal.timeout() and a caller abort()', async () => {
      const timedOut = await thrownBy(() => blob(AbortSignal.timeout(CLIENT_TIMEOUT_MS)));
      const canceledError = await thrownBy(() => blob(canceledAfter(CLIENT_TIMEOUT_MS)));
      expect(evidence(timedOut)).to.deep.equal(evidence(canceledError));
      expect(evidence(timedOut).frames).to.have.length.above(0);
      expect(evidence(timedOut)).to.include({ class: 'AbortError', name: 'AbortError', cause: undefined });
    });
  });

  // Without a signal from its caller, a bare abort says nothing more: the tool span keeps `canceled`.
  it('@google/genai: its own timeout with no caller signal stays canceled (known miss)', async () => {
    expect(await toolError('gemini', CLIENT_TIMEOUT_MS, {})).to.deep.equal(canceled);
  });
});
