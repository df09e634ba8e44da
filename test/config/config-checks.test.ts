import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, filesMatcher, globProblem, loadProjectConfig, loadProjectConfigSync, parseProjectConfig, withRuleFlags, type RuleOverride } from '../../src/core/config/index.js';
import { UsageError } from '../../src/core/errors.js';
import { tempDir, writeFolder } from '../helpers/bundles.js';

/*
 * The project file's checks word for word and place for place: each refusal names what is wrong
 * at the line and column an editor shows, and what is fine is read as written.
 * (test/config/project-config.test.ts holds the shape and the overrides at work.)
 */

const FILE = 'pipeline-tool.config.json';

/** Where and why a text is refused, as `line:column: reason`. */
function refusal(text: string): string {
  try {
    parseProjectConfig(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message.slice(FILE.length + 1);
  }
  throw new Error(`no mistake found in ${text}`);
}

const eleven = (last: string) => `{ "overrides": [${Array(10).fill('{ "files": ["a"], "rules": {} }').join(', ')}, ${last}] }`;

describe('parseProjectConfig refuses, at the place', () => {
  it('counts columns on the first line from after a byte-order mark, as editors show them', () => {
    expect(refusal('\uFEFF{ "source": 5 }')).toBe('1:3: "source" must be a folder path relative to this file, such as "src".');
    expect(refusal('{ "source": 5 }')).toBe('1:3: "source" must be a folder path relative to this file, such as "src".');
    expect(refusal('\uFEFF{\n  "x": 1 }')).toMatch(/^2:3: unknown key "x"/);
    expect(refusal('\uFEFF{ "a": 1,\n}')).toBe('1:9: not valid JSON: a trailing comma before "}".');
  });

  it('a file that holds no object, at its value', () => {
    const reason = 'the project file must hold a JSON object, such as { "source": "src" }.';
    expect(refusal('\n\n  [1]')).toBe(`3:3: ${reason}`);
    expect(refusal('null')).toBe(`1:1: ${reason}`);
    expect(refusal(' 5')).toBe(`1:2: ${reason}`);
  });

  it('a $schema that is not a string', () => {
    expect(refusal('{\n  "$schema": 5\n}')).toBe('2:3: "$schema" must be a string: the path or address of config.schema.json.');
    expect(parseProjectConfig('{ "$schema": "x" }', FILE)).toEqual({ rules: {}, overrides: [] });
  });

  it('a key it does not know, listing the ones it does, in an override found by its index', () => {
    expect(refusal('{\n  "sorce": "src" }')).toBe(
      '2:3: unknown key "sorce" in the project file; did you mean "source"? It may hold "$schema", "source", "out", "rules", "overrides", nothing else.',
    );
    expect(refusal(eleven('{ "files": ["a"], "rules": {}, "zzz": 1 }'))).toMatch(/: unknown key "zzz" in overrides\[10\]\. It may hold "files", "rules", nothing else\.$/);
  });

  it('an override whose patterns are all negations, which match nothing alone; one plain pattern anywhere will do', () => {
    expect(refusal('{ "overrides": [{ "files": ["!a", "!b"], "rules": {} }] }')).toBe(
      '1:19: overrides[0].files holds only negations, which take files back out of a match and so match nothing alone; put the pattern they narrow first, such as ["vendor/**", "!a"].',
    );
    for (const files of [['!a', 'b'], ['a!'], ['\\!a']]) {
      expect(parseProjectConfig(JSON.stringify({ overrides: [{ files, rules: {} }] }), FILE).overrides, files.join(' ')).toEqual([{ files, rules: {} }]);
    }
  });

  it('a key twice, named by its path', () => {
    expect(refusal('{ "overrides": [{ "files": ["a"], "rules": {}, "files": ["b"] }] }')).toBe('1:48: "overrides[0].files" appears twice; keep one.');
    expect(refusal(eleven('{ "files": ["a"], "files": ["b"], "rules": {} }'))).toMatch(/: "overrides\[10\]\.files" appears twice; keep one\.$/);
    expect(refusal('{ "rules": { "a/b~c": "off", "a/b~c": "off" } }')).toBe('1:30: "rules.a/b~c" appears twice; keep one.');
  });

  it('folder paths that leave the project or cannot be written the same everywhere', () => {
    const folder = (value: string) => refusal(`{\n  "out": ${JSON.stringify(value)} }`);
    expect(folder('  ')).toBe('2:3: "out" must be a folder path relative to this file, such as "src".');
    expect(refusal('{ "out": 5 }')).toBe('1:3: "out" must be a folder path relative to this file, such as "src".');
    expect(folder('a\u0001b')).toBe('2:3: "out" cannot contain control characters.');
    expect(folder('a\\b')).toBe('2:3: "out" must use / between folders, not \\.');
    expect(folder('d:/x')).toBe('2:3: "out" must be relative to this file, not absolute.');
    expect(folder('a/../b')).toBe('2:3: "out" must stay inside the project: it cannot climb out with ...');
  });

  it('an out folder inside the tool, itself included, however the paths are written', () => {
    expect(refusal('{ "source": "src",\n  "out": "src" }')).toBe(
      '2:3: "out" (src) is inside "source" (src): the next pack would ship the zip. Choose a folder outside the tool, such as dist.',
    );
    expect(refusal('{ "source": "a//b", "out": "./a/b/dist/" }')).toMatch(/^1:21: "out" \(\.\/a\/b\/dist\) is inside "source" \(a\/\/b\)/);
    expect(refusal('{ "out": "." }')).toMatch(/^1:3: "out" \(\.\) is inside the tool folder/);
  });

  it('overrides that are not a list of objects with patterns and rules', () => {
    expect(refusal('{\n  "overrides": 5 }')).toBe('2:3: "overrides" must be a list: [{ "files": ["vendor/**"], "rules": { … } }].');
    expect(refusal('{ "overrides": [\n  1] }')).toBe('2:3: overrides[0] must be an object with "files" and "rules".');
    expect(refusal('{ "overrides": [\n  { "rules": {} }] }')).toBe('2:3: overrides[0].files must list at least one pattern, such as ["vendor/**"].');
    expect(refusal('{ "overrides": [{ "rules": {},\n  "files": [] }] }')).toBe('2:3: overrides[0].files must list at least one pattern, such as ["vendor/**"].');
    expect(refusal('{ "overrides": [{ "rules": {},\n  "files": ["a", "#b"] }] }')).toMatch(/^2:18: overrides\[0\]\.files\[1\] is not a usable pattern: a pattern starting with #/);
    expect(refusal('{ "overrides": [\n  { "files": ["a"] }] }')).toBe('2:3: overrides[0] has no "rules"; say which rules change for these files.');
    expect(refusal('{ "overrides": [{ "files": ["a"],\n  "rules": [] }] }')).toBe(
      '2:3: "overrides[0].rules" must be an object of rule ids and settings, such as { "unsafe-html": "off" }.',
    );
    expect(refusal(eleven('{ "files": ["a"], "rules": 1 }'))).toMatch(/: "overrides\[10\]\.rules" must be an object of rule ids/);
    expect(refusal('{ "rules": null }')).toBe('1:3: "rules" must be an object of rule ids and settings, such as { "unsafe-html": "off" }.');
  });
});

describe('parseProjectConfig reads', () => {
  it('folders as written, less trailing slashes, with a colon or a dot inside a name', () => {
    expect(parseProjectConfig('{ "source": "src//", "out": "c/d:e" }', FILE)).toMatchObject({ source: 'src', out: 'c/d:e' });
    // Out beside the tool, sharing the start of its name: not inside it.
    expect(parseProjectConfig('{ "source": "src", "out": "src-dist" }', FILE)).toMatchObject({ out: 'src-dist' });
    expect(parseProjectConfig('{ "source": "./tools/a", "out": "tools" }', FILE)).toMatchObject({ source: './tools/a', out: 'tools' });
  });
});

describe('globProblem says why, in words', () => {
  it.each([
    [42, 'a pattern must be a string'],
    [' ', 'a pattern cannot be empty'],
    ['#notes', 'a pattern starting with # is a comment in gitignore syntax and matches nothing; write \\# for a name that starts with #'],
    ['! ', '"!" alone negates nothing; write !<pattern>'],
    ['vendor\\lib', 'use / between folders, not \\'],
    ['a\tb', 'a pattern cannot contain control characters'],
    ['..', 'paths are inside the tool folder and never start with ./ or contain ..; write vendor/** rather than ./vendor/**'],
    ['!../x', 'paths are inside the tool folder and never start with ./ or contain ..; write vendor/** rather than ./vendor/**'],
    ['a/./b', 'paths are inside the tool folder and never start with ./ or contain ..; write vendor/** rather than ./vendor/**'],
    ['a/..', 'paths are inside the tool folder and never start with ./ or contain ..; write vendor/** rather than ./vendor/**'],
    ['c:x', 'patterns are paths inside the tool folder, not drive paths'],
    ['x[]', '"[]" is not a complete character class such as [ab] or [a-z]'],
  ])('%j: %s', (pattern, reason) => {
    expect(globProblem(pattern)).toBe(reason);
  });

  it('accepts names that only look like those: a ! or . or : inside a name, a class of one', () => {
    for (const pattern of ['a!', 'x/!../y', 'a./b', 'v1.2/*.js', 'a/c:d', '[a]b', 'x\\ y']) expect(globProblem(pattern), pattern).toBeUndefined();
  });

  it('takes escaped characters as plain text: an escaped bracket opens no class, an escaped backslash is no folder separator', () => {
    for (const pattern of ['vendor/\\[a\\].js', 'vendor/\\[a].js', 'a\\[', 'vendor/a\\\\b.js', '/\\!y.js', 'x.js\\ ', 'a\\\\\\[b\\].js']) expect(globProblem(pattern), pattern).toBeUndefined();
    // What is left once the escapes are read still counts.
    expect(globProblem('vendor\\lib\\ x')).toBe('use / between folders, not \\');
    expect(globProblem('\\\\[a')).toBe('"[a" is not a complete character class such as [ab] or [a-z]');
    expect(globProblem('\\[a]/[b')).toBe('"[b" is not a complete character class such as [ab] or [a-z]');
    expect(globProblem('!\\[z-a]/[z-a]')).toBe('"[z-a]" is not a valid character class (a range must run from low to high, as in [a-z])');
    // And the matcher reads them as gitignore does: the name itself, nothing else.
    const matches = filesMatcher(['vendor/\\[a\\]\\*\\?.js', 'lib/a\\\\b.js']);
    expect(['vendor/[a]*?.js', 'vendor/a1x.js', 'vendor/a.js', 'lib/a\\b.js', 'lib/a/b.js'].map(matches)).toEqual([true, false, false, true, false]);
  });
});

describe('filesMatcher', () => {
  it('matches letter case exactly, as the bundle does', () => {
    const matches = filesMatcher(['Vendor/']);
    expect(matches('Vendor/a.js')).toBe(true);
    expect(matches('vendor/a.js')).toBe(false);
  });
});

describe('withRuleFlags', () => {
  it('drops an override left with no rule once --rule takes its rules away', () => {
    const overrides: RuleOverride[] = [
      { files: ['a/**'], rules: { 'dialog-call': 'off' } },
      { files: ['b/**'], rules: { 'dialog-call': 'off', 'unsafe-html': 'warn' } },
    ];
    expect(withRuleFlags({}, overrides, { 'dialog-call': 'error' })).toEqual({
      rules: { 'dialog-call': 'error' },
      overrides: [{ files: ['b/**'], rules: { 'unsafe-html': 'warn' } }],
    });
  });
});

describe('loadProjectConfig', () => {
  const rejection = async (promise: Promise<unknown>): Promise<string> => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  };

  it('finds none above a folder that has none, and names a found file by its path', async () => {
    const root = tempDir();
    expect(await loadProjectConfig(root)).toBeUndefined();
    writeFileSync(path.join(root, FILE), '{ "out": 1 }');
    expect(await rejection(loadProjectConfig(path.join(root)))).toBe(`${path.join(root, FILE)}:1:3: "out" must be a folder path relative to this file, such as "src".`);
    expect(await rejection(loadProjectConfig(root, undefined, (file) => path.relative(root, file)))).toMatch(/^pipeline-tool\.config\.json:1:3: /);
  });

  it('names a file given with --config as it was given, and one it found as show() says', async () => {
    const root = tempDir();
    expect(await rejection(loadProjectConfig(root, 'conf/missing.json', () => 'SHOWN'))).toBe(
      'conf/missing.json does not exist. Give the path of a pipeline-tool.config.json file, or leave --config out to find it from the current folder upward.',
    );
    writeFileSync(path.join(root, FILE), Buffer.from([0x7b, 0xff, 0x7d]));
    expect(await rejection(loadProjectConfig(root, undefined, () => 'SHOWN'))).toBe('SHOWN is not valid UTF-8 text; save it as UTF-8 JSON.');
    expect(await rejection(loadProjectConfig(root, FILE, () => 'SHOWN'))).toBe('pipeline-tool.config.json is not valid UTF-8 text; save it as UTF-8 JSON.');
  });

  it('says what is wrong with a path that is not a readable file', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'folder'));
    expect(await rejection(loadProjectConfig(root, 'folder'))).toBe('folder is a folder; the project file is a JSON file named pipeline-tool.config.json.');
    symlinkSync('loop', path.join(root, 'loop'));
    expect(await rejection(loadProjectConfig(root, 'loop'))).toMatch(/^cannot read loop: ELOOP: /);
  });

  it('reads a file of 1,000,000 bytes and refuses one byte more', async () => {
    const root = tempDir();
    // The closing brace is the last byte, so a file read one byte short is not JSON.
    const exactly = `{ "source": "src"${' '.repeat(1_000_000 - 18)}}`;
    expect(exactly).toHaveLength(1_000_000);
    writeFileSync(path.join(root, FILE), exactly);
    expect((await loadProjectConfig(root))?.config.source).toBe('src');
    writeFileSync(path.join(root, FILE), `${exactly} `);
    expect(await rejection(loadProjectConfig(root, FILE))).toBe(
      'pipeline-tool.config.json is 1000001 bytes; a project file is a few lines of JSON (at most 1000000 bytes).',
    );
  });

  it('keeps a byte-order mark out of the columns it reports', async () => {
    const root = writeFolder({ [FILE]: '\uFEFF{ "out": 1 }' });
    expect(await rejection(loadProjectConfig(root, FILE))).toMatch(/:1:3: "out" must be a folder path/);
  });

  it.runIf(process.platform === 'linux')('closes the file it read, every time', async () => {
    const root = writeFolder({ [FILE]: '{ "source": "src" }' });
    const open = () => readdirSync('/proc/self/fd').length;
    await loadProjectConfig(root);
    const before = open();
    for (let i = 0; i < 20; i++) await loadProjectConfig(root);
    writeFileSync(path.join(root, FILE), '{ "source": 1 }');
    for (let i = 0; i < 20; i++) await loadProjectConfig(root).catch(() => undefined);
    expect(open() - before).toBeLessThan(10);
  });
});

describe('loadProjectConfigSync, for callers that cannot wait (an ESLint rule)', () => {
  const outcome = async (load: () => unknown): Promise<unknown> => {
    try {
      return { value: await load() };
    } catch (error) {
      return { error: (error as Error).message, usage: error instanceof UsageError };
    }
  };

  it.each([
    ['none', {}],
    ['a good file', { [FILE]: '{ "source": "src", "rules": { "unsafe-html": "off" } }' }],
    ['a mistake', { [FILE]: '{ "out": 1 }' }],
    ['not UTF-8', { [FILE]: Buffer.from([0x7b, 0xff, 0x7d]) }],
    ['too large', { [FILE]: `{${' '.repeat(1_000_000)}}` }],
  ])('finds, reads and checks as loadProjectConfig does: %s', async (_name, files) => {
    const root = writeFolder({ 'sub/keep': '', ...files });
    const show = (file: string) => path.relative(root, file);
    const sync = await outcome(() => loadProjectConfigSync(path.join(root, 'sub'), show));
    expect(sync).toEqual(await outcome(() => loadProjectConfig(path.join(root, 'sub'), undefined, show)));
  });

  it('refuses a project file that is a folder, with the same words', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, FILE));
    expect(() => loadProjectConfigSync(root, () => 'SHOWN')).toThrow(new UsageError('SHOWN is a folder; the project file is a JSON file named pipeline-tool.config.json.'));
  });
});
