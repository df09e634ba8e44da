import { stat } from 'node:fs/promises';
import path from 'node:path';
import { effectiveSettings } from '../../../core/config/settings.js';
import { UsageError } from '../../errors.js';
import type { Target } from '../../project.js';
import { leavesFolder } from '../../../core/relative-path.js';

/**
 * `--print-config <file>`, as eslint has it: every rule with the setting that applies to that
 * file, after the defaults, the project file (top level, then the matching overrides) and --rule.
 * The file is a path from the working folder into the tool folder; for a zip target, a path inside
 * the zip. It need not exist yet.
 */
export async function printConfig(file: string, target: Target, cwd: string): Promise<string> {
  const isFolder = await stat(target.path).then(
    (info) => info.isDirectory(),
    () => false,
  );
  let inside: string;
  if (isFolder) {
    const relative = path.relative(target.path, path.resolve(cwd, file));
    if (relative === '' || leavesFolder(relative)) {
      throw new UsageError(`${file} is not a file inside the tool folder ${target.shown}; --print-config takes a path such as ${path.join(target.shown, 'app.js')}.`);
    }
    inside = relative.split(path.sep).join('/');
  } else {
    inside = file.replace(/^\.\//, '');
  }
  const document = {
    file: inside,
    config: target.project ? path.relative(cwd, target.project.file) || target.project.file : null,
    rules: effectiveSettings(target.rules, target.overrides, inside),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
