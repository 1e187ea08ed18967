import { expect } from 'chai';
import { redactForCapture } from '../../src/redact/capture';
import { redactText, scrubMessage } from '../../src/redact/text';
import { redactUrl } from '../../src/redact/url';
import {
  findSecrets,
  KEYED_SECRETS,
  leaksIn,
  PATH_TOKENS,
  secretCorpus,
  type CorpusSecret,
} from '../helpers/secret-oracle';

/**
 * The redactor against a maintained rule set: every secret the secretlint recommended preset
 * finds in its own test inputs (plus the shapes in EXTRA_SECRETS), placed where a failing tool
 * puts it, must be gone from the redactor's output. The same corpus runs end to end, through the
 * register and real OTLP exporters, in attack.test.ts.
 */

/** Where a secret sits in text the redactor sees. */
export const PLACEMENTS: Record<string, (secret: string) => string> = {
  message: (s) => `lookup failed: ${s}`,
  'JSON body': (s) => `upstream said ${JSON.stringify({ error: 'denied', data: s })}`,
  'form body': (s) => `POST body q=weather&data=${encodeURIComponent(s)}`,
  'percent-encoded': (s) => `no result for ${encodeURIComponent(s)}`,
  'URL query': (s) => `GET https://api.example.com/v1/search?q=${encodeURIComponent(s)} failed`,
  'URL path': (s) => `GET https://api.example.com/hooks/${encodeURIComponent(s)}/send failed`,
  'URL userinfo': (s) => `connect https://agent:${encodeURIComponent(s)}@db.example.com/x refused`,
};

/** URLs as an HTTP instrumentation records them. */
export const URL_PLACEMENTS: Record<string, (secret: string) => string> = {
  query: (s) => `https://api.example.com/v1/search?q=${encodeURIComponent(s)}&page=2`,
  path: (s) => `https://api.example.com/hooks/${encodeURIComponent(s)}/send`,
  userinfo: (s) => `https://agent:${encodeURIComponent(s)}@db.example.com/x`,
  fragment: (s) => `https://app.example.com/callback#state=1&token=${encodeURIComponent(s)}`,
};

describe('secrets: the redactor against the secretlint recommended preset', function () {
  this.timeout(120_000);
  let corpus: CorpusSecret[];
  let tried = 0;
  let leaked = 0;

  before(async () => {
    corpus = await secretCorpus();
  });
  after(() =>
    console.log(`      secretlint corpus: ${corpus.length} secrets, ${tried} placements, ${leaked} leaks`),
  );

  it('the corpus is what the preset detects, over its rules', async () => {
    const rules = new Set(corpus.map((entry) => entry.rule));
    expect(corpus.length).to.be.at.least(80);
    for (const rule of [
      'aws',
      'privatekey',
      'npm',
      'basicauth',
      'slack',
      'github',
      'gitlab',
      'huggingface',
      'openai',
      'anthropic',
      'database-connection-string',
      'hashicorp-vault',
    ]) {
      expect(rules, rule).to.include(rule);
    }
    // The oracle itself finds what it is meant to find.
    expect(await findSecrets('token: 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')).to.have.length(1);
  });

  for (const [where, place] of Object.entries(PLACEMENTS)) {
    it(`status messages and exception text: a secret in a ${where}`, async () => {
      const outputs = corpus.flatMap((from) => {
        const text = place(from.secret);
        return [
          scrubMessage(text),
          redactText(text),
          redactForCapture(text),
          redactForCapture({ input: text }),
        ].map((out) => ({ text: out, from }));
      });
      tried += outputs.length;
      const leaks = await leaksIn(outputs);
      leaked += leaks.length;
      expect(leaks, leaks.join('\n')).to.deep.equal([]);
    });
  }

  for (const [where, place] of Object.entries(URL_PLACEMENTS)) {
    it(`URL attributes: a secret in the ${where}`, async () => {
      const outputs = corpus.map((from) => ({ text: redactUrl(place(from.secret)), from }));
      tried += outputs.length;
      const leaks = await leaksIn(outputs);
      leaked += leaks.length;
      expect(leaks, leaks.join('\n')).to.deep.equal([]);
    });
  }

  it('URL attributes: a URL that is itself a secret (a webhook, a bot token in the path)', async () => {
    const urls = corpus.filter((from) => /^https?:\/\/\S+$/.test(from.secret));
    expect(urls.map((from) => from.rule)).to.include.members(PATH_TOKENS.map((from) => from.rule));
    const outputs = urls.map((from) => ({ text: redactUrl(from.secret), from }));
    tried += outputs.length;
    const leaks = await leaksIn(outputs);
    leaked += leaks.length;
    expect(leaks, leaks.join('\n')).to.deep.equal([]);
  });

  it('keyed secrets in JSON and form bodies, and as query parameters', () => {
    for (const { key, value } of KEYED_SECRETS) {
      const texts = [
        `token endpoint said ${JSON.stringify({ [key]: value, token_type: 'Bearer' })}`,
        `token endpoint said ${JSON.stringify(JSON.stringify({ [key]: value }))}`,
        `POST grant_type=refresh_token&${key}=${value}&scope=read`,
      ];
      for (const text of texts) {
        for (const out of [scrubMessage(text), redactText(text), redactForCapture(text)]) {
          tried++;
          expect(out, text).not.to.include(value);
        }
      }
      tried += 2;
      expect(redactForCapture({ nested: { [key]: value } })).not.to.include(value);
      expect(redactUrl(`https://auth.example.com/cb?${key}=${value}&x=1`)).to.equal(
        `https://auth.example.com/cb?${key}=REDACTED&x=1`,
      );
    }
  });

  it('keeps what is not secret readable', () => {
    expect(redactUrl('https://api.example.com/v1/weather/get-forecast?city=Lyon&days=3')).to.equal(
      'https://api.example.com/v1/weather/get-forecast?city=Lyon&days=3',
    );
    expect(redactUrl('https://u:p@api.example.com/x?sig=abc&code=xyz&api_key=k')).to.equal(
      'https://REDACTED:REDACTED@api.example.com/x?sig=REDACTED&code=REDACTED&api_key=REDACTED',
    );
    expect(
      redactUrl('https://hooks.slack.com/services/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S'),
    ).to.equal('https://hooks.slack.com/services/T0ABCD1EF/B0GHIJ2KL/REDACTED');
    // The ids of a secret-bearing path shape stay readable; a path that only shares its words stays.
    expect(
      redactUrl('https://chat.example.com/api/webhooks/112233445566778899/k3jd9slq/messages/7'),
    ).to.equal('https://chat.example.com/api/webhooks/112233445566778899/REDACTED/messages/7');
    expect(redactUrl('https://api.example.com/v1/services/billing/items/42')).to.equal(
      'https://api.example.com/v1/services/billing/items/42',
    );
    expect(
      scrubMessage('POST https://relay.example.org/services/T0ABCD1EF/B0GHIJ2KL/q8Xw4Vb6 failed: 500'),
    ).to.equal('POST https://relay.example.org/services/T0ABCD1EF/B0GHIJ2KL/[REDACTED] failed: 500');
    expect(redactUrl('/search?q=tax%20fraud%20lawyer', { allQueryValues: true, hidden: [] })).to.equal(
      '/search?q=REDACTED',
    );
    expect(redactUrl('/people/Jane%20Doe/cases', { allQueryValues: false, hidden: ['Jane Doe'] })).to.equal(
      '/people/REDACTED/cases',
    );
    expect(scrubMessage('Request failed with status code 503')).to.equal(
      'Request failed with status code 503',
    );
    expect(redactText('no lawyer found for tax%20fraud%20lawyer', 200, ['tax fraud lawyer'])).to.equal(
      'no lawyer found for [REDACTED]',
    );
  });
});
