import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManifestElsewhereError, quoteArgument, requireManifestHere } from '../../src/core/pack/manifest-elsewhere.js';
import { tempDir } from '../helpers/bundles.js';

/** A project folder with manifest.json in each of the given subfolders (and any other files). */
function project(withManifest: string[], extra: Record<string, string> = {}): string {
  const root = tempDir();
  for (const folder of withManifest) {
    mkdirSync(path.join(root, folder), { recursive: true });
    writeFileSync(path.join(root, folder, 'manifest.json'), '{}');
  }
  for (const [file, content] of Object.entries(extra)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}

async function refusal(root: string, given: string, command?: 'pack' | 'validate' | 'dev'): Promise<ManifestElsewhereError> {
  const error: unknown = await requireManifestHere(root, given, command).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ManifestElsewhereError);
  return error as ManifestElsewhereError;
}

describe('a folder whose manifest.json is one level down', () => {
  it('passes a folder that has its own manifest, whatever its subfolders hold', async () => {
    await expect(requireManifestHere(project(['.', 'dist']), '.')).resolves.toBeUndefined();
  });

  it('passes a folder with no manifest anywhere: manifest-missing says that', async () => {
    await expect(requireManifestHere(project([], { 'app.js': '' }), '.')).resolves.toBeUndefined();
  });

  it('names build folders first, in their usual order, then the others by name', async () => {
    const error = await refusal(project(['zeta', 'src', 'www', 'build', 'dist', 'alpha']), 'proj');
    expect(error.candidates).toEqual(['dist', 'build', 'www', 'alpha', 'src', 'zeta'].map((name) => path.join('proj', name)));
    expect(error.message).toBe(
      `proj has no manifest.json, but ${path.join('proj', 'dist')} has one. Pack that folder: pipeline-tool pack ${path.join('proj', 'dist')} ` +
        `(also found in ${['build', 'www', 'alpha', 'src', 'zeta'].map((name) => path.join('proj', name)).join(', ')}), ` +
        `or name it in pipeline-tool.config.json ("source": "proj/dist") to have every command find it.`,
    );
  });

  it('says the verb and command that was run, and leaves out "also found" for a single folder', async () => {
    const root = project(['src']);
    expect((await refusal(root, '.', 'validate')).message).toBe(
      '. has no manifest.json, but src has one. Check that folder: pipeline-tool validate src, or name it in pipeline-tool.config.json ("source": "src") to have every command find it.',
    );
    expect((await refusal(root, '.', 'dev')).message).toMatch(/^\. has no manifest\.json, but src has one\. Run that folder: pipeline-tool dev src, or/);
  });

  it('does not look into dot-folders or node_modules, nor take a folder or a link for the manifest', async () => {
    const root = project(['.cache', 'node_modules/x', 'node_modules'], { 'lib/manifest.json/inner': '' });
    mkdirSync(path.join(root, 'linked'));
    symlinkSync(path.join(root, 'node_modules', 'manifest.json'), path.join(root, 'linked', 'manifest.json'));
    await expect(requireManifestHere(root, '.')).resolves.toBeUndefined();
  });
});

describe('quoteArgument', () => {
  it('leaves plain paths alone and single-quotes the rest, escaping single quotes', () => {
    expect(quoteArgument('my-tool/dist_1.2+x@y:z')).toBe('my-tool/dist_1.2+x@y:z');
    expect(quoteArgument('my tool')).toBe("'my tool'");
    expect(quoteArgument("it's")).toBe(`'it'\\''s'`);
    expect(quoteArgument('a\nb')).toBe("'a\nb'");
  });
});

describe('a folder whose manifest.json is one level down: more cases', () => {
  it('knows the usual build folders: dist, build, out, public, www, in that order', async () => {
    const error = await refusal(project(['www', 'public', 'out', 'build', 'dist', 'assets']), '.');
    expect(error.candidates).toEqual(['dist', 'build', 'out', 'public', 'www', 'assets']);
  });

  it('keeps the folder as given in the suggestion, dots included', async () => {
    const error = await refusal(project(['dist']), 'v1.');
    expect(error.message).toBe(
      `v1. has no manifest.json, but ${path.join('v1.', 'dist')} has one. Pack that folder: pipeline-tool pack ${path.join('v1.', 'dist')}, ` +
        'or name it in pipeline-tool.config.json ("source": "v1./dist") to have every command find it.',
    );
  });

  it('suggests pack unless told which command ran', () => {
    expect(new ManifestElsewhereError('proj', [path.join('proj', 'dist')]).message).toMatch(/ Pack that folder: pipeline-tool pack proj.dist, /);
  });

  it('leaves a path it cannot list to the other checks', async () => {
    const root = tempDir();
    writeFileSync(path.join(root, 'file'), 'x');
    await expect(requireManifestHere(path.join(root, 'file'), 'file')).resolves.toBeUndefined();
    await expect(requireManifestHere(path.join(root, 'missing'), 'missing')).resolves.toBeUndefined();
  });
});
