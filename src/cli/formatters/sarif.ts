import path from 'node:path';
import type { Artifact, ArtifactLocation, Location, Log, Notification, ReportingDescriptor, Result } from 'sarif';
import type { ExcludedEntry } from '../../core/shipment/left-out.js';
import { CODE_RULE_IDS } from '../../core/code/rule-ids.js';
import type { Problem, Report } from '../../core/problem.js';
import { packageFacts, ruleHelpUri } from '../../core/rule-docs.js';
import { rules } from '../../core/rules/index.js';
import { leftOutReason } from './left-out.js';
import { problemOnDisk, repositoryBase, slashPath, visibleProblems, type FormatOptions } from './shared.js';

/*
 * SARIF 2.1.0 (OASIS), the format code scanning reads: GitHub's, GitLab's, Azure DevOps', and
 * SonarQube's import. One run; the driver lists every rule, so that a viewer can explain a rule
 * that found nothing this time; one result per problem; what a folder leaves out is told as
 * notifications, since it is information, not a problem.
 *
 * Paths are relative to the uriBaseId %SRCROOT%: the repository's root (GITHUB_WORKSPACE) when the
 * bundle lies inside it, else the working folder, as --format github has them. Its absolute path
 * is left out, so the log is the same on every machine and names no home folder. Columns count
 * characters (Unicode code points), as every other output does.
 */

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
const SRCROOT = '%SRCROOT%';

export { ruleHelpUri };

export function formatSarif(report: Report, options: FormatOptions): string {
  return formatSarifLog([report], options);
}

/**
 * One SARIF log, with one run, for the reports of one `validate` (several bundles given at once
 * make one run with the results of all, as one eslint run over several files does).
 */
export function formatSarifLog(reports: readonly Report[], options: FormatOptions): string {
  const { version, homepage } = packageFacts();
  const artifacts: Artifact[] = [];
  const code = new Set(CODE_RULE_IDS);
  const descriptors: ReportingDescriptor[] = rules.map((rule) => ({
    id: rule.id,
    // The "friendly name" viewers show beside the id: browser-storage is BrowserStorage.
    name: rule.id.replace(/(?:^|-)([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase()),
    shortDescription: { text: rule.description },
    fullDescription: { text: rule.why },
    help: { text: rule.fix, markdown: rule.fix },
    helpUri: ruleHelpUri(rule.id),
    defaultConfiguration: { level: rule.severity },
    properties: { tags: [code.has(rule.id) ? 'code' : 'bundle', ...(rule.locked ? ['locked'] : [])] },
  }));
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
  const results: Result[] = [];
  const notifications: Notification[] = [];
  for (const report of reports) {
    const base = repositoryBase(report, options);
    results.push(...reportResults(report, options, base, artifacts, ruleIndex));
    notifications.push(...(report.excluded ?? []).map((entry) => leftOutNotification(entry, path.resolve(options.cwd, report.bundle), base)));
  }
  const log: Log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'pipeline-tool',
            version,
            semanticVersion: version,
            informationUri: homepage,
            rules: descriptors,
            notifications: [
              {
                id: 'left-out',
                name: 'LeftOut',
                shortDescription: { text: 'A file or folder of the tool folder that pack leaves out of the bundle.' },
                fullDescription: { text: 'Listed for information, as pack --dry-run lists it: it does not ship, and it is not a problem.' },
                help: { text: 'Nothing to fix. To ship the file, give it an accepted type and a name pack keeps (see pipeline-tool pack --dry-run).' },
                defaultConfiguration: { level: 'note' },
              },
            ],
          },
        },
        originalUriBaseIds: {
          [SRCROOT]: { description: { text: 'The root of the repository (GITHUB_WORKSPACE) when the bundle lies inside it; otherwise the folder pipeline-tool ran in.' } },
        },
        ...(artifacts.length > 0 ? { artifacts } : {}),
        invocations: [{ executionSuccessful: true, ...(notifications.length > 0 ? { toolExecutionNotifications: notifications } : {}) }],
        results,
        columnKind: 'unicodeCodePoints',
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

/** The results of one report; the artifacts they name (a zip and its entries) are added to `artifacts`. */
function reportResults(report: Report, options: FormatOptions, base: string, artifacts: Artifact[], ruleIndex: ReadonlyMap<string, number>): Result[] {
  /** The zip as an artifact, and each of its entries that a result names, nested in it. */
  let zipIndex: number | undefined;
  const zipArtifact = () =>
    (zipIndex ??= artifacts.push({ location: { uri: uriOf(slashPath(base, path.resolve(options.cwd, report.bundle))), uriBaseId: SRCROOT }, mimeType: 'application/zip' }) - 1);
  const entryArtifact = (entry: string): ArtifactLocation => {
    const parentIndex = zipArtifact();
    // The member's own name, as the archive has it (SARIF 3.4.3); the zip is its base, not %SRCROOT%.
    const uri = uriOf(entry);
    let index = artifacts.findIndex((artifact) => artifact.parentIndex === parentIndex && artifact.location?.uri === uri);
    if (index < 0) index = artifacts.push({ location: { uri }, parentIndex }) - 1;
    return { uri, index };
  };

  const where = (problem: Problem): ArtifactLocation => {
    const { file, inside } = problemOnDisk(report, problem, options.cwd);
    if (inside) return { uri: uriOf(slashPath(base, file)), uriBaseId: SRCROOT };
    if (report.kind === 'zip') {
      if (problem.file !== undefined) return entryArtifact(problem.file);
      const index = zipArtifact();
      return { uri: artifacts[index]!.location!.uri!, uriBaseId: SRCROOT, index };
    }
    // A problem about a whole folder (its size, a missing manifest) points at the folder.
    return { uri: `${uriOf(slashPath(base, file))}/`, uriBaseId: SRCROOT };
  };

  return visibleProblems(report, options).map((problem) => {
    const location: Location = { physicalLocation: { artifactLocation: where(problem), ...region(problem.line, problem.column) } };
    const result: Result = {
      ruleId: problem.ruleId,
      ...(ruleIndex.has(problem.ruleId) ? { ruleIndex: ruleIndex.get(problem.ruleId)! } : {}),
      level: problem.severity,
      message: { text: problem.message },
      locations: [location],
    };
    if (problem.built) {
      // Placed at the author's source by a source map: where it sits in the bundle is related.
      const built = report.kind === 'folder' ? { uri: uriOf(slashPath(base, path.join(path.resolve(options.cwd, report.bundle), problem.built.file))), uriBaseId: SRCROOT } : entryArtifact(problem.built.file);
      result.relatedLocations = [
        { id: 1, physicalLocation: { artifactLocation: built, ...region(problem.built.line, problem.built.column) }, message: { text: 'Where the bundle holds it (built file).' } },
      ];
    }
    return result;
  });
}

/** A region from 1-based line and column, when the line is known. */
function region(line: number | undefined, column: number | undefined): { region?: { startLine: number; startColumn?: number } } {
  if (line === undefined) return {};
  return { region: { startLine: line, ...(column !== undefined ? { startColumn: column } : {}) } };
}

function leftOutNotification(entry: ExcludedEntry, folder: string, base: string): Notification {
  const uri = uriOf(slashPath(base, path.join(folder, entry.path))) + (entry.path.endsWith('/') ? '/' : '');
  return {
    descriptor: { id: 'left-out', index: 0 },
    level: 'note',
    message: { text: `${entry.path} is left out of the bundle: ${leftOutReason(entry)} (${entry.reason}).` },
    locations: [{ physicalLocation: { artifactLocation: { uri, uriBaseId: SRCROOT } } }],
    properties: { reason: entry.reason, ...(entry.detail !== undefined ? { detail: entry.detail } : {}) },
  };
}

/** A slash-separated path as a relative URI reference: each segment percent-encoded (dots are unreserved, so `..` stays `..`). */
function uriOf(slashPathValue: string): string {
  return slashPathValue.split('/').map((segment) => encodeURIComponent(segment)).join('/');
}
