import { createRequire } from 'node:module';
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { expect } from 'chai';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { expectExecuteToolSpan, underAgentSpan } from '../helpers/agent-span';
import { describeAdapterConformance, type AdapterDriver } from '../helpers/adapter-conformance';
import { useAdapterTestBed } from '../helpers/test-bed';
import { callApi, errorOf, executedFailure, unexecutedFailure } from '../helpers/tool-failures';
import { WeakHandles } from '../helpers/weak-handles';

// ai@7 is installed under the alias `ai-v7` (ESM-only; Node 20.19+ can require it), and 7.0.0 with
// @ai-sdk/otel 1.0.0, the first releases, under `ai-v7-lowest` and `ai-sdk-otel-lowest`. The
// adapter does not depend on the package name: it registers a telemetry integration globally.
const load = createRequire(__filename);

/** One installed pair of ai@7 and the @ai-sdk/otel made with it, by the names they are installed under. */
const COPIES = [
  { ai: 'ai-v7', otel: '@ai-sdk/otel' },
  { ai: 'ai-v7-lowest', otel: 'ai-sdk-otel-lowest' },
];

const versionOf = (name: string) => (load(`${name}/package.json`) as { version: string }).version;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const REGISTRY = 'AI_SDK_TELEMETRY_INTEGRATIONS';

type AnyRecord = Record<string, any>;

function integrations(): unknown[] {
  return ((globalThis as AnyRecord)[REGISTRY] as unknown[] | undefined) ?? [];
}

describe('AI SDK v7 adapter (generateText with MockLanguageModelV3, with and without @ai-sdk/otel)', () => {
  // One instrumentation for both copies: each one made leaves module hooks behind (the MCP
  // adapter's, by absolute path) that slow every later require of the suite.
  const bed = useAdapterTestBed();
  for (const copy of COPIES) {
    describe(`ai ${versionOf(copy.ai)} with @ai-sdk/otel ${versionOf(copy.otel)}`, () => {
      let ai: AnyRecord;
      let MockLanguageModelV3: new (options: AnyRecord) => unknown;
      let OpenTelemetry: new (options: AnyRecord) => object;
      let tools: AnyRecord;

      before(async () => {
        ai = load(copy.ai);
        ({ MockLanguageModelV3 } = load(`${copy.ai}/test`));
        ({ OpenTelemetry } = load(copy.otel));
        tools = {
          fetch_path: ai.tool({
            description: 'GETs a path on the test API',
            inputSchema: z.object({ path: z.string() }),
            execute: async ({ path }: { path: string }, { abortSignal }: { abortSignal?: AbortSignal }) =>
              callApi(bed.server.url + path, abortSignal),
          }),
          adk_contract: ai.tool({
            inputSchema: z.object({}),
            execute: async () => ({
              success: false,
              error: { status: 503, message: 'upstream unavailable' },
            }),
          }),
        };
      });

      function modelCalling(toolName: string, input: unknown) {
        let step = 0;
        return new MockLanguageModelV3({
          doGenerate: async () => ({
            ...(step++ === 0
              ? {
                  content: [
                    { type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) },
                  ],
                  finishReason: { unified: 'tool-calls', raw: undefined },
                }
              : {
                  content: [{ type: 'text', text: 'done' }],
                  finishReason: { unified: 'stop', raw: undefined },
                }),
            usage,
            warnings: [],
          }),
        });
      }

      async function generate(
        toolName: string,
        input: unknown,
        toolSet = tools,
      ): Promise<{ value: AnyRecord; agent: Span }> {
        const { value, error, agent } = await underAgentSpan(bed.tracing.tracer, () =>
          ai.generateText({
            model: modelCalling(toolName, input),
            prompt: 'go',
            tools: toolSet,
            stopWhen: ai.isStepCount(3),
          }),
        );
        if (error) throw error;
        await new Promise((resolve) => setImmediate(resolve));
        return { value, agent };
      }

      const toolSpan = (name: string, agent: Span) =>
        expectExecuteToolSpan(bed.tracing, name, agent, { 'gen_ai.tool.call.id': 'call-1' });

      /** Runs the conformance tool through generateText; `spanOf` finds and checks its span. */
      function driver(
        spanOf: (tool: string, agent: Span) => ReadableSpan,
        frameworkWritesStatusMessage = false,
      ): AdapterDriver {
        const part = (content: AnyRecord[], type: string) => content.find((p) => p.type === type);
        return {
          // The telemetry integration's events name the tool, but do not carry its description.
          describesTool: false,
          frameworkWritesStatusMessage,
          async call(tool) {
            const toolSet = {
              [tool.name]: ai.tool({
                description: tool.description,
                inputSchema: z.object({ path: z.string() }),
                execute: (input: { path: string }) => tool.execute(input),
              }),
            };
            const { value, agent } = await generate(tool.name, tool.input, toolSet);
            return { span: spanOf(tool.name, agent), answer: value.steps[0].content };
          },
          expectFailureAnswer: (content, thrown) =>
            expect(part(content as AnyRecord[], 'tool-error')?.error).to.equal(thrown),
          expectSuccessAnswer: (content, returned) =>
            expect(part(content as AnyRecord[], 'tool-result')?.output).to.equal(returned),
        };
      }

      describe('without @ai-sdk/otel: the adapter makes the span', () => {
        describeAdapterConformance(driver((tool, agent) => toolSpan(tool, agent)));

        it('classifies a returned error result from the output onToolExecutionEnd brings', async () => {
          const { agent } = await generate('adk_contract', {});
          expect(errorOf(toolSpan('adk_contract', agent))).to.include({ type: '503', kind: 'transient' });
        });

        it('holds no ended call until the event loop turns (a loop of scripted turns never yields)', async () => {
          // Each call once left a setImmediate holding its span and its input until the loop
          // yielded; a scripted model's turns are microtasks only, so 10,000 calls held ~60 MB. The
          // schema hands each call an input of the test's, held here only by a WeakRef.
          const TURNS = 20;
          const inputs = new WeakHandles(Array.from({ length: TURNS }, () => ({ path: '/ok' })));
          await new Promise((resolve) => setImmediate(resolve));
          const instant = {
            instant: ai.tool({
              inputSchema: z.object({}).transform(() => inputs.take()),
              execute: async () => ({ ok: true }),
            }),
          };
          for (let turn = 0; turn < TURNS; turn++) {
            await ai.generateText({
              model: modelCalling('instant', {}),
              prompt: 'go',
              tools: instant,
              stopWhen: ai.isStepCount(3),
            });
          }
          // Still inside the loop of microtasks: nothing the adapter scheduled has run yet.
          const alive = inputs.aliveAfterGc();
          expect(bed.tracing.exporter.getFinishedSpans().map((span) => span.name)).to.deep.equal(
            Array.from({ length: TURNS }, () => 'execute_tool instant'),
          );
          // One per call was the defect. Two may be alive: the last turn's, still referenced by the
          // loop's own frame, and the first call's, whose context the one sweep it scheduled keeps
          // (as every callback does the async context it was scheduled in) until the loop turns.
          expect(alive, `inputs of ${TURNS} ended calls still alive`).to.be.at.most(2);
        });

        it('ends the span from how execute ended when the telemetry hides outputs (recordOutputs: false)', async () => {
          const run = (toolName: string, input: unknown) =>
            underAgentSpan(bed.tracing.tracer, () =>
              ai.generateText({
                model: modelCalling(toolName, input),
                prompt: 'go',
                tools,
                stopWhen: ai.isStepCount(3),
                telemetry: { recordOutputs: false },
              }),
            );
          const failed = await run('fetch_path', { path: '/503' });
          expect(errorOf(toolSpan('fetch_path', failed.agent))).to.include({
            type: '503',
            kind: 'transient',
          });
          bed.tracing.reset();
          const succeeded = await run('fetch_path', { path: '/ok' });
          expect(toolSpan('fetch_path', succeeded.agent).status.code).to.equal(SpanStatusCode.UNSET);
        });

        it('ends the span of a call whose end event never comes, from how execute ended', async () => {
          // A release, or a code path, that runs executeTool and sends no onToolExecutionEnd: the
          // integration's own calls, as the SDK makes them.
          const ours = integrations()[0] as AnyRecord;
          const upstream = new Error('HTTP 503 from upstream');
          const run = ours.executeTool({
            callId: 'no-end',
            toolCallId: 'call-1',
            toolCall: { toolName: 'silent', toolCallId: 'call-1', input: {} },
            execute: () => Promise.reject(upstream),
          }) as Promise<unknown>;
          expect(
            await run.then(
              () => undefined,
              (err: unknown) => err,
            ),
          ).to.equal(upstream);
          await new Promise((resolve) => setImmediate(resolve));
          const [span] = bed.tracing.exporter.getFinishedSpans();
          expect(span?.name).to.equal('execute_tool silent');
          expect(errorOf(span!)).to.include({ type: '503', kind: 'transient' });
        });

        it('records an unknown tool and a Zod input error, neither executed', async () => {
          const unknown = await generate('nope', {});
          expect(errorOf(toolSpan('nope', unknown.agent))).to.deep.equal(
            unexecutedFailure('NoSuchToolError', 'unknown_tool'),
          );
          bed.tracing.reset();
          const invalid = await generate('fetch_path', { path: 42 });
          expect(errorOf(toolSpan('fetch_path', invalid.agent))).to.deep.equal(
            unexecutedFailure('InvalidToolInputError', 'invalid_input'),
          );
        });
      });

      describe('with @ai-sdk/otel registered: its execute_tool span is enriched', () => {
        let otel: object;
        before(() => {
          otel = new OpenTelemetry({ tracer: bed.tracing.tracer });
          ai.registerTelemetry(otel);
        });
        after(() => {
          const list = integrations();
          list.splice(list.indexOf(otel), 1);
        });

        // The span is @ai-sdk/otel's: only it records the duration attribute. It sets the status
        // description from the error's own message when it ends the span, after the adapter marked it.
        describeAdapterConformance(
          driver((tool) => {
            const span = bed.tracing.span(`execute_tool ${tool}`);
            expect(span.attributes['gen_ai.execute_tool.duration']).to.be.a('number');
            return span;
          }, true),
        );

        it('one execute_tool span, with error.type from the real error', async () => {
          await generate('fetch_path', { path: '/500' });
          const toolSpans = bed.tracing.spans().filter((s) => s.name.startsWith('execute_tool'));
          expect(toolSpans).to.have.length(1);
          const span = toolSpans[0]!;
          // The span is @ai-sdk/otel's: only it records the duration attribute.
          expect(span.attributes['gen_ai.execute_tool.duration']).to.be.a('number');
          expect(errorOf(span)).to.deep.equal(executedFailure('500', 'transient'));
          // @ai-sdk/otel records the exception itself; the wrapper adds none.
          expect(span.events.filter((e) => e.name === 'exception')).to.have.length(1);
        });

        it('classifies a returned error result before @ai-sdk/otel ends its span', async () => {
          await generate('adk_contract', {});
          const span = bed.tracing.span('execute_tool adk_contract');
          expect(span.attributes['gen_ai.execute_tool.duration']).to.be.a('number');
          expect(errorOf(span)).to.include({ type: '503', kind: 'transient', status: SpanStatusCode.ERROR });
        });

        it('stays innermost when re-enabled after @ai-sdk/otel was registered', async () => {
          bed.instrumentation.disable();
          bed.instrumentation.enable();
          expect(integrations()[0]).not.to.equal(otel);
          await generate('fetch_path', { path: '/401' });
          expect(bed.tracing.spans().filter((s) => s.name.startsWith('execute_tool'))).to.have.length(1);
          expect(errorOf(bed.tracing.span('execute_tool fetch_path'))).to.include({ type: '401' });
        });
      });

      it('disable removes the integration; enable adds it once', async () => {
        const count = () => integrations().length;
        const before = count();
        bed.instrumentation.disable();
        expect(count()).to.equal(before - 1);
        await generate('fetch_path', { path: '/500' });
        expect(bed.tracing.spans().map((s) => s.name)).to.deep.equal(['agent']);
        bed.instrumentation.enable();
        bed.instrumentation.enable();
        expect(count()).to.equal(before);
      });
    });
  }
});
