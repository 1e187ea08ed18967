import { run } from './agent-loops';

/**
 * One framework of case 9 in a process of its own (bench/agent-loops.ts starts it): the
 * frameworks' module state, what each instrumentation patched, and a peer once installed stay
 * in this process. Prints the rows as JSON on its last line.
 */
run(process.argv[2]).then(
  (rows) => {
    process.stdout.write(`${JSON.stringify(rows)}\n`);
    process.exit(0);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
