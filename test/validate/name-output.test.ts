import { describe, expect, it } from 'vitest';
import { loadFormatter } from '../../src/cli/formatters/index.js';
import { showName } from '../../src/core/format-bytes.js';
import { validateBundle } from '../../src/core/validate.js';
import { runCli } from '../helpers/cli.js';
import { goodEntries, writeZip } from '../helpers/bundles.js';

/** A name built to forge a clean verdict: erase the line, print a fake summary, recolour, reorder. */
const HOSTILE = 'x\u001b[2K\r\u2714 bundle.zip: no problems\n\u001b[32m\u202egnp.js\u0000\u007f\u0085\u200e\u2066';
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('showName', () => {
  it('escapes controls as \\xHH and bidirectional and invisible characters as \\uHHHH', () => {
    expect(showName('a\u001bb')).toBe('a\\x1bb');
    expect(showName('\u0000\r\n\u007f\u0085\u009f')).toBe('\\x00\\x0d\\x0a\\x7f\\x85\\x9f');
    expect(showName('evil\u202egnp.js')).toBe('evil\\u202egnp.js');
    expect(showName('\u200e\u200f\u2066\u2069\ufeff\u200b')).toBe('\\u200e\\u200f\\u2066\\u2069\\ufeff\\u200b');
    expect(showName('lone\ud800')).toBe('lone\\ud800');
  });

  it('leaves ordinary names alone, and is idempotent', () => {
    for (const name of ['café/日本.js', 'a "quoted" name.js', '..\\..\\file.txt', 'emoji 😀.png']) expect(showName(name)).toBe(name);
    expect(showName(showName(HOSTILE))).toBe(showName(HOSTILE));
    expect(showName(HOSTILE)).not.toMatch(RAW);
  });
});

describe('a hostile entry name cannot forge output', () => {
  const zip = () => writeZip([...goodEntries(), { name: HOSTILE, data: 'x' }]);

  it('text and github show it escaped; JSON keeps it exact', async () => {
    const report = await validateBundle(zip());
    expect(report.problems.some((p) => p.file === HOSTILE)).toBe(true);
    for (const name of ['text', 'github']) {
      const format = (await loadFormatter(name, { colour: false }))!;
      const out = format(report, { colour: false, quiet: false, cwd: '/' });
      expect(out, name).not.toMatch(RAW);
      expect(out, name).toContain('\\x1b[2K\\x0d\u2714 bundle.zip: no problems\\x0a');
      expect(out.split('\n').filter((line) => line.includes('no problems')).every((line) => line.includes('\\x0d'))).toBe(true);
    }
    const json = JSON.parse((await loadFormatter('json'))!(report, { colour: false, quiet: false, cwd: '/' })) as { problems: { file?: string }[] };
    expect(json.problems.some((p) => p.file === HOSTILE)).toBe(true);
  });

  it('through the real binary', () => {
    const file = zip();
    for (const format of ['text', 'github']) {
      const result = runCli(['validate', file, '--format', format]);
      expect(result.code).toBe(1);
      expect(result.stdout, format).not.toMatch(RAW);
      expect(result.stdout, format).toContain('\\u202egnp.js');
    }
  });
});
