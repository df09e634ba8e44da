import { atManifestKey, manifestString } from '../manifest/read-manifest.js';
import { defineRule } from './rule.js';

/** The fields the marketplace listing and the host's menus show to people. */
const SHOWN_FIELDS = ['name', 'shortName', 'description'] as const;

type Kind = 'control' | 'bidi' | 'invisible';

/**
 * Characters that let a shown name say something else than it looks: controls (C0, DEL, C1, and
 * the line and paragraph separators), bidirectional embeddings, overrides and isolates, which
 * reorder what follows them ("Invoice\u202Eexe.pdf"), and invisible characters that make two names
 * look alike (zero-width space, word joiner, invisible operators, BOM, soft hyphen, Mongolian vowel
 * separator, Hangul fillers). Unlike a path's list, the zero-width joiner and non-joiner and the
 * left-to-right and right-to-left marks are left alone: emoji sequences and scripts such as
 * Persian, Hindi and Hebrew need them in ordinary names, and none of them hides or reorders text.
 */
// eslint-disable-next-line no-control-regex
const HIDDEN = /(?<control>[\u0000-\u001f\u007f-\u009f\u2028\u2029])|(?<bidi>[\u202a-\u202e\u2066-\u2069])|(?<invisible>[\u00ad\u115f\u1160\u180e\u200b\u2060-\u2064\u3164\ufeff\uffa0])/u;

export default defineRule<{ field: string; codePoint: string; kind: Kind }>({
  id: 'manifest-control-character',
  severity: 'error',
  description: '"name", "shortName" or "description" contains a control, bidirectional-override or invisible character.',
  why: 'Such characters can make the listing and the host menus show another name than the one stored, or two tools look alike.',
  fix: 'Retype the field with plain characters; for right-to-left text, the marks U+200E and U+200F are allowed.',
  message: ({ field, codePoint, kind }) =>
    `"${field}" contains the ${kind === 'control' ? 'control' : kind === 'bidi' ? 'bidirectional override' : 'invisible'} character ${codePoint}, which can make the listing show something else than it holds. Remove it.`,
  check: ({ manifest }) =>
    SHOWN_FIELDS.flatMap((field) => {
      const match = HIDDEN.exec(manifestString(manifest, field) ?? '');
      if (!match) return [];
      const kind: Kind = match.groups?.['control'] ? 'control' : match.groups?.['bidi'] ? 'bidi' : 'invisible';
      const codePoint = `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      return [atManifestKey(manifest, field, { field, codePoint, kind })];
    }),
});
