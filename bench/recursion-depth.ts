import { valueRow, type Row } from './harness';
import { loadPackage } from './subject';
import { dropProvider } from './tracing';

const { instrumentTool } = loadPackage();

/**
 * Case 7: how deep a tool can recurse into itself (a tool that calls itself, or a chain of
 * instrumented tools), bare and through `instrumentTool` (the same name, so the calls share one
 * span, and distinct names, so each makes its own). The depth is the deepest call that returns
 * before the stack overflows, on the default stack size (best of three searches).
 */

type Recurse = (n: number) => number;

/** The best of three searches: the depth reached varies with what V8 has optimised so far. */
function maxDepth(make: (self: () => Recurse) => Recurse): number {
  return Math.max(searchDepth(make), searchDepth(make), searchDepth(make));
}

function searchDepth(make: (self: () => Recurse) => Recurse): number {
  const tool: Recurse = make(() => tool);
  let low = 1;
  let high = 1_000_000;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    try {
      tool(mid);
      low = mid;
    } catch {
      high = mid - 1;
    }
  }
  return low;
}

export function run(): Promise<Row[]> {
  const { provider } = dropProvider();
  const options = { tracerProvider: provider };
  const bare = maxDepth((self) => (n) => (n === 0 ? 0 : 1 + self()(n - 1)));
  const sameName = maxDepth((self) =>
    instrumentTool((n: number): number => (n === 0 ? 0 : 1 + self()(n - 1)), 'recurse', options),
  );
  const distinctNames = maxDepth((self) => {
    const tools: Recurse[] = [];
    for (let i = 0; i < 4; i++) {
      tools.push(
        instrumentTool(
          (n: number): number => (n === 0 ? 0 : 1 + (tools[(i + 1) % 4] ?? self())(n - 1)),
          `step_${i}`,
          options,
        ),
      );
    }
    return tools[0]!;
  });
  const row = (variant: string, depth: number) =>
    valueRow({
      case: '7 recursion depth',
      variant,
      value: depth.toLocaleString('en-US'),
      spread: variant === 'bare tool' ? '' : `${Math.round(bare / depth)}× fewer levels than bare`,
    });
  return Promise.resolve([
    row('bare tool', bare),
    row('instrumentTool, same name (one span)', sameName),
    row('instrumentTool, 4 names in a cycle (a span each)', distinctNames),
  ]);
}
