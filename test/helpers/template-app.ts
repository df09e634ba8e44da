import { cpSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import vue from '@vitejs/plugin-vue';
import { build } from 'vite';
import { completeAnswers, initProject } from '../../src/core/init/index.js';
import pipeline from '../../src/vite/index.js';
import { tempDir } from './bundles.js';
import { REPO } from '../vite/helpers.js';

/**
 * A framework template as `init` writes it, built for real by `vite build` with its framework's
 * plugin and ours, without installing anything: its node_modules links to this repository's
 * packages (react, react-dom, vue, vite…), as test/vite's projects do. The build is what the
 * template's own vite.config.ts makes (the plugins are the same ones, imported from here). The
 * packages named in `installed` are copied in instead, as npm installs them, so that a map's
 * sources in them lie inside the project (a link's real path is outside it, and is not used).
 */
export async function buildTemplate(template: 'react' | 'vue', options: { installed?: readonly string[] } = {}): Promise<{ project: string; dist: string }> {
  const project = path.join(tempDir(), 'tool');
  await initProject({ directory: project, answers: completeAnswers({ type: 'standalone' }, 'tool'), template });
  const modules = path.join(project, 'node_modules');
  mkdirSync(modules);
  for (const name of readdirSync(path.join(REPO, 'node_modules'))) {
    if (name.startsWith('.')) continue;
    if (options.installed?.includes(name)) cpSync(path.join(REPO, 'node_modules', name), path.join(modules, name), { recursive: true, dereference: true });
    else symlinkSync(path.join(REPO, 'node_modules', name), path.join(modules, name));
  }
  symlinkSync(REPO, path.join(modules, 'pipeline-tool'));
  await build({ root: project, configFile: false, logLevel: 'silent', plugins: [template === 'react' ? react() : vue(), pipeline()] });
  return { project, dist: path.join(project, 'dist') };
}
