// Ids of the rules whose findings the code scanners make. The rules themselves (wording, severity)
// are in src/core/rules/<id>.ts; a test checks that every id here is registered.

export const DIALOG_CALL = 'dialog-call';
export const BROWSER_STORAGE = 'browser-storage';
export const UNSAFE_HTML = 'unsafe-html';
export const BRIDGE_TOOL_TYPE = 'bridge-tool-type';
export const BRIDGE_DEPRECATED = 'bridge-deprecated';
export const BRIDGE_UNKNOWN_METHOD = 'bridge-unknown-method';
export const BRIDGE_LITERAL_RANGE = 'bridge-literal-range';
export const REFERENCE_MISSING = 'reference-missing';
export const REFERENCE_ROOT_ABSOLUTE = 'reference-root-absolute';
export const REFERENCE_INSECURE = 'reference-insecure';
export const REFERENCE_REMOTE = 'reference-remote';
export const JSON_SYNTAX = 'json-syntax';
export const JS_SYNTAX = 'js-syntax';
export const UNKNOWN_DISABLE_DIRECTIVE = 'unknown-disable-directive';

export const CODE_RULE_IDS: readonly string[] = [
  DIALOG_CALL,
  BROWSER_STORAGE,
  UNSAFE_HTML,
  BRIDGE_TOOL_TYPE,
  BRIDGE_DEPRECATED,
  BRIDGE_UNKNOWN_METHOD,
  BRIDGE_LITERAL_RANGE,
  REFERENCE_MISSING,
  REFERENCE_ROOT_ABSOLUTE,
  REFERENCE_INSECURE,
  REFERENCE_REMOTE,
  JSON_SYNTAX,
  JS_SYNTAX,
  UNKNOWN_DISABLE_DIRECTIVE,
];

/** Rules whose findings are about the bridge, and so hold only where the bridge was really reached. */
export const BRIDGE_RULE_IDS: ReadonlySet<string> = new Set([BRIDGE_TOOL_TYPE, BRIDGE_DEPRECATED, BRIDGE_UNKNOWN_METHOD, BRIDGE_LITERAL_RANGE]);

/**
 * The code rules that judge one module by its own code, and so can check each module a dev server
 * serves (the Vite plugin does) without a build. The others wait for the built folder: references
 * name the files it holds, and a served module's syntax is the dev server's own to report.
 */
export const SERVED_RULE_IDS: readonly string[] = CODE_RULE_IDS.filter(
  (id) => ![REFERENCE_MISSING, REFERENCE_ROOT_ABSOLUTE, REFERENCE_INSECURE, REFERENCE_REMOTE, JSON_SYNTAX, JS_SYNTAX].includes(id),
);
