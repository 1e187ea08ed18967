/**
 * A thrown value's shape as a classifier sees it: its class, `name` and `message`, then its own
 * keys (enumerable or not, accessors read) to `depth` levels, each with its type and a short value.
 * Fetch's `Response`, `Request` and `Headers` keep their fields on the prototype, so they are shown
 * by what they hold (status, url, header entries).
 */
export function describeShape(value: unknown, depth = 3): string {
  const lines: string[] = [];
  walk(value, depth, '', lines, new Set());
  return lines.join('\n');
}

const MAX_TEXT = 240;

function short(text: string, max = MAX_TEXT): string {
  const oneLine = text.replace(/\n/g, '\\n');
  return JSON.stringify(oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine);
}

function className(value: object): string {
  try {
    return (value as { constructor?: { name?: string } }).constructor?.name || 'Object';
  } catch {
    return '?';
  }
}

function headerEntries(headers: Headers): string {
  const entries: string[] = [];
  headers.forEach((v, k) => entries.push(`${k}: ${v}`));
  return entries.join('; ');
}

function scalar(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return `string ${short(value)}`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    case 'undefined':
      return 'undefined';
    case 'symbol':
      return `symbol ${String(value)}`;
    case 'function':
      return 'function';
    default:
      break;
  }
  if (typeof Headers !== 'undefined' && value instanceof Headers) {
    return `Headers {${short(headerEntries(value), 400)}}`;
  }
  if (typeof Response !== 'undefined' && value instanceof Response) {
    return `Response status=${value.status} statusText=${short(value.statusText)} url=${short(value.url)} headers={${short(headerEntries(value.headers), 400)}}`;
  }
  if (typeof Request !== 'undefined' && value instanceof Request) {
    return `Request ${value.method} ${short(value.url)}`;
  }
  return undefined;
}

function walk(value: unknown, depth: number, indent: string, lines: string[], seen: Set<object>): void {
  const simple = scalar(value);
  if (simple !== undefined) {
    lines.push(`${indent}${simple}`);
    return;
  }
  const obj = value as object;
  if (seen.has(obj)) {
    lines.push(`${indent}${className(obj)} (seen above)`);
    return;
  }
  seen.add(obj);
  if (Array.isArray(obj)) {
    lines.push(`${indent}Array(${obj.length})`);
    if (depth > 0) {
      obj.slice(0, 2).forEach((item, i) => {
        lines.push(`${indent}  [${i}]:`);
        walk(item, depth, `${indent}    `, lines, seen);
      });
    }
    return;
  }
  const head = [className(obj)];
  if (obj instanceof Error) {
    head.push(`name=${short(String(obj.name))}`, `message=${short(String(obj.message), 400)}`);
  }
  lines.push(`${indent}${head.join(' ')}`);
  if (depth <= 0) return;
  const keys: Array<string | symbol> = Reflect.ownKeys(obj);
  for (const key of keys) {
    if (key === 'stack') continue;
    if (obj instanceof Error && key === 'message') continue;
    const desc = Object.getOwnPropertyDescriptor(obj, key);
    if (!desc) continue;
    const flags = [desc.enumerable ? '' : 'non-enumerable', desc.get ? 'getter' : '']
      .filter(Boolean)
      .join(', ');
    let child: unknown;
    try {
      child = desc.get ? desc.get.call(obj) : desc.value;
    } catch (err) {
      child = `<getter threw ${String(err)}>`;
    }
    const label = `${indent}  .${String(key)}${flags ? ` (${flags})` : ''}:`;
    const childScalar = scalar(child);
    if (childScalar !== undefined) {
      lines.push(`${label} ${childScalar}`);
    } else {
      lines.push(label);
      walk(child, depth - 1, `${indent}    `, lines, seen);
    }
  }
}
