import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';

export interface NodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node [nodeArgs] script` from the repository root with only the variables given (plus
 * PATH), never the test's own OTEL_*; killed after 30 s.
 */
export async function runNode(
  nodeArgs: string[],
  script: string,
  env: Record<string, string>,
): Promise<NodeRun> {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: join(__dirname, '..', '..'),
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  return { code, stdout, stderr };
}
