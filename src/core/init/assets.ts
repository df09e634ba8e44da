import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ToolType } from './answers.js';
import { DEFAULT_TEMPLATE, type TemplateFile, type TemplateName } from './plan.js';

// This module sits at the same depth in src/ and dist/, so one relative path finds the package
// root both when tests run the sources and when the built CLI runs.
const PACKAGE_ROOT = new URL('../../../', import.meta.url);

/**
 * Reads every file of a template shipped in the package's `templates/` folder: `<type>/` for the
 * vanilla template, `<template>-<type>/` for the others.
 */
export async function readTemplate(type: ToolType, template: TemplateName = DEFAULT_TEMPLATE): Promise<TemplateFile[]> {
  const root = new URL(`templates/${template === 'vanilla' ? type : `${template}-${type}`}/`, PACKAGE_ROOT);
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
