import { MANIFEST_PATH } from '../paths.js';
import { defineRule } from './rule.js';

export default defineRule<Record<string, never>>({
  id: 'manifest-bom',
  severity: 'warning',
  description: 'manifest.json starts with a byte-order mark.',
  why: "Some JSON readers refuse a leading byte-order mark; the platform's behaviour is not documented.",
  fix: 'Save manifest.json as UTF-8 without a BOM.',
  message: () => 'manifest.json starts with a byte-order mark, which some JSON parsers reject. Save it as UTF-8 without BOM.',
  check: ({ manifest }) =>
    (manifest.status === 'parsed' || manifest.status === 'syntax-error') && manifest.bom ? [{ file: MANIFEST_PATH, line: 1, column: 1, data: {} }] : [],
});
