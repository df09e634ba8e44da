import path from 'node:path';
import { loadProjectConfig } from '../core/config/index.js';
import type { RuleOverride } from '../core/config/index.js';
import type { RuleSetting } from '../core/validate.js';

/** What the plugin takes from the project file, pipeline-tool.config.json, found from Vite's root. */
export interface ProjectSettings {
  /** The project's folder: the project file's, else Vite's root. Settings of the emulated host are kept here. */
  root: string;
  /** The project file, when there is one. */
  file: string | null;
  /** The folder `validate` and `pack` act on (its `source`), absolute; null when it names none. */
  source: string | null;
  rules: Record<string, RuleSetting>;
  overrides: RuleOverride[];
}

export async function readProjectSettings(viteRoot: string): Promise<ProjectSettings> {
  const project = await loadProjectConfig(viteRoot, undefined, (file) => path.relative(viteRoot, file) || file);
  if (project === undefined) return { root: viteRoot, file: null, source: null, rules: {}, overrides: [] };
  const { config } = project;
  return {
    root: project.root,
    file: project.file,
    source: config.source === undefined ? null : path.resolve(project.root, config.source),
    rules: { ...config.rules },
    overrides: [...config.overrides],
  };
}
