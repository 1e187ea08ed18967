import { createRequire } from 'node:module';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { z } from 'zod';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import type { TestTracing } from '../helpers/tracing';
import { useTwoInstances } from '../helpers/two-instances';

// Loaded after both instances are enabled, so require-in-the-middle patches `ai` 6 for each.
const load = createRequire(__filename);
const { runAiSdkApprovals } = load('../register/fixtures/ai-sdk-approvals-run.cjs') as {
  runAiSdkApprovals(sdk: { ai: unknown; MockLanguageModelV3: unknown; z: unknown }): Promise<string>;
};
const { modelCallingEach } = load('../pipeline/apps/mock-language-model.cjs') as {
  modelCallingEach(
    model: unknown,
    calls: Array<{ toolName: string; toolCallId: string; input: unknown }>,
  ): unknown;
};

/**
 * Two ToolInstrumentation instances, each with its own tracer provider, and the AI SDK calls that
 * never reach a tool: approvals asked (`paused`) and refused (`denied`), and calls the SDK rejects
 * (input failing the schema). v6 (`ai`, patched) and v7 (`ai-v7`, telemetry integrations), driven
 * with MockLanguageModelV3 by the approvals app of the register's spec. As with the calls that do
 * reach a tool, each gets one span: both enabled, from one of them; with one disabled, from the other.
 */
const SDKS = [
  { version: 'v6', ai: 'ai' },
  { version: 'v7', ai: 'ai-v7' },
];

/** Each span of one run, as `callId outcome-or-error.type`, sorted. */
const EXPECTED = [
  'invalid-refund InvalidToolInputError',
  'lookup-false Error',
  'lookup-true Error',
  'refund-false denied',
  'refund-false paused',
  'refund-true ok',
  'refund-true paused',
];

for (const sdk of SDKS)
  describe(`AI SDK ${sdk.version} approvals and rejected calls: two ToolInstrumentation instances with their own providers`, function () {
    this.timeout(120_000);
    const two = useTwoInstances();
    let server: FlakyServer;
    let ai: { generateText(options: unknown): Promise<unknown>; tool(options: unknown): unknown };
    let MockLanguageModelV3: unknown;
    const flakyUrl = process.env.FLAKY_URL;

    before(async () => {
      server = await startFlakyServer();
      process.env.FLAKY_URL = server.url;
      ai = load(sdk.ai);
      ({ MockLanguageModelV3 } = load(`${sdk.ai}/test`) as { MockLanguageModelV3: unknown });
    });
    after(async () => {
      if (flakyUrl === undefined) delete process.env.FLAKY_URL;
      else process.env.FLAKY_URL = flakyUrl;
      await server.close();
    });

    const describeSpan = (span: ReadableSpan) =>
      `${String(span.attributes['gen_ai.tool.call.id'])} ${String(
        span.attributes['tool.call.outcome'] ?? span.attributes['error.type'] ?? 'ok',
      )}`;

    /** The approvals app, then a refund whose input fails the schema: the tool spans, per provider. */
    async function run(): Promise<[string[], string[]]> {
      two.first.reset();
      two.second.reset();
      await runAiSdkApprovals({ ai, MockLanguageModelV3, z });
      await ai.generateText({
        model: modelCallingEach(MockLanguageModelV3, [
          { toolName: 'refund', toolCallId: 'invalid-refund', input: { amount: 'all of it' } },
        ]),
        tools: {
          refund: ai.tool({ inputSchema: z.object({ amount: z.number() }), execute: async () => 'done' }),
        },
        prompt: 'refund everything',
      });
      const spans = (tracing: TestTracing) =>
        tracing
          .spans()
          .filter((span) => span.name.startsWith('execute_tool '))
          .map(describeSpan)
          .sort();
      return [spans(two.first), spans(two.second)];
    }

    it('both enabled: one span per call in all', async () => {
      const [inFirst, inSecond] = await run();
      expect([...inFirst, ...inSecond].sort(), JSON.stringify({ inFirst, inSecond })).to.deep.equal(EXPECTED);
    });

    it('the first disabled: the second makes every span', async () => {
      await two.whileDisabled(two.a, async () => {
        expect(await run()).to.deep.equal([[], EXPECTED]);
      });
    });

    it('the second disabled: the first makes every span', async () => {
      await two.whileDisabled(two.b, async () => {
        expect(await run()).to.deep.equal([EXPECTED, []]);
      });
    });

    it('both enabled again: one span per call in all', async () => {
      const [inFirst, inSecond] = await run();
      expect([...inFirst, ...inSecond].sort(), JSON.stringify({ inFirst, inSecond })).to.deep.equal(EXPECTED);
    });
  });
