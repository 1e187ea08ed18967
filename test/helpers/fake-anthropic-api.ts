import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { listenOnLoopback } from './loopback';

/**
 * A local stand-in for the Anthropic Messages API on 127.0.0.1, for the Claude Code CLI that the
 * Claude Agent SDK starts (`ANTHROPIC_BASE_URL`). `POST /v1/messages` answers as the CLI asks:
 * server-sent events (`message_start`, `content_block_*`, `message_delta`, `message_stop`).
 * The agent's turns come from `turns`, given the request body; other requests (the CLI's own
 * calls without tools) get a short text.
 */
export interface ScriptedBlock {
  type: 'text' | 'tool_use';
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
}

export interface MessagesRequest {
  tools?: { name: string }[];
  messages: { role: string; content: unknown }[];
}

export interface FakeAnthropicApi {
  /** For ANTHROPIC_BASE_URL. */
  readonly url: string;
  /** How many requests the agent's turns were answered from. */
  agentTurns(): number;
  close(): Promise<void>;
}

export async function startFakeAnthropicApi(
  isAgentRequest: (request: MessagesRequest) => boolean,
  turn: (request: MessagesRequest) => ScriptedBlock[],
): Promise<FakeAnthropicApi> {
  let agentTurns = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const request = JSON.parse(body) as MessagesRequest & { model?: string };
      let blocks: ScriptedBlock[] = [{ type: 'text', text: 'ok' }];
      if (isAgentRequest(request)) {
        agentTurns++;
        blocks = turn(request);
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const [event, data] of events(request.model ?? 'claude', blocks)) {
        res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
      }
      res.end();
    });
  });
  const loopback = await listenOnLoopback(server);
  return { url: loopback.url, agentTurns: () => agentTurns, close: loopback.close };
}

/**
 * The variables that point the Claude Code CLI at `api`, with `home` as its home and config
 * folder and its own telemetry and update checks off.
 */
export function claudeCliEnv(api: FakeAnthropicApi, home: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

let messageCount = 0;

/** One streamed message made of `blocks`. */
function events(model: string, blocks: ScriptedBlock[]): [string, Record<string, unknown>][] {
  const usage = { input_tokens: 1, output_tokens: 1 };
  const out: [string, Record<string, unknown>][] = [
    [
      'message_start',
      {
        message: {
          id: `msg_${++messageCount}`,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage,
        },
      },
    ],
  ];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      out.push(['content_block_start', { index, content_block: { type: 'text', text: '' } }]);
      out.push(['content_block_delta', { index, delta: { type: 'text_delta', text: block.text } }]);
    } else {
      const start = { type: 'tool_use', id: block.id, name: block.name, input: {} };
      out.push(['content_block_start', { index, content_block: start }]);
      const partial = JSON.stringify(block.input ?? {});
      out.push([
        'content_block_delta',
        { index, delta: { type: 'input_json_delta', partial_json: partial } },
      ]);
    }
    out.push(['content_block_stop', { index }]);
  });
  const stopReason = blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
  out.push(['message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage }]);
  out.push(['message_stop', {}]);
  return out;
}
