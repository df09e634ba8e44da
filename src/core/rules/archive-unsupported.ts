import { defineCollectedRule } from './rule.js';

const FEATURES: Record<string, string> = {
  zip64: 'uses the Zip64 extension, which no bundle within the 10 MB limit needs',
  'multi-disk': 'is split across several files (a multi-part archive)',
};

export default defineCollectedRule<{ feature: string }>({
  id: 'archive-unsupported',
  severity: 'error',
  description: 'The archive uses a zip feature bundles must not use (Zip64, multi-part).',
  message: ({ feature }) =>
    `The archive ${FEATURES[feature] ?? `uses ${feature}`}. Build a plain single-file zip, for example with \`pipeline-tool pack\`.`,
});
