import { checkReference, resolveReference } from '../code/references.js';
import { noteScriptMode } from '../code/script-modes.js';
import { END_CALL, END_KEY, K_END, K_NAME, K_PUNCT, K_STRING, K_TEMPLATE_END, K_TEMPLATE_START, type JsDetector, type JsRuleContext, type Token } from '../code/js-rule.js';
import { P_COMMA, P_RPAREN, P_SEMI } from '../code/js-lexer.js';
import { andMore } from '../code/wording.js';
import { W } from '../code/words.js';
import type { ExcludedEntry } from '../shipment/left-out.js';
import { leftOutCause, leftOutData } from './left-out-cause.js';
import { defineRule } from './rule.js';

/** Tokens an import or export statement may take before its module name; past them, give up. */
const MAX_CLAUSE = 2000;

/**
 * In JavaScript, the module names of `import … from '…'`, `import '…'`, `export … from '…'` and
 * `import('…')` with a literal path load files like `<script src>` does (pages and stylesheets are
 * read by their own scanners). A bare name (`import 'vue'`) is left to an import map and not checked.
 */
const js: JsDetector = {
  chainWords: ['import', 'export'],
  create: (context) => ({
    chain(chain) {
      if (!chain.rooted || chain.length !== 1 || chain.end === END_KEY) return;
      if (chain.word(0) === W.import && chain.end === END_CALL) context.watch(dynamicImport(context));
      else context.watch(moduleClause(context, chain.word(0) === W.import));
    },
  }),
};

function reference(context: JsRuleContext, specifier: string, line: number, column: number): void {
  // Only paths and URLs: a bare specifier is resolved by an import map, if any.
  if (!/^(\.{1,2}\/|\/|[a-zA-Z][a-zA-Z0-9+.-]*:)/.test(specifier)) return;
  // What a module imports is a module too, whatever page loads it.
  noteScriptMode(context.bundle, resolveReference(context.file, specifier), 'module');
  checkReference(specifier, 'script', { report: { add: context.report }, index: context.bundle.index, from: context.file, line, column });
}

/** `import(` + one literal + `)` or `,`. */
function dynamicImport(context: JsRuleContext): (token: Token) => boolean {
  let step = 0;
  let value: string | undefined;
  let line = 0;
  let column = 0;
  return (token) => {
    step++;
    if (step === 1) return true; // the `(`
    if (step === 2) {
      line = token.line();
      column = token.column() + 1;
      if (token.kind === K_STRING) value = token.stringValue();
      return token.kind === K_STRING || token.kind === K_TEMPLATE_START;
    }
    if (value === undefined) {
      if (token.kind !== K_TEMPLATE_END || !token.plainTemplate()) return false;
      value = token.stringValue();
      return true;
    }
    if (token.kind === K_PUNCT && (token.punct === P_RPAREN || token.punct === P_COMMA)) reference(context, value, line, column);
    return false;
  };
}

/** The module name of a static import or export: the string right after `from` (or `import`). */
function moduleClause(context: JsRuleContext, isImport: boolean): (token: Token) => boolean {
  let seen = 0;
  let afterFrom = false;
  return (token) => {
    seen++;
    if (token.kind === K_STRING) {
      if (afterFrom || (isImport && seen === 1)) {
        const value = token.stringValue();
        if (value !== undefined) reference(context, value, token.line(), token.column() + 1);
        return false;
      }
      // A name in quotes (`import { "a-b" as ab } from …`): the module name is still to come.
      afterFrom = false;
      return true;
    }
    if (token.kind === K_END || seen > MAX_CLAUSE) return false;
    if (token.kind === K_PUNCT && token.punct === P_SEMI) return false;
    // `export const …`, `export default …`, `export function …`: nothing is loaded. (Only `*` and
    // `{` start an `export … from`; no name can.)
    if (!isImport && seen === 1 && token.kind === K_NAME) return false;
    afterFrom = token.kind === K_NAME && token.word === W.from;
    return true;
  };
}

type Data = { reference: string; resolved?: string; sameLetters?: string; existing?: string; written?: string; escapes?: boolean; more?: number; leftOut?: ExcludedEntry };

export default defineRule<Data>({
  id: 'reference-missing',
  severity: 'error',
  description:
    'A page, stylesheet or module refers (`src`, `href`, `srcset`, `poster`, `url()`, `@import`, `import`) to a file that is not in the bundle, differs in letter case, or climbs out of it with `..`.',
  why: 'The file fails to load inside the host; names are case-sensitive there.',
  fix: 'Add the file or correct the path (relative to the file that refers to it).',
  message: (data) => {
    const more = andMore(data);
    if (data.escapes) return `"${data.reference}" climbs out of the bundle with ..; everything the tool loads must be inside it. Copy the file into the bundle and refer to it from there.${more}`;
    if (data.leftOut) {
      // Inside a folder pack leaves out (and never walks), the file may or may not be there.
      const where = data.leftOut.path.endsWith('/') ? `, inside ${data.leftOut.path}, which does not ship` : ', which is in the folder but does not ship';
      return `"${data.reference}" refers to ${data.resolved}${where}: ${leftOutCause(data.leftOut)}${more}`;
    }
    if (data.sameLetters) return `"${data.reference}" refers to ${data.resolved}, but the bundle has ${data.sameLetters}; names are case-sensitive on the platform. Make the letter case match.${more}`;
    if (data.existing) return `"${data.reference}" refers to ${data.resolved}, which is not in the bundle: browsers do not add an extension to a path, as bundlers and Node do. The bundle has ${data.existing}: write "${data.written}".${more}`;
    return `"${data.reference}" refers to ${data.resolved}, which is not in the bundle, so it fails to load. Add the file, or correct the path (it is relative to the folder of the file that refers to it).${more}`;
  },
  // Found by the content scanners; a file that the folder has but leaves out gets its real cause.
  check: ({ collected, excluded }) =>
    collected
      .filter((finding) => finding.ruleId === 'reference-missing')
      .map(({ file, line, column, data }) => {
        const found = data as Data;
        return { file, line, column, data: found.resolved === undefined ? found : { ...found, ...leftOutData(excluded, found.resolved) } };
      }),
  js,
});
