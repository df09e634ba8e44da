import { ARCHIVE_FIX, ARCHIVE_WHY, defineCollectedRule } from './rule.js';

const FEATURES: Record<string, string> = {
  'multi-disk': 'is split across several files (a multi-part archive)',
  'zip64-extensible-data': "carries extensible data in its Zip64 end record (PKWARE's central directory encryption), which Python's zipfile misreads",
  'patched-data': "marks this entry as PKWARE patch data (flag bit 5), which Python's zipfile refuses and other readers extract as if it were the file",
};

export default defineCollectedRule<{ feature: string; version?: string }>({
  id: 'archive-unsupported',
  severity: 'error',
  locked: true,
  description: 'The archive uses a zip feature bundles must not use (multi-part, patch data, entries that need a newer unzip than 4.6).',
  why: ARCHIVE_WHY,
  fix: ARCHIVE_FIX,
  message: ({ feature, version }) =>
    feature === 'version-needed'
      ? `The archive says this entry needs zip version ${version ?? '?'} to extract; stored and deflated files need 2.0. Info-ZIP unzip skips such entries and Python refuses them. Build the bundle again, for example with \`pipeline-tool pack\`.`
      : `The archive ${FEATURES[feature] ?? `uses ${feature}`}. Build a plain single-file zip, for example with \`pipeline-tool pack\`.`,
});
