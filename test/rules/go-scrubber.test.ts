import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { redactStack, redactText, scrubMessage } from '../../src/redact/text';
import { KEYED_SECRETS, leaksIn, secretCorpus, type CorpusSecret } from '../helpers/secret-oracle';

/**
 * The collector processor's scrubber (Go, with the rules file's redaction rules) against the same
 * secret corpus as the package's own redactor (test/reliability/secretlint-corpus.test.ts): every
 * secret the secretlint recommended preset finds in its own test inputs, placed where a failing
 * tool puts it, must be gone from the status messages the processor writes, and from the exception
 * events of the tool spans it passes on.
 */

const MODULE = join(__dirname, '../../collector/toolerrorprocessor');

/** Where a secret sits in a status message (as in secretlint-corpus.test.ts). */
const PLACEMENTS: Record<string, (secret: string) => string> = {
  message: (s) => `lookup failed: ${s}`,
  'JSON body': (s) => `upstream said ${JSON.stringify({ error: 'denied', data: s })}`,
  'Python dict body': (s) => `Error code: 401 - {'error': {'message': 'denied', 'key': '${s}'}}`,
  'form body': (s) => `POST body q=weather&data=${encodeURIComponent(s)}`,
  'percent-encoded': (s) => `no result for ${encodeURIComponent(s)}`,
  'URL query': (s) => `GET https://api.example.com/v1/search?q=${encodeURIComponent(s)} failed`,
  'URL path': (s) => `GET https://api.example.com/hooks/${encodeURIComponent(s)}/send failed`,
  'URL userinfo': (s) => `connect https://agent:${encodeURIComponent(s)}@db.example.com/x refused`,
};

function goRun<T>(command: string, input: unknown): T {
  const out = execFileSync('go', ['run', command], {
    cwd: MODULE,
    input: JSON.stringify(input),
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
  return JSON.parse(out) as T;
}

function goScrub(texts: readonly string[]): string[] {
  return goRun<string[]>('./internal/cmd/scrub', texts);
}

/** A failed Python tool as its span records it: status message, exception message and stacktrace. */
interface PythonFailure {
  status: string;
  message: string;
  stacktrace: string;
}

/** The text as a Python tool's failure carries it: in the error's message and in a source line. */
function pythonFailure(text: string): PythonFailure {
  const stacktrace = [
    'Traceback (most recent call last):',
    '  File "/app/tools.py", line 12, in search',
    `    response = client.get(url, params={"q": ${JSON.stringify(text)}})`,
    '  File "/venv/lib/python3.11/site-packages/httpx/_client.py", line 814, in get',
    '    raise RuntimeError(message)',
    `RuntimeError: ${text}`,
    '',
  ].join('\n');
  // OpenInference's status: LangChain's repr(error) followed by the whole traceback.
  return { status: `RuntimeError(${JSON.stringify(text)})${stacktrace}`, message: text, stacktrace };
}

/** A failed Java tool: the text in its wrapper's message and in a `Caused by:` line, among frames. */
function javaFailure(text: string): PythonFailure {
  const frames = '\tat com.example.agent.TokenService.refresh(TokenService.java:42)\n\t... 12 more';
  const stacktrace = [
    `org.springframework.ai.tool.execution.ToolExecutionException: ${text}`,
    frames,
    `Caused by: org.springframework.web.client.ResourceAccessException: ${text}`,
    frames,
    'Caused by: java.net.ConnectException',
    frames,
  ].join('\n');
  return { status: text, message: text, stacktrace };
}

/** A failed Go tool: the text in its panic's message, above a goroutine's frames. */
function goFailure(text: string): PythonFailure {
  const stacktrace = [
    `panic: ${text}`,
    '',
    'goroutine 1 [running]:',
    'main.fetchToken({0xc0001a2000, 0x2a})',
    '\t/app/token.go:42 +0x1d',
  ].join('\n');
  return { status: text, message: text, stacktrace };
}

/** The processor run on failed OpenInference TOOL spans, in one batch, as a collector runs it. */
function goProcess(failures: readonly PythonFailure[]): PythonFailure[] {
  return goRun<PythonFailure[]>('./internal/cmd/exceptionevents', failures);
}

describe("the collector processor's scrubber against the secret corpus (skipped without a Go toolchain)", function () {
  this.timeout(300_000);
  let corpus: CorpusSecret[];

  before(async function () {
    if (spawnSync('go', ['version']).status !== 0) {
      console.log('      no Go toolchain: the collector processor is not checked here (it needs Go 1.25+)');
      this.skip(); // no Go toolchain: nothing to run the processor with
    }
    corpus = await secretCorpus();
  });

  it('leaves no secret of the corpus in any placement', async () => {
    const inputs = Object.values(PLACEMENTS).flatMap((place) =>
      corpus.map((from) => ({ text: place(from.secret), from })),
    );
    const scrubbed = goScrub(inputs.map((input) => input.text));
    expect(scrubbed).to.have.length(inputs.length);
    const leaks = await leaksIn(scrubbed.map((text, i) => ({ text, from: inputs[i]!.from })));
    console.log(`      ${corpus.length} secrets, ${inputs.length} placements, ${leaks.length} leaks`);
    expect(leaks, leaks.join('\n')).to.deep.equal([]);
  });

  it('removes keyed secrets from JSON and form bodies', () => {
    const texts = KEYED_SECRETS.flatMap(({ key, value }) => [
      `token endpoint said ${JSON.stringify({ [key]: value, token_type: 'Bearer' })}`,
      `POST grant_type=refresh_token&${key}=${value}&scope=read`,
    ]);
    const scrubbed = goScrub(texts);
    KEYED_SECRETS.forEach(({ value }, i) => {
      expect(scrubbed[2 * i], texts[2 * i]).not.to.include(value);
      expect(scrubbed[2 * i + 1], texts[2 * i + 1]).not.to.include(value);
    });
  });

  it("leaves no secret of the corpus in a Python, Java or Go tool span's exception event or status", async () => {
    const inputs = Object.values(PLACEMENTS).flatMap((place) =>
      corpus.flatMap((from) =>
        [pythonFailure, javaFailure, goFailure].map((failure) => ({
          failure: failure(place(from.secret)),
          from,
        })),
      ),
    );
    const processed = goProcess(inputs.map((input) => input.failure));
    expect(processed).to.have.length(inputs.length);
    const outputs = processed.flatMap(({ status, message, stacktrace }, i) =>
      [status, message, stacktrace].map((text) => ({ text, from: inputs[i]!.from })),
    );
    const leaks = await leaksIn(outputs);
    console.log(`      ${inputs.length} failed tool spans, ${leaks.length} leaks`);
    expect(leaks, leaks.join('\n')).to.deep.equal([]);
    for (const { status } of processed) {
      expect(status).not.to.include('\n');
      expect(status.length).to.be.at.most(256);
    }
  });

  it("redacts an exception event's message and stacktrace as the package does", () => {
    const failures = Object.values(PLACEMENTS).flatMap((place) =>
      corpus.flatMap((from) =>
        [pythonFailure, javaFailure, goFailure].map((failure) => failure(place(from.secret))),
      ),
    );
    // A V8 stack too: its frame lines are kept as they are, its head scrubbed.
    failures.push({
      status: 'fetch failed',
      message: 'GET https://agent:pw@api.example.com/v1?api_key=Qm7Tb2Xv9 failed',
      stacktrace:
        'Error: GET https://agent:pw@api.example.com/v1?api_key=Qm7Tb2Xv9 failed\n    at search (/app/tools.js:3:9)\n    at run (/app/agent.js:8:1)',
    });
    const processed = goProcess(failures);
    const differing = failures.filter(
      (f, i) =>
        processed[i]!.message !== redactText(f.message) ||
        processed[i]!.stacktrace !== redactStack(f.stacktrace),
    );
    const shown = differing.slice(0, 3).map((f) => {
      const go = goProcess([f])[0]!;
      return `${f.stacktrace}\n  go: ${go.message} | ${go.stacktrace}\n  ts: ${redactText(f.message)} | ${redactStack(f.stacktrace)}`;
    });
    expect(differing.length, shown.join('\n')).to.equal(0);
  });

  it('writes what the package writes for the same text', () => {
    const inputs = Object.values(PLACEMENTS).flatMap((place) => corpus.map((from) => place(from.secret)));
    const scrubbed = goScrub(inputs);
    const differing = inputs.filter((text, i) => scrubbed[i] !== scrubMessage(text));
    const shown = differing
      .slice(0, 5)
      .map((text) => `${text}\n  go: ${goScrub([text])[0]}\n  ts: ${scrubMessage(text)}`);
    expect(differing.length, shown.join('\n')).to.equal(0);
  });
});
