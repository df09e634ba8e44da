import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { completeAnswers, initProject } from '../../src/core/init/index.js';
import { packFolder } from '../../src/index.js';
import { validateBundle } from '../../src/core/validate.js';
import { tempDir } from './helpers.js';

describe.each(['standalone', 'quoting_extension'] as const)('a new %s project, packed', (type) => {
  it('packs src/ into a zip that validates with no problem at all', async () => {
    const root = await tempDir();
    const project = path.join(root, 'estimator');
    await initProject({ directory: project, answers: completeAnswers({ type }, 'estimator') });

    const result = await packFolder(path.join(project, 'src'), { out: `${path.join(project, 'dist')}/` });
    expect(result.report.problems).toEqual([]);
    expect(result.written).toBe(true);
    // Everything in src/ ships; nothing there needs leaving out.
    expect(result.included.map((file) => file.path).sort()).toEqual(['app.js', 'index.html', 'manifest.json', 'styles.css']);
    expect(result.excluded).toEqual([]);

    const report = await validateBundle(result.outputPath);
    expect(report.kind).toBe('zip');
    expect(report.problems).toEqual([]);
  });
});
