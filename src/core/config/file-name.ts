/** The project file's name, found from the working folder upward. Alone here, so that naming it loads nothing else. */
export const CONFIG_FILE = 'pipeline-tool.config.json';
