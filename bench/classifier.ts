import axios from 'axios';
import { z } from 'zod';
import { refusedPort, startFlakyServer } from '../test/helpers/flaky-server';
import { compare, formatNs, type Row } from './harness';
import { loadPackage } from './subject';
import { consume } from './tracing';

const { classifyMessage, classifyToolError, MAX_SCANNED_MESSAGE_LENGTH } = loadPackage();

/**
 * Case 5: `classifyToolError` on errors made for real by real clients against a 127.0.0.1 server,
 * built once outside the timed loop, against the cost of `new Error()`; then message patterns on
 * 1 KB to 1 MB texts, to show the time per character scanned stays flat (linear time) and the
 * time per message stops growing at the 64 KiB scan cap.
 */

const OPS = 100;
const KB = 1024;

async function failureOf(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

async function realErrors(): Promise<Record<string, unknown>> {
  const server = await startFlakyServer();
  const deadPort = await refusedPort();
  try {
    const fetch500 = await fetch(`${server.url}/500`);
    await fetch500.arrayBuffer();
    return {
      'fetch 500 Response': fetch500,
      'axios 429 + Retry-After': await failureOf(() => axios.get(`${server.url}/429?retryAfter=2`)),
      'fetch timeout DOMException': await failureOf(() =>
        fetch(`${server.url}/hang`, { signal: AbortSignal.timeout(30) }),
      ),
      ZodError: await failureOf(async () => z.object({ city: z.string() }).parse({ city: 42 })),
      'fetch ECONNREFUSED (cause chain)': await failureOf(() => fetch(`http://127.0.0.1:${deadPort}/`)),
      'Error("…") message patterns only': new Error('upstream said: rate limit reached, try again later'),
    };
  } finally {
    await server.close();
  }
}

/**
 * Text with many near-misses for the patterns ("tool" not followed by "not found", "status"
 * without a code, upper-case words that are not error codes) and no match, so every pattern scans
 * the whole message: the worst case for time.
 */
function nearMissText(bytes: number): string {
  const line =
    'tool lookup ran; status pending, error handler idle, retry queue EMPTYQUEUE, quota fine, time out-of-band\n';
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

export async function run(): Promise<Row[]> {
  const errors = await realErrors();
  const variants = [
    {
      name: 'new Error("boom")',
      fn: () => {
        for (let i = 0; i < OPS; i++) consume(new Error('boom'));
      },
    },
    ...Object.entries(errors).map(([name, err]) => ({
      name: `classifyToolError(${name})`,
      target: 0.5,
      fn: () => {
        for (let i = 0; i < OPS; i++) consume(classifyToolError(err));
      },
    })),
  ];
  const rows = await compare({
    case: '5 classifier',
    baseline: 'new Error("boom")',
    variants,
    opsPerCall: OPS,
  });

  // classifyMessage reads at most the first MAX_SCANNED_MESSAGE_LENGTH (64 KiB) characters. Each
  // sample scans 1 MiB of text in all (1024 × 1 KB, 64 × 16 KB, 16 × 64 KB or more): equal times
  // per sample mean time proportional to the characters scanned, and flat past the cap.
  const sizes = [
    { label: '1 KB', bytes: KB },
    { label: '16 KB', bytes: 16 * KB },
    { label: '100 KB', bytes: 100 * KB },
    { label: '1 MB', bytes: 1024 * KB },
  ].map((size) => ({ ...size, repeat: (1024 * KB) / Math.min(size.bytes, MAX_SCANNED_MESSAGE_LENGTH) }));
  const texts = sizes.map((size) => ({ ...size, text: nearMissText(size.bytes) }));
  for (const { text } of texts) {
    if (classifyMessage(text) !== undefined) throw new Error('the near-miss text must match no pattern');
  }
  const linear = await compare({
    case: '5 message patterns (per 1 MiB scanned)',
    baseline: '1 KB messages',
    variants: texts.map(({ label, text, repeat }) => ({
      name: `${label} messages`,
      // Linear time: the time per character scanned must not grow with the message length.
      target: label === '1 KB' ? undefined : 1.25,
      fn: () => {
        for (let i = 0; i < repeat; i++) consume(classifyMessage(text));
      },
    })),
    opsPerCall: 1,
  });
  for (const [i, row] of linear.entries()) {
    row.spread += `; ${formatNs(row.nsPerOp! / texts[i]!.repeat)} per message`;
  }
  return [...rows, ...linear];
}
