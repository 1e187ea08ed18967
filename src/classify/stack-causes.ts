/**
 * The causes a Java stack trace names, as the links of a cause chain: the JVM prints an
 * exception's whole chain in its stack (`Caused by: {class}: {message}`, outermost first), and
 * that stack is all an exception event keeps of it. A wrapper such as Spring AI's
 * `ToolExecutionException` says little; the cause under it names the failure. Lines are read one
 * by one with an anchored, linear-time pattern, over the stack's head only.
 */

/** A `Caused by:` line: group 1 the class, group 2 its message (the first line of it), if any. */
const STACK_CAUSE_LINE = /^Caused by: ([A-Za-z_$][\w$.]{0,255})(?:: (.*))?$/;

/** The head of a stack that is read for causes: a chain's causes come early, and the cost stays bounded. */
const MAX_STACK_READ = 16 * 1024;

/** The classifier walks at most this many links (its `MAX_LINKS`), the error itself among them. */
const MAX_STACK_CAUSES = 15;

/** One cause a stack names, with the cause under it. */
export interface StackCause {
  readonly name: string;
  readonly message?: string;
  readonly cause?: StackCause;
}

/** The cause chain a stack names, outermost first; `undefined` when it names none. */
export function causesInStack(stack: string | undefined): StackCause | undefined {
  if (stack === undefined || !stack.includes('\nCaused by: ')) return undefined;
  const head = stack.length > MAX_STACK_READ ? stack.slice(0, MAX_STACK_READ) : stack;
  const found: Array<{ name: string; message?: string }> = [];
  for (const line of head.split('\n')) {
    const match = STACK_CAUSE_LINE.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (!match) continue;
    found.push(match[2] === undefined ? { name: match[1]! } : { name: match[1]!, message: match[2] });
    if (found.length === MAX_STACK_CAUSES) break;
  }
  let chain: StackCause | undefined;
  for (let i = found.length - 1; i >= 0; i--) chain = chain ? { ...found[i]!, cause: chain } : found[i]!;
  return chain;
}
