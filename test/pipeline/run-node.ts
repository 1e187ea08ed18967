import { spawn } from 'node:child_process';
import { once } from 'node:events';

export interface NodeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <args>` in `cwd` with only the given variables (plus PATH); killed after `killAfterMs`. */
export async function runNode(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  killAfterMs: number,
): Promise<NodeRun> {
  const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? '', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(killer);
  return { code, signal, stdout, stderr };
}

/** Runs the tasks at most `size` at a time; the results keep the tasks' order. */
export async function inPool<T>(tasks: Array<() => Promise<T>>, size: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, tasks.length) }, worker));
  return results;
}
