import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { scrubMessage } from '../../src/redact/text';
import { KEYED_SECRETS, leaksIn, secretCorpus, type CorpusSecret } from '../helpers/secret-oracle';

/**
 * The collector processor's scrubber (Go, with the rules file's redaction rules) against the same
 * secret corpus as the package's own redactor (test/reliability/secretlint-corpus.test.ts): every
 * secret the secretlint recommended preset finds in its own test inputs, placed where a failing
 * tool puts it, must be gone from the status messages the processor writes.
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

function goScrub(texts: readonly string[]): string[] {
  const out = execFileSync('go', ['run', './internal/cmd/scrub'], {
    cwd: MODULE,
    input: JSON.stringify(texts),
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[];
}

describe("the collector processor's scrubber against the secret corpus", function () {
  this.timeout(300_000);
  let corpus: CorpusSecret[];

  before(async function () {
    if (spawnSync('go', ['version']).status !== 0) {
      console.log('      no Go toolchain: the collector processor is not checked here (it needs Go 1.25+)');
      this.skip();
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
