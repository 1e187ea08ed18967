import { compare, formatNs, type Row } from './harness';
import { loadPackage } from './subject';
import { consume } from './tracing';

const { scrubMessage, redactForCapture, RedactingSpanProcessor } = loadPackage();

/**
 * Case 7: the redactor, which runs on failure paths only (a failed tool's status message and
 * exception event, opted-in captures), and `RedactingSpanProcessor.onEnding`, which runs on every
 * span but redacts only the URL attributes a span has. Against the cost of `new Error()`. Then
 * `redactForCapture` on 1 KB and 4 KB texts full of near misses, to show linear time per character.
 */

const OPS = 100;
const STACK = [
  'Error: GET https://api.example.com/v1/search?q=weather&api_key=k3y failed with 401',
  ...Array.from({ length: 9 }, (_, i) => `    at step${i} (/app/node_modules/lib/index.js:${10 + i}:5)`),
].join('\n');

/** An ending HTTP span as the processor sees it: only the fields it reads and writes. */
function endingHttpSpan(url: string) {
  const attributes: Record<string, unknown> = { 'url.full': url, 'http.request.method': 'GET' };
  const spanContext = {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: 1,
  };
  return {
    name: 'GET',
    kind: 2,
    attributes,
    status: { code: 0 },
    events: [],
    spanContext: () => spanContext,
    setAttribute(key: string, value: unknown) {
      attributes[key] = value;
      return this;
    },
    setStatus() {
      return this;
    },
  };
}

function nearMissText(bytes: number): string {
  const line =
    'token bucket ok; keys rotated; session idle; https-less host; passage of text; Bearer-less call\n';
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

export async function run(): Promise<Row[]> {
  const processor = new RedactingSpanProcessor();
  type Ending = Parameters<typeof processor.onEnding>[0];
  const variants = [
    {
      name: 'new Error("boom")',
      fn: () => {
        for (let i = 0; i < OPS; i++) consume(new Error('boom'));
      },
    },
    {
      name: 'scrubMessage(plain message)',
      fn: () => {
        for (let i = 0; i < OPS; i++) consume(scrubMessage('Request failed with status code 503'));
      },
    },
    {
      name: 'scrubMessage(URL with api_key, Bearer token)',
      fn: () => {
        for (let i = 0; i < OPS; i++)
          consume(scrubMessage('GET https://api.example.com/v1?api_key=k3y failed: Bearer abcdefghijklmnop'));
      },
    },
    {
      name: 'scrubMessage(10-line stack)',
      fn: () => {
        for (let i = 0; i < OPS; i++) consume(scrubMessage(STACK));
      },
    },
    {
      name: 'redactForCapture({ query, api_key })',
      fn: () => {
        for (let i = 0; i < OPS; i++)
          consume(redactForCapture({ query: 'tax fraud lawyer', api_key: 'k3y', page: 2 }));
      },
    },
    {
      name: 'RedactingSpanProcessor.onEnding(HTTP span, secret query)',
      fn: () => {
        for (let i = 0; i < OPS; i++)
          processor.onEnding(
            endingHttpSpan('https://api.example.com/v1/search?q=weather&api_key=k3y') as unknown as Ending,
          );
      },
    },
    {
      name: 'RedactingSpanProcessor.onEnding(span without URL)',
      fn: () => {
        const span = endingHttpSpan('');
        delete span.attributes['url.full'];
        for (let i = 0; i < OPS; i++) processor.onEnding(span as unknown as Ending);
      },
    },
  ];
  const rows = await compare({
    case: '7 redactor',
    baseline: 'new Error("boom")',
    variants,
    opsPerCall: OPS,
  });

  // redactForCapture scans at most 4 × maxLength characters: 1 KB and 4 KB texts, at a 1 KiB
  // maxLength and a 4 KiB one, scan all their characters; equal time per character is linear time.
  const texts = [1024, 4096].map((bytes) => ({
    bytes,
    text: nearMissText(bytes),
    repeat: (64 * 1024) / bytes,
  }));
  const linear = await compare({
    case: '7 redactor (per 64 KiB scanned)',
    baseline: '1 KB texts',
    variants: texts.map(({ bytes, text, repeat }) => ({
      name: `${bytes / 1024} KB texts`,
      target: bytes === 1024 ? undefined : 1.25,
      fn: () => {
        for (let i = 0; i < repeat; i++) consume(redactForCapture(text, bytes));
      },
    })),
    opsPerCall: 1,
  });
  for (const [i, row] of linear.entries()) {
    row.spread += `; ${formatNs(row.nsPerOp! / texts[i]!.repeat)} per text`;
  }
  return [...rows, ...linear];
}
