/** The project file's name, found from the working folder upward. Alone here, so that naming it loads nothing else. */
export const CONFIG_FILE = 'pipeline-tool.config.json';

/** Where a project made by `init` points `$schema`, so editors complete and check the file. */
export const CONFIG_SCHEMA_REFERENCE = './node_modules/pipeline-tool/schemas/config.schema.json';
