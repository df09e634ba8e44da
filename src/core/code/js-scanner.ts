import type { BundleEntry } from '../bundle/source.js';
import { manifestObject, manifestString, type ManifestState } from '../manifest/read-manifest.js';
import { extensionOf } from '../paths.js';
import { FileReport } from './file-report.js';
import { JsChecks, JsFileState } from './js-checks.js';
import { Gate } from './gate.js';
import { TriggerSearch } from './trigger.js';
import type { ContentScanner, ScanContext, ScanOutput, ScanSession } from './scanner.js';

/*
 * Tokenizing every byte of a large minified bundle costs more than inflating it, but every check
 * needs one of a few names to be present (`pipeline`, `alert`, `innerHTML`, `localStorage`, …).
 * So a JavaScript file first goes through a byte-level search for those names (trigger.ts). Its
 * chunks are held (they are not copied) until one turns up; then the tokenizer reads the held
 * chunks and the rest of the file. A file that never names one of them cannot have a finding and
 * is never tokenized.
 */

export { HOLD_LIMIT } from './gate.js';

/** The manifest's tool type as the host will see it: a missing "type" means standalone. */
export function effectiveToolType(manifest: ManifestState): { toolType: string | undefined; declared: boolean } {
  if (!manifestObject(manifest)) return { toolType: undefined, declared: false };
  const type = manifestString(manifest, 'type');
  if (type === undefined) return { toolType: 'standalone', declared: false };
  return { toolType: type === 'standalone' || type === 'quoting_extension' ? type : undefined, declared: true };
}

export const jsScanner: ContentScanner = {
  name: 'javascript',
  accepts: (entry) => extensionOf(entry.path) === '.js',
  begin: (entry, context) => new JsSession(entry, context),
};

class JsSession implements ScanSession {
  private readonly report: FileReport;
  private readonly state: JsFileState;
  private checks: JsChecks | undefined;
  private readonly gate: Gate;

  constructor(entry: BundleEntry, context: ScanContext) {
    this.report = new FileReport(entry.path);
    const { toolType, declared } = effectiveToolType(context.manifest);
    this.state = new JsFileState(this.report, toolType, declared);
    const trigger = new TriggerSearch();
    this.gate = new Gate(
      (chunk) => trigger.found(chunk),
      () => {
        const checks = new JsChecks(this.state);
        this.checks = checks;
        return (chunk) => checks.lexer.write(chunk);
      },
    );
  }

  write(chunk: Buffer): void {
    this.gate.write(chunk);
  }

  end(): ScanOutput {
    if (this.gate.close() && this.checks) {
      this.checks.lexer.end();
      this.state.flush();
    }
    return this.report.finish();
  }
}
