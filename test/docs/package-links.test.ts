import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** What `npm pack` puts in the tarball, as paths relative to the package root. */
function packedFiles(): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(out) as [{ files: { path: string }[] }];
  return new Set(pack.files.map((file) => file.path));
}

/** Relative Markdown link and image targets in `file` (no URLs, no in-page anchors). */
function relativeLinks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => normalize(join(dirname(file), target)));
}

describe('the package page', () => {
  it('every relative link in the shipped Markdown points at a file in the tarball', function () {
    this.timeout(60_000);
    const files = packedFiles();
    const markdown = [...files].filter((path) => path.endsWith('.md'));
    expect(markdown).to.include('README.md');
    const broken = markdown.flatMap((file) =>
      relativeLinks(file)
        .filter((target) => !files.has(target))
        .map((target) => `${file} -> ${target}`),
    );
    expect(broken).to.deep.equal([]);
  });
});
