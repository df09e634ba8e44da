import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../../src/core/rules/index.js';
import { goodEntries, goodFiles, tempDir, writeFolder, writeZip } from '../helpers/bundles.js';
import { runCli, STACK_TRACE } from '../helpers/cli.js';
import { noise } from '../helpers/noise.js';

/** The archive cut short, as an interrupted download leaves it. */
function truncatedZip(): string {
  const whole = readFileSync(writeZip(goodEntries()));
  const file = path.join(tempDir(), 'truncated.zip');
  writeFileSync(file, whole.subarray(0, 200));
  return file;
}

const noManifestZip = () => writeZip(goodEntries().filter((entry) => entry.name !== 'manifest.json'));

function expectLocked(result: ReturnType<typeof runCli>, ...ids: string[]): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(result.stderr.trim().split('\n')).toHaveLength(1);
  for (const id of ids) expect(result.stderr).toContain(`"${id}"`);
  expect(result.stderr).toContain('locked');
}

describe('locked rules: the marketplace limits and archive integrity cannot be relaxed', () => {
  it('--rule archive-truncated=off on a truncated zip: exit 2, naming the rule, instead of a pass', () => {
    const zip = truncatedZip();
    expect(runCli(['validate', zip]).code).toBe(1);
    expectLocked(runCli(['validate', zip, '--rule', 'archive-truncated=off']), 'archive-truncated');
  });

  it('--rule manifest-missing=off or =warn: exit 2; =error is allowed and changes nothing', () => {
    const zip = noManifestZip();
    expectLocked(runCli(['validate', zip, '--rule', 'manifest-missing=off']), 'manifest-missing');
    expectLocked(runCli(['validate', zip, '--rule', 'manifest-missing=warn']), 'manifest-missing');
    const strict = runCli(['validate', zip, '--rule', 'manifest-missing=error', '--format', 'json']);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout).problems.map((p: { ruleId: string }) => p.ruleId)).toContain('manifest-missing');
  });

  it('names every locked rule of the command line at once, and leaves the others alone', () => {
    const result = runCli(['validate', noManifestZip(), '--rule', 'file-count=warn', '--rule', 'manifest-description=off', '--rule', 'archive-crc-mismatch=off']);
    expectLocked(result, 'file-count', 'archive-crc-mismatch');
    expect(result.stderr).not.toContain('manifest-description');
  });

  it('pack --rule bundle-size=off: exit 2 and nothing written, where it used to write a 12 MB zip', () => {
    const tool = writeFolder({ ...goodFiles(), 'img/photo.png': noise(12_000_000) });
    const cwd = tempDir();
    expectLocked(runCli(['pack', tool, '--rule', 'bundle-size=off'], { cwd }), 'bundle-size');
    expect(readdirSync(cwd)).toEqual([]);
    // Without the flag, the size is found before anything is written.
    const plain = runCli(['pack', tool, '--format', 'json'], { cwd });
    expect(plain.code).toBe(1);
    expect(JSON.parse(plain.stdout).report.problems.map((p: { ruleId: string }) => p.ruleId)).toEqual(['bundle-size']);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a disable comment naming a locked rule silences nothing, and says so', () => {
    const zip = writeZip([
      ...goodEntries().filter((entry) => entry.name !== 'app.js'),
      { name: 'app.js', data: '// pipeline-tool-disable-next-line file-type, bundle-size\ndocument.body.append("ready");\n' },
      { name: 'photo.jpeg', data: 'x' },
    ]);
    const result = runCli(['validate', zip, '--format', 'json']);
    expect(result.code).toBe(1);
    const problems = JSON.parse(result.stdout).problems as { ruleId: string; file?: string; line?: number; data: Record<string, unknown> }[];
    expect(problems.filter((p) => p.ruleId === 'file-type').map((p) => p.file)).toEqual(['photo.jpeg']);
    expect(problems.filter((p) => p.ruleId === 'unknown-disable-directive').map((p) => [p.file, p.line, p.data])).toEqual([
      ['app.js', 1, { ruleId: 'file-type', locked: true }],
      ['app.js', 1, { ruleId: 'bundle-size', locked: true }],
    ]);
  });

  it('`rules` marks them, in text and JSON', () => {
    const listed = JSON.parse(runCli(['rules', '--format', 'json']).stdout) as { id: string; locked: boolean }[];
    const locked = listed.filter((rule) => rule.locked).map((rule) => rule.id);
    expect(locked).toEqual(rules.filter((rule) => rule.locked).map((rule) => rule.id));
    for (const id of ['bundle-size', 'unpacked-size', 'file-count', 'file-type', 'path-unsafe', 'manifest-missing', 'manifest-syntax', 'manifest-too-large']) {
      expect(locked).toContain(id);
    }
    expect(locked.filter((id) => id.startsWith('archive-'))).toEqual(listed.map((rule) => rule.id).filter((id) => id.startsWith('archive-')));
    expect(locked).not.toContain('manifest-description');
    const text = runCli(['rules']).stdout;
    expect(text).toMatch(/^bundle-size\s+error\s+locked\s/m);
    expect(text).toMatch(/^manifest-description\s+warning\s+"description"/m);
  });
});
