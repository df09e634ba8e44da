import { Option } from 'commander';

/**
 * `--config <file>`, shared by every command that reads the project file. Apart from the loading
 * code (project.ts), so that defining the commands loads none of it.
 */
export function configOption(): Option {
  return new Option('-c, --config <file>', 'the project file to use (default: pipeline-tool.config.json in this folder or the nearest one above)');
}
