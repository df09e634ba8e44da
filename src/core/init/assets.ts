import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ToolType } from './answers.js';
import { DEFAULT_TEMPLATE, type TemplateFile, type TemplateName } from './plan.js';

// This module sits at the same depth in src/ and dist/, so one relative path finds the package
// root both when tests run the sources and when the built CLI runs.
const PACKAGE_ROOT = new URL('../../../', import.meta.url);

/** The file beside the layers that lists each template's layers, in order (see docs/development.md). */
const TEMPLATE_LAYOUT = 'templates/templates.json';

/** A layer file with this ending is added to the end of the file of the same name below it. */
const APPEND = '.append';

/** One layer of a template: a folder of templates/, landing at the project's root or in `into`. */
interface LayerUse {
  layer: string;
  into: string;
}

/** The key of a template in templates.json: `<template>-<type>`, as `vanilla-standalone`. */
function templateKey(type: ToolType, template: TemplateName): string {
  return `${template}-${type}`;
}

/**
 * Reads every file of a template shipped in the package's `templates/` folder, composed from the
 * layers templates.json lists for it: later layers replace files of earlier ones, and add to the
 * end of those their `.append` files name. Paths are as stored (`_gitignore`, see planProject).
 */
export async function readTemplate(type: ToolType, template: TemplateName = DEFAULT_TEMPLATE): Promise<TemplateFile[]> {
  const key = templateKey(type, template);
  const all = await readLayout();
  const layers = Object.hasOwn(all, key) ? all[key] : undefined;
  if (layers === undefined) throw new Error(`pipeline-tool is incomplete: ${fileURLToPath(new URL(TEMPLATE_LAYOUT, PACKAGE_ROOT))} lists no template ${key}`);
  const files = new Map<string, Buffer>();
  for (const { layer, into } of layers) {
    for (const file of await readLayer(layer)) {
      const path = into + file.path;
      if (!path.endsWith(APPEND)) {
        files.set(path, file.contents);
        continue;
      }
      const target = path.slice(0, -APPEND.length);
      const below = files.get(target);
      if (below === undefined) throw new Error(`pipeline-tool is incomplete: the template ${key} has no ${target} for the layer ${layer} to add to`);
      files.set(target, Buffer.concat([below, file.contents]));
    }
  }
  return [...files].map(([path, contents]) => ({ path, contents }));
}

let layout: Promise<Record<string, LayerUse[]>> | undefined;

function readLayout(): Promise<Record<string, LayerUse[]>> {
  const location = new URL(TEMPLATE_LAYOUT, PACKAGE_ROOT);
  layout ??= readFile(location, 'utf8').then(
    (text) => {
      const listed = JSON.parse(text) as Record<string, unknown>;
      const templates: Record<string, LayerUse[]> = {};
      for (const [key, layers] of Object.entries(listed)) {
        if (!Array.isArray(layers)) continue;
        templates[key] = layers.map((use: string | { layer: string; into?: string }) => (typeof use === 'string' ? { layer: use, into: '' } : { layer: use.layer, into: use.into ?? '' }));
      }
      return templates;
    },
    (error: unknown) => {
      layout = undefined;
      throw new Error(`pipeline-tool is incomplete: ${fileURLToPath(location)} cannot be read`, { cause: error });
    },
  );
  return layout;
}

/** Every file of one layer folder, with slash-separated paths inside it. */
async function readLayer(layer: string): Promise<TemplateFile[]> {
  const root = new URL(`templates/${layer}/`, PACKAGE_ROOT);
  const files: TemplateFile[] = [];
  const walk = async (relative: string): Promise<void> => {
    let children;
    try {
      children = await readdir(new URL(relative, root), { withFileTypes: true });
    } catch (error) {
      throw new Error(`pipeline-tool is incomplete: its template folder ${fileURLToPath(root)} cannot be read`, { cause: error });
    }
    for (const child of children) {
      const path = relative + child.name;
      if (child.isDirectory()) await walk(`${path}/`);
      else if (child.isFile()) files.push({ path, contents: await readFile(new URL(path, root)) });
    }
  };
  await walk('');
  return files;
}

/**
 * The bridge declarations as compiled from src/bridge/types.ts: the same file the package
 * exports as `pipeline-tool/bridge`, so a tool project and a TypeScript import never disagree.
 */
export async function readBridgeTypes(): Promise<string> {
  const location = new URL('dist/bridge/types.d.ts', PACKAGE_ROOT);
  try {
    return await readFile(location, 'utf8');
  } catch (error) {
    throw new Error(
      `pipeline-tool is incomplete: ${fileURLToPath(location)} is missing, so init cannot give the project its pipeline.d.ts. ` +
        'In a checkout of pipeline-tool, run `npm run build` first.',
      { cause: error },
    );
  }
}

/** The folder of the running pipeline-tool (a checkout, or the installed package). */
export function packageRoot(): string {
  return fileURLToPath(PACKAGE_ROOT);
}

let toolkitVersion: string | undefined;

/** The version of pipeline-tool that is running, for the new project's devDependency. */
export function readToolkitVersion(): string {
  toolkitVersion ??= (JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as { version: string }).version;
  return toolkitVersion;
}
