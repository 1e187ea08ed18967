import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  formatNs,
  median,
  roundRatios,
  rowsAgainst,
  type Measurements,
  type RoundSample,
  type Row,
} from './harness';
import { compareRounds, type Verdict } from './mann-whitney';
import type { ChildReply, ChildRequest } from './peers-child';

/**
 * Case 4: our instrumentation against OpenLLMetry's and OpenInference's on the same LangChain tool
 * calls, and against OpenLLMetry's on MCP `callTool`. Each peer runs in its own child process
 * (they patch the same modules) and is compared with the bare call measured, interleaved, in that
 * same child; across children only the ratios are compared. The children stay up and measure one
 * round each in turn, so their rounds interleave too and load that comes and goes hits them alike.
 * Target: ours ahead of every peer, decided per pair by a Mann-Whitney U test over the per-round
 * ratios (p < 0.01); pairs still tied get more rounds. The `floor` row is a hand-written span around the same call: what any span-per-call
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

type Outcome = 'success' | 'failure';
const OUTCOMES: readonly Outcome[] = ['success', 'failure'];

/**
 * Rounds per child, then up to `EXTENSIONS` times `EXTRA_ROUNDS` more for the children of any
 * comparison still tied. Each round of a child is 2 outcomes × 2 variants × (warm-up + time).
 */
const ROUNDS = process.env.BENCH_QUICK ? 4 : 12;
const EXTRA_ROUNDS = process.env.BENCH_QUICK ? 2 : 6;
const EXTENSIONS = 2;

/** One peer's child process, measuring a round whenever asked. */
class Child {
  readonly rounds: Record<Outcome, { bare: RoundSample[]; instrumented: RoundSample[] }> = {
    success: { bare: [], instrumented: [] },
    failure: { bare: [], instrumented: [] },
  };
  label = '';
  spansPerCall: Record<Outcome, number> = { success: 0, failure: 0 };
  private readonly process: ChildProcess;
  private waiting: { resolve(reply: ChildReply): void; reject(err: Error): void } | undefined;

  constructor(
    readonly framework: string,
    readonly peer: string,
  ) {
    this.process = fork(join(__dirname, 'peers-child.ts'), [framework, peer], {
      execArgv: ['--import', 'tsx'],
      env: process.env,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.process.on('message', (reply: ChildReply) => this.waiting?.resolve(reply));
    this.process.on('exit', (code) =>
      this.waiting?.reject(new Error(`peers-child ${framework} ${peer} exited (${code})`)),
    );
  }

  private next(): Promise<ChildReply> {
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  async ready(): Promise<void> {
    const reply = await this.next();
    if (!('ready' in reply)) throw new Error(`peers-child ${this.peer}: expected ready`);
    this.label = reply.label;
    this.spansPerCall = reply.spansPerCall;
  }

  async round(round: number): Promise<void> {
    const replied = this.next();
    this.process.send({ round } satisfies ChildRequest);
    const reply = await replied;
    if (!('round' in reply)) throw new Error(`peers-child ${this.peer}: expected round ${round}`);
    for (const outcome of OUTCOMES) {
      this.rounds[outcome].bare.push(reply.samples[outcome].bare);
      this.rounds[outcome].instrumented.push(reply.samples[outcome].instrumented);
    }
  }

  measurements(outcome: Outcome): Measurements {
    return new Map([
      ['bare', this.rounds[outcome].bare],
      [this.label, this.rounds[outcome].instrumented],
    ]);
  }

  ratios(outcome: Outcome): number[] {
    return roundRatios(this.measurements(outcome), 'bare', this.label);
  }

  close(): void {
    if (this.process.connected) this.process.send({ exit: true } satisfies ChildRequest);
  }
}

const isOurs = (peer: string) => peer.startsWith('ours');
const isPeer = (peer: string) => !isOurs(peer) && peer !== 'floor';

/** Every (ours, peer) pair's verdict, per outcome. */
function verdicts(children: Map<string, Child>): Map<string, Verdict> {
  const result = new Map<string, Verdict>();
  const peers = [...children.keys()];
  for (const outcome of OUTCOMES) {
    for (const ours of peers.filter(isOurs)) {
      for (const peer of peers.filter(isPeer)) {
        const verdict = compareRounds(
          children.get(ours)!.ratios(outcome),
          children.get(peer)!.ratios(outcome),
        );
        result.set(`${outcome} ${ours} ${peer}`, verdict);
      }
    }
  }
  return result;
}

/** Runs `count` rounds of `children`, one child at a time, rotating which goes first. */
async function interleave(children: Child[], first: number, count: number): Promise<void> {
  for (let round = first; round < first + count; round++) {
    for (let i = 0; i < children.length; i++) {
      await children[(i + round) % children.length]!.round(round);
    }
  }
}

/** All children of one framework, interleaved round by round, more rounds while a pair is tied. */
async function measureFramework(framework: Framework): Promise<Map<string, Child>> {
  const children = new Map(PEERS[framework].map((peer) => [peer, new Child(framework, peer)]));
  try {
    await Promise.all([...children.values()].map((child) => child.ready()));
    await interleave([...children.values()], 0, ROUNDS);
    let done = ROUNDS;
    for (let extension = 0; extension < EXTENSIONS; extension++) {
      const tied = new Set<string>();
      for (const [key, { verdict }] of verdicts(children)) {
        if (verdict !== 'tied') continue;
        const [, ours, peer] = key.split(' ');
        tied.add(ours!).add(peer!);
      }
      if (tied.size === 0) break;
      console.error(
        `peers ${framework}: tied after ${done} rounds, ${EXTRA_ROUNDS} more for ${[...tied].join(', ')}`,
      );
      await interleave(
        [...tied].map((peer) => children.get(peer)!),
        done,
        EXTRA_ROUNDS,
      );
      done += EXTRA_ROUNDS;
    }
  } finally {
    for (const child of children.values()) child.close();
  }
  return children;
}

function verdictText(entries: Array<[string, Verdict]>): string {
  return entries.map(([name, { verdict, p }]) => `${name}: ${verdict} (p ${formatP(p)})`).join('; ');
}

function formatP(p: number): string {
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

function rowsOf(framework: Framework, children: Map<string, Child>): Row[] {
  const all = verdicts(children);
  const rows: Row[] = [];
  for (const outcome of OUTCOMES) {
    const caseName = `4 peers, ${framework} ${outcome} (vs bare, same child)`;
    const peers = [...children.keys()];
    for (const [peer, child] of children) {
      const [, row] = rowsAgainst(caseName, child.measurements(outcome), 'bare', [
        { name: 'bare' },
        { name: child.label },
      ]) as [Row, Row];
      const bare = formatNs(median(child.rounds[outcome].bare.map((s) => s.nsPerOp)));
      row.spread += `; ${child.spansPerCall[outcome]} span(s)/call; bare in this child ${bare}; ${child.rounds[outcome].bare.length} rounds`;
      if (isOurs(peer)) {
        const against = peers
          .filter(isPeer)
          .map((other): [string, Verdict] => [other, all.get(`${outcome} ${peer} ${other}`)!]);
        const ahead = against.every(([, v]) => v.verdict === 'ahead');
        row.target = 'ahead of every peer (Mann-Whitney p < 0.01)';
        row.verdict = `${ahead ? 'met' : 'MISSED'}: ${verdictText(against)}`;
      } else if (isPeer(peer)) {
        row.verdict = `against this peer: ${verdictText(
          peers
            .filter(isOurs)
            .map((ours): [string, Verdict] => [ours, all.get(`${outcome} ${ours} ${peer}`)!]),
        )}`;
      }
      rows.push(row);
    }
  }
  return rows;
}

/** `peers` runs both frameworks; `peers:langchain` or `peers:mcp` one. */
export async function run(only?: string): Promise<Row[]> {
  const frameworks = Object.keys(PEERS) as Framework[];
  if (only !== undefined && !frameworks.includes(only as Framework)) {
    throw new Error(`peers:${only}: known frameworks are ${frameworks.join(', ')}`);
  }
  const rows: Row[] = [];
  for (const framework of only ? [only as Framework] : frameworks) {
    rows.push(...rowsOf(framework, await measureFramework(framework)));
  }
  return rows;
}
