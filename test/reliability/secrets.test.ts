import { OTLPTraceExporter as OTLPTraceExporterJson } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPTraceExporterProto } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import fc from 'fast-check';
import {} from '../../src';
import { redactForCapture } from '../../src/redact/capture';
import { scrubMessage } from '../../src/redact/text';
import { instrumentTool } from '../../src/instrumentation/instrument-tool';
import { traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { ToolErrorSpanProcessor } from '../../src';
import { ensureContextManager } from '../helpers/tracing';
import { heavy } from './heavy';
import { startOtlpJsonReceiver, type OtlpJsonReceiver } from '../helpers/otlp-json-receiver';
import { SECRET_KEYS, SECRET_SAMPLES } from './secrets-corpus';

/** Where a secret can sit before it reaches `redactForCapture` or `scrubMessage`. */
const CONTEXTS: Record<string, (text: string) => string> = {
  'scrubMessage(text)': (text) => scrubMessage(text),
  'redactForCapture(text)': (text) => redactForCapture(text),
  // Inside a JSON value the quotes around the secret arrive escaped (\").
  'redactForCapture({input: text})': (text) => redactForCapture({ input: text }),
  'redactForCapture([{a: {b: text}}])': (text) => redactForCapture([{ a: { b: text } }]),
  'redactForCapture({body: JSON.stringify({data: text})})': (text) =>
    redactForCapture({ body: JSON.stringify({ data: text }) }),
};

describe('secrets: the redaction corpus', () => {
  let tried = 0;
  let leaks = 0;
  after(() => console.log(`      secrets corpus: ${tried} cases tried, ${leaks} leaks`));

  for (const sample of SECRET_SAMPLES) {
    it(`redacts ${sample.label} in every context`, () => {
      const leaked: string[] = [];
      for (const [where, redact] of Object.entries(CONTEXTS)) {
        tried++;
        const out = redact(sample.text);
        if (out.includes(sample.secret)) leaked.push(`${where} -> ${out}`);
      }
      leaks += leaked.length;
      expect(leaked, leaked.join('\n')).to.deep.equal([]);
    });
  }

  it('redacts every secret-named key, at any depth, whatever the value', () => {
    for (const key of SECRET_KEYS) {
      const canary = `keyCanary_${key.replace(/\W/g, '')}_7f3a`;
      for (const value of [
        { [key]: canary },
        { outer: { [key]: canary } },
        [{ headers: { [key]: canary } }],
      ]) {
        tried++;
        const out = redactForCapture(value);
        if (out.includes(canary)) leaks++;
        expect(out, `${key}: ${out}`).not.to.include(canary);
        expect(out).to.include('[REDACTED]');
      }
    }
  });

  it('keeps what is not secret readable', () => {
    expect(redactForCapture({ city: 'Lyon', days: 3 })).to.equal('{"city":"Lyon","days":3}');
    expect(scrubMessage('Request failed with status code 503')).to.equal(
      'Request failed with status code 503',
    );
    expect(scrubMessage('GET https://api.example.com/v1/x?token=abc failed')).to.equal(
      'GET https://api.example.com/v1/x failed',
    );
  });

  it('truncates captured values and status messages', () => {
    const big = { rows: Array.from({ length: 5_000 }, (_, i) => ({ id: i, name: `row ${i}` })) };
    expect(redactForCapture(big)).to.have.length.at.most(1024);
    expect(redactForCapture(big, 100)).to.have.length.at.most(100);
    expect(redactForCapture('x'.repeat(10 * 1024 * 1024))).to.have.length.at.most(1024);
    expect(scrubMessage(`boom ${'y'.repeat(100_000)}`)).to.have.length.at.most(256);
    // A secret past the cut must not survive as a recognisable fragment either.
    const tail = redactForCapture({ pad: 'p'.repeat(1010), key: 'sk-abcdefghijklmnopqrstuvwxyz012345' });
    expect(tail).not.to.include('sk-abcdefghij');
  });

  it('status messages never keep a URL query string, fragment or userinfo (fast-check)', () => {
    const urls = fc
      .webUrl({ authoritySettings: { withUserInfo: true }, withQueryParameters: true, withFragments: true })
      // An apostrophe ends the query scrub on purpose (a quoted URL keeps its closing quote), so
      // the generator leaves it out; see the report on issue 9.
      .map((url) => url.replace(/'/g, ''));
    const framing = fc.constantFrom('GET ', 'request to ', 'fetch failed: ', '(', '"', 'url=');
    let runs = 0;
    fc.assert(
      fc.property(urls, framing, (url, before) => {
        runs++;
        const out = scrubMessage(`${before}${url} failed`);
        const parsed = new URL(url);
        if (parsed.search.length > 1) expect(out).not.to.include(parsed.search);
        if (parsed.hash.length > 1) expect(out).not.to.include(parsed.hash);
        const userinfo = /^[a-z]+:\/\/([^/?#]*)@/i.exec(url)?.[1];
        if (userinfo) expect(out).not.to.include(`://${userinfo}@`);
      }),
      { numRuns: heavy ? 50_000 : 3_000 },
    );
    tried += runs;
  });
});

/** Unique strings that must never appear in telemetry while capture is off. */
function canary(kind: string): string {
  return `cnry${kind}${Math.random().toString(36).slice(2, 10)}`;
}

type Protocol = 'http/json' | 'http/protobuf';

/** Where a string sits in the decoded spans, for the failure message (JSON bodies only). */
function whereIs(receiver: OtlpJsonReceiver, needle: string): string[] {
  const places: string[] = [];
  for (const span of receiver.spans()) {
    for (const [key, value] of Object.entries(span.attributes)) {
      if (JSON.stringify(value).includes(needle)) places.push(`${span.name}: attribute ${key}`);
    }
    if (span.statusMessage?.includes(needle)) places.push(`${span.name}: status message`);
    for (const event of span.events) {
      for (const [key, value] of Object.entries(event.attributes)) {
        if (JSON.stringify(value).includes(needle)) places.push(`${span.name}: ${event.name} event ${key}`);
      }
    }
  }
  return places;
}

for (const protocol of ['http/json', 'http/protobuf'] as Protocol[]) {
  describe(`secrets: every byte a real OTLP exporter sends (${protocol}) to 127.0.0.1`, () => {
    let receiver: OtlpJsonReceiver;
    let provider: BasicTracerProvider;

    before(async () => {
      ensureContextManager();
      receiver = await startOtlpJsonReceiver();
      const exporter =
        protocol === 'http/json'
          ? new OTLPTraceExporterJson({ url: receiver.tracesUrl })
          : new OTLPTraceExporterProto({ url: receiver.tracesUrl });
      provider = new BasicTracerProvider({
        resource: resourceFromAttributes({ 'service.name': 'secrets-suite' }),
        spanProcessors: [new ToolErrorSpanProcessor(), new BatchSpanProcessor(exporter)],
      });
    });
    beforeEach(() => receiver.reset());
    after(async () => {
      await provider.shutdown();
      await receiver.close();
    });

    /** Every exported byte as text (protobuf strings are UTF-8 in the wire format). */
    async function exportedText(): Promise<string> {
      await provider.forceFlush();
      expect(receiver.bodies.length, 'the exporter sent something').to.be.greaterThan(0);
      return receiver.bodies.map((body) => body.toString('utf8')).join('\n');
    }

    /** The same calls in every test: each path by which input or output could reach a span. */
    async function runTools(
      args: Record<string, unknown>,
      result: unknown,
      errorText: string,
      capture: boolean,
    ) {
      const tracer = provider.getTracer('secrets');
      const options = { tracerProvider: provider, captureArguments: capture, captureResults: capture };
      const config = { captureArguments: capture, captureResults: capture };
      const ok = instrumentTool(async (_a: unknown) => result, 'ok_tool', options);
      const returnsMcpError = instrumentTool(
        (_a: unknown) => ({ isError: true, content: [{ type: 'text', text: errorText }] }),
        'mcp_tool',
        options,
      );
      const returnsFailure = instrumentTool(
        (_a: unknown) => ({ success: false, error: errorText }),
        'adk_tool',
        options,
      );
      const throwsSync = instrumentTool(
        (_a: unknown) => {
          throw new Error(errorText);
        },
        'sync_tool',
        options,
      );
      const rejectsHttp = instrumentTool(
        async (_a: unknown) => {
          throw Object.assign(new Error(errorText), { status: 500 });
        },
        'http_tool',
        options,
      );
      await ok(args);
      returnsMcpError(args);
      returnsFailure(args);
      expect(() => throwsSync(args)).to.throw();
      await rejectsHttp(args).catch(() => undefined);
      const stream = traceToolCall(tracer, config, { name: 'stream_tool', args }, async function* () {
        yield result;
        throw new TypeError(errorText);
      });
      await (async () => {
        for await (const _ of stream);
      })().catch(() => undefined);
      await new Promise((resolve) => setImmediate(resolve));
    }

    it('capture off (the default): no argument, result, or error text built from them reaches any byte', async () => {
      const argCanary = canary('arg');
      const resultCanary = canary('res');
      const keyCanary = canary('key');
      const args = { query: argCanary, nested: { deep: [argCanary] }, [keyCanary]: 1 };
      await runTools(
        args,
        { answer: resultCanary, rows: [resultCanary] },
        `lookup failed for ${argCanary}`,
        false,
      );
      const text = await exportedText();
      const spans = protocol === 'http/json' ? receiver.spans().length : undefined;
      if (spans !== undefined) expect(spans).to.equal(6);
      const leaks = [argCanary, resultCanary, keyCanary].filter((c) => text.includes(c));
      console.log(
        `      secrets (${protocol}, capture off): ${receiver.bodies.length} requests, ` +
          `${text.length} bytes searched, ${leaks.length} of 3 canaries found`,
      );
      const detail = protocol === 'http/json' ? leaks.flatMap((c) => whereIs(receiver, c)) : leaks;
      expect(leaks, `leaked at: ${detail.join('; ')}`).to.deep.equal([]);
    });

    it('capture off: what the tool returned or streamed never reaches any byte, even when it failed', async () => {
      const resultCanary = canary('res');
      await runTools(
        { q: 1 },
        { answer: resultCanary },
        `failed ${resultCanary}`.replace(resultCanary, 'x'),
        false,
      );
      const text = await exportedText();
      expect(text.includes(resultCanary), whereIs(receiver, resultCanary).join('; ')).to.equal(false);
      // The returned error texts (MCP isError, {success:false}) stay out of the status too.
      const failed = canary('ret');
      receiver.reset();
      await runTools({ q: 1 }, 'fine', failed, false);
      const again = await exportedText();
      const places = protocol === 'http/json' ? whereIs(receiver, failed) : [];
      // Only the thrown errors may carry it (see the test above); the returned ones must not.
      expect(places.filter((p) => /mcp_tool|adk_tool/.test(p))).to.deep.equal([]);
      expect(again).to.include('execute_tool mcp_tool');
    });

    it('capture on: the secrets corpus is redacted in every byte, and captured values are truncated', async () => {
      const args: Record<string, unknown> = Object.fromEntries(
        SECRET_SAMPLES.map((s, i) => [`field${i}`, s.text]),
      );
      for (const key of SECRET_KEYS) args[key] = `value-of-${key}-${canary('k')}`;
      args.padding = 'p'.repeat(50_000);
      const result = {
        echoed: SECRET_SAMPLES.map((s) => s.text),
        body: JSON.stringify({ password: 'resPassw0rd!' }),
      };
      const errorText = SECRET_SAMPLES.map((s) => s.text).join(' | ');
      await runTools(args, result, errorText, true);
      const text = await exportedText();
      const leaked = [
        ...SECRET_SAMPLES.map((s) => s.secret),
        ...SECRET_KEYS.map((key) => String(args[key])),
        'resPassw0rd!',
      ].filter((secret) => text.includes(secret));
      console.log(
        `      secrets (${protocol}, capture on): ${text.length} bytes searched for ` +
          `${SECRET_SAMPLES.length + SECRET_KEYS.length + 1} secrets, ${leaked.length} found`,
      );
      const detail =
        protocol === 'http/json' ? leaked.map((s) => `${s} at ${whereIs(receiver, s).join(', ')}`) : leaked;
      expect(leaked, `leaked: ${detail.join('; ')}`).to.deep.equal([]);
      if (protocol === 'http/json') {
        const captured = receiver
          .spans()
          .flatMap((s) => [
            s.attributes['gen_ai.tool.call.arguments'],
            s.attributes['gen_ai.tool.call.result'],
          ])
          .filter((v): v is string => typeof v === 'string');
        expect(captured.length).to.be.greaterThan(0);
        for (const value of captured) expect(value).to.have.length.at.most(1024);
      }
    });

    it('URL query strings and userinfo reach no byte; the status message keeps the rest of the URL', async () => {
      const tool = instrumentTool(
        async (_a: unknown) => {
          throw Object.assign(
            new Error('GET https://bob:s3cretUser@api.example.com/v1/search?key=qS3cret&q=x failed'),
            {
              status: 502,
            },
          );
        },
        'url_tool',
        { tracerProvider: provider },
      );
      await tool({}).catch(() => undefined);
      await new Promise((resolve) => setImmediate(resolve));
      const text = await exportedText();
      expect(text).to.include('url_tool');
      if (protocol === 'http/json') {
        const span = receiver.spans().find((s) => s.name === 'execute_tool url_tool')!;
        expect(span.statusCode).to.equal(2);
        expect(span.statusMessage).to.equal('GET https://[REDACTED]@api.example.com/v1/search failed');
      }
      for (const secret of ['s3cretUser', 'qS3cret']) {
        expect(text.includes(secret), `${secret} at ${whereIs(receiver, secret).join(', ')}`).to.equal(false);
      }
    });
  });
}
