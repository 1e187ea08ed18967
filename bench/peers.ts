import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Row } from './harness';

/**
 * Case 4: our instrumentation against OpenLLMetry's and OpenInference's on the same LangChain tool
 * calls, and against OpenLLMetry's on MCP `callTool`. Each peer runs in its own child process
 * (they patch the same modules) and is compared with the bare call measured, interleaved, in that
 * same child; across children only the ratios are compared. Target: our overhead below each peer's.
 * The `floor` row is a hand-written span around the same call: what any span-per-call
 * instrumentation pays at least (context activation makes it more than a bare span here).
 */

export type Framework = 'langchain' | 'mcp';
export const PEERS: Record<Framework, readonly string[]> = {
  langchain: [
    'floor',
    'ours',
    'ours+processor',
    'openllmetry',
    'openllmetry-no-content',
    'openinference',
    'openinference-no-content',
  ],
  mcp: ['floor', 'ours', 'ours+processor', 'ours-client-side', 'openllmetry', 'openllmetry-no-content'],
};

export const PEER_LABELS: Record<string, string> = {
  floor: 'floor: hand-written startActiveSpan + try/catch + end around the call',
  ours: 'otel-tool-errors ToolInstrumentation',
  'ours+processor': 'otel-tool-errors ToolInstrumentation + ToolErrorSpanProcessor',
  // OpenLLMetry traces MCP tool calls on the client only; ours also wraps the server's handler,
  // which a client process does not run. In one process both sides run, so this row isolates
  // what an MCP client pays.
  'ours-client-side': 'otel-tool-errors ToolInstrumentation, client side only (Client.callTool)',
  openllmetry: 'OpenLLMetry (Traceloop), default: content traced',
  'openllmetry-no-content': 'OpenLLMetry (Traceloop), traceContent: false',
  openinference: 'OpenInference (Arize), default: inputs/outputs recorded',
  'openinference-no-content': 'OpenInference (Arize), hideInputs + hideOutputs',
};

function runChild(framework: string, peer: string): Row[] {
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(__dirname, 'peers-child.ts'), framework, peer],
    {
      encoding: 'utf8',
      env: process.env,
      timeout: 5 * 60_000,
    },
  );
  const line = child.stdout?.split('\n').find((l) => l.startsWith('ROWS '));
  if (child.status !== 0 || !line) {
    throw new Error(
      `peers-child ${framework} ${peer} failed (${child.status}): ${child.stderr || child.error}`,
    );
  }
  return JSON.parse(line.slice('ROWS '.length)) as Row[];
}

export async function run(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [framework, peers] of Object.entries(PEERS)) {
    const byPeer = new Map(peers.map((peer) => [peer, runChild(framework, peer)]));
    for (const outcome of ['success', 'failure']) {
      const caseName = `4 peers, ${framework} ${outcome}`;
      const ofCase = (peer: string) => byPeer.get(peer)!.filter((r) => r.case === caseName);
      // The lowest peer overhead is the bar for ours.
      const peerRatios = peers
        .filter((peer) => !peer.startsWith('ours') && peer !== 'floor')
        .map((peer) => ofCase(peer)[1]!.ratioValue!);
      const bar = Math.min(...peerRatios);
      for (const peer of peers) {
        const [bare, instrumented] = ofCase(peer) as [Row, Row];
        if (peer.startsWith('ours')) {
          instrumented.target = `< ${bar.toFixed(2)}× (lowest peer)`;
          instrumented.verdict = instrumented.ratioValue! < bar ? 'met' : 'MISSED';
        }
        // Every child measured its own bare baseline; show it beside the variant it divides.
        instrumented.spread += `; bare in this child ${bare.value}`;
        rows.push({ ...instrumented, case: `${caseName} (vs bare, same child)` });
      }
    }
  }
  return rows;
}
