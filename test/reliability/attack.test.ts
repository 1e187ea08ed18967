import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { buildRegisterBundles, type RegisterBundles } from '../helpers/register-bundles';
import { KEYED_SECRETS, leaksIn, secretCorpus, type CorpusSecret } from '../helpers/secret-oracle';
import { decodeJsonSpans, startOtlpJsonReceiver, type OtlpJsonReceiver } from '../helpers/otlp-json-receiver';

/**
 * The attack suite: the register, as users run it (`node --require`), in a child process that
 * exports OTLP/HTTP protobuf or JSON to a receiver on 127.0.0.1. The app's tools fail with every
 * secret of the secretlint recommended preset's corpus (and the extra shapes), thrown, caused,
 * percent-encoded, returned, in the URLs (query, path, userinfo) and bodies of real HTTP calls,
 * and framework-shaped tool spans record them in their own exception events. Every byte the
 * receiver gets is searched. With capture off, the tool's argument text must not appear either.
 */

const ROOT = join(__dirname, '..', '..');
const FIXTURE = join(__dirname, 'fixtures', 'attack-agent.cjs');
/** A tool argument: a search topic a person would not want in a trace. */
const TOPIC = 'tax fraud lawyer for Jane Roe';

type Protocol = 'http/protobuf' | 'http/json';

/** 127.0.0.1 upstream: 500 for searches and webhooks, 503 for the database, 400 echoing bodies. */
async function startUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (path.startsWith('/body') || path.startsWith('/keyed')) {
        res.writeHead(path.startsWith('/body') ? 400 : 401, { 'content-type': 'text/plain' });
        res.end(`rejected ${Buffer.concat(chunks).toString()}`);
      } else {
        res.writeHead(path.startsWith('/db') ? 503 : 500);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('attack: nothing secret leaves the register (child process, real OTLP bytes)', function () {
  this.timeout(180_000);
  let outDir: string;
  let registerCjs: string;
  let casesFile: string;
  let bundles: RegisterBundles | undefined;
  let corpus: CorpusSecret[];
  let upstream: { url: string; close(): Promise<void> };
  let receiver: OtlpJsonReceiver;
  const counts: string[] = [];

  before(async () => {
    mkdirSync(join(ROOT, '.cache'), { recursive: true });
    outDir = mkdtempSync(join(ROOT, '.cache', 'attack-test-'));
    bundles = await buildRegisterBundles();
    registerCjs = bundles.cjs;
    corpus = await secretCorpus();
    casesFile = join(outDir, 'cases.json');
    writeFileSync(
      casesFile,
      JSON.stringify({ topic: TOPIC, secrets: corpus.map((entry) => entry.secret), keyed: KEYED_SECRETS }),
    );
    upstream = await startUpstream();
  });
  beforeEach(async () => {
    receiver = await startOtlpJsonReceiver();
  });
  afterEach(() => receiver.close());
  after(async () => {
    await upstream?.close();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
    bundles?.dispose();
    for (const line of counts) console.log(`      ${line}`);
  });

  async function runAgent(protocol: Protocol, capture: string): Promise<{ stdout: string; stderr: string }> {
    const child = spawn(process.execPath, ['--require', registerCjs, FIXTURE], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        OTEL_SERVICE_NAME: 'attack',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.tracesUrl,
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: protocol,
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_LOGS_EXPORTER: 'none',
        // Up to 3 MB of spans per run: a loaded machine can take longer than the register's 1 s
        // exit bound to receive them, and the run would then say telemetry was lost.
        OTEL_TOOL_ERRORS_EXIT_TIMEOUT: '10000',
        OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS: capture,
        OTEL_TOOL_ERRORS_CAPTURE_RESULTS: capture,
        ATTACK_CASES: casesFile,
        ECHO_URL: upstream.url,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).to.equal(0);
    return { stdout, stderr };
  }

  /** Every string the exported bodies hold: the raw bytes, and for JSON the decoded span strings. */
  function exportedTexts(protocol: Protocol): string[] {
    const texts = receiver.bodies.map((body) => body.toString('utf8'));
    if (protocol === 'http/json') {
      const spans = receiver.bodies.flatMap((body) => decodeJsonSpans(body));
      texts.push(
        ...spans.map((span) =>
          [
            span.name,
            span.statusMessage ?? '',
            ...Object.values(span.attributes).map(String),
            ...span.events.flatMap((event) => Object.values(event.attributes).map(String)),
          ].join('\n'),
        ),
      );
    }
    return texts;
  }

  for (const protocol of ['http/protobuf', 'http/json'] as Protocol[]) {
    for (const capture of [false, true]) {
      it(`${protocol}, capture ${capture ? 'on' : 'off'}: 0 leaks in every exported byte`, async () => {
        const { stdout, stderr } = await runAgent(protocol, String(capture));
        expect(stderr, 'stderr').to.equal('');
        const calls = Number(/calls=(\d+)/.exec(stdout)?.[1]);
        expect(calls).to.equal(corpus.length * 9 + KEYED_SECRETS.length * 3);
        const texts = exportedTexts(protocol);
        const bytes = receiver.bodies.reduce((sum, body) => sum + body.length, 0);
        expect(bytes, 'something was exported').to.be.greaterThan(100_000);
        // The search can see: tool names are there, and with capture on, the captured argument.
        const all = texts.join('\n');
        expect(all).to.include('fetch_query').and.include('post_form');
        if (capture) expect(all).to.include(TOPIC);
        if (protocol === 'http/json') {
          // The HTTP client spans of the tools' calls are there, their URLs redacted.
          const urls = receiver
            .spans()
            .map((span) => span.attributes['url.full'] ?? span.attributes['http.url'])
            .filter((url): url is string => typeof url === 'string' && url.includes('/search?'));
          expect(urls).to.have.length(corpus.length);
          for (const url of urls)
            expect(url).to.match(
              capture ? /&api_key=REDACTED$/ : /\?q=REDACTED&data=REDACTED&api_key=REDACTED$/,
            );
        }

        const keyed: CorpusSecret[] = KEYED_SECRETS.map(({ key, value }) => ({
          rule: `keyed ${key}`,
          secret: value,
        }));
        const outputs = texts.flatMap((text) => [...corpus, ...keyed].map((from) => ({ text, from })));
        const leaks = [...new Set(await leaksIn(outputs))];
        if (!capture) {
          for (const variant of [TOPIC, encodeURIComponent(TOPIC), TOPIC.replace(/ /g, '+')]) {
            const at = all.indexOf(variant);
            if (at !== -1)
              leaks.push(`the tool argument: ${JSON.stringify(all.slice(Math.max(0, at - 160), at + 60))}`);
          }
        }
        counts.push(
          `${protocol}, capture ${capture ? 'on' : 'off'}: ${calls} tool calls, ${corpus.length} + ${keyed.length} secrets, ${bytes} bytes searched, ${leaks.length} leaks`,
        );
        expect(leaks, leaks.slice(0, 20).join('\n')).to.deep.equal([]);
      });
    }
  }

  it('OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS=yes: one warning naming the valid values, and capture stays off', async () => {
    const { stderr } = await runAgent('http/json', 'yes');
    expect(stderr.trim().split('\n')).to.deep.equal([
      'otel-tool-errors/register: OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS="yes" is not valid; use true or false. Read as false.',
      'otel-tool-errors/register: OTEL_TOOL_ERRORS_CAPTURE_RESULTS="yes" is not valid; use true or false. Read as false.',
    ]);
    const spans = receiver.spans();
    expect(spans.length).to.be.greaterThan(900);
    expect(spans.filter((span) => 'gen_ai.tool.call.arguments' in span.attributes)).to.deep.equal([]);
    expect(exportedTexts('http/json').join('\n')).not.to.include(TOPIC);
  });
});
