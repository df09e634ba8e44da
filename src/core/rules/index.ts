// The registry: every rule, in the order the docs list them. Ids are public API; never rename one.

import manifestMissing from './manifest-missing.js';
import manifestTooLarge from './manifest-too-large.js';
import manifestEncoding from './manifest-encoding.js';
import manifestBom from './manifest-bom.js';
import manifestSyntax from './manifest-syntax.js';
import manifestDuplicateKey from './manifest-duplicate-key.js';
import manifestNotObject from './manifest-not-object.js';
import manifestMissingField from './manifest-missing-field.js';
import manifestFieldType from './manifest-field-type.js';
import manifestEmptyField from './manifest-empty-field.js';
import manifestToolType from './manifest-tool-type.js';
import manifestVersion from './manifest-version.js';
import manifestDescription from './manifest-description.js';
import manifestShortName from './manifest-short-name.js';
import manifestControlCharacter from './manifest-control-character.js';
import manifestUnknownField from './manifest-unknown-field.js';
import manifestEntryPath from './manifest-entry-path.js';
import manifestEntryLocation from './manifest-entry-location.js';
import manifestEntryMissing from './manifest-entry-missing.js';
import bundleSize from './bundle-size.js';
import unpackedSize from './unpacked-size.js';
import fileCount from './file-count.js';
import fileType from './file-type.js';
import junkFile from './junk-file.js';
import extensionCase from './extension-case.js';
import pathUnsafe from './path-unsafe.js';
import pathControlCharacter from './path-control-character.js';
import pathEncoding from './path-encoding.js';
import pathUtf8Flag from './path-utf8-flag.js';
import pathDuplicate from './path-duplicate.js';
import pathDotPrefix from './path-dot-prefix.js';
import pathNameTooLong from './path-name-too-long.js';
import pathUnicodeMismatch from './path-unicode-mismatch.js';
import entryNotRegular from './entry-not-regular.js';
import archiveNotZip from './archive-not-zip.js';
import archiveTruncated from './archive-truncated.js';
import archiveCorrupt from './archive-corrupt.js';
import archiveUnsupported from './archive-unsupported.js';
import archiveEntryCount from './archive-entry-count.js';
import archivePrefixData from './archive-prefix-data.js';
import archiveHiddenData from './archive-hidden-data.js';
import archiveTrailingData from './archive-trailing-data.js';
import archiveOverlap from './archive-overlap.js';
import archiveHeaderMismatch from './archive-header-mismatch.js';
import archiveEncrypted from './archive-encrypted.js';
import archiveCompression from './archive-compression.js';
import archiveCrcMismatch from './archive-crc-mismatch.js';
import archiveSizeMismatch from './archive-size-mismatch.js';
import archiveCorruptData from './archive-corrupt-data.js';
import archiveAmbiguousEnd from './archive-ambiguous-end.js';
import archiveExtraField from './archive-extra-field.js';
import archiveDirectoryData from './archive-directory-data.js';
import dialogCall from './dialog-call.js';
import browserStorage from './browser-storage.js';
import unsafeHtml from './unsafe-html.js';
import bridgeToolType from './bridge-tool-type.js';
import bridgeUnknownMethod from './bridge-unknown-method.js';
import bridgeDeprecated from './bridge-deprecated.js';
import bridgeLiteralRange from './bridge-literal-range.js';
import referenceMissing from './reference-missing.js';
import referenceRootAbsolute from './reference-root-absolute.js';
import referenceInsecure from './reference-insecure.js';
import referenceRemote from './reference-remote.js';
import jsonSyntax from './json-syntax.js';
import jsSyntax from './js-syntax.js';
import unknownDisableDirective from './unknown-disable-directive.js';
import type { AnyRule } from './rule.js';

export const rules: readonly AnyRule[] = [
  manifestMissing,
  manifestTooLarge,
  manifestEncoding,
  manifestBom,
  manifestSyntax,
  manifestDuplicateKey,
  manifestNotObject,
  manifestMissingField,
  manifestFieldType,
  manifestEmptyField,
  manifestToolType,
  manifestVersion,
  manifestDescription,
  manifestShortName,
  manifestControlCharacter,
  manifestUnknownField,
  manifestEntryPath,
  manifestEntryLocation,
  manifestEntryMissing,
  bundleSize,
  unpackedSize,
  fileCount,
  fileType,
  junkFile,
  extensionCase,
  pathUnsafe,
  pathControlCharacter,
  pathEncoding,
  pathUtf8Flag,
  pathDuplicate,
  pathDotPrefix,
  pathNameTooLong,
  pathUnicodeMismatch,
  entryNotRegular,
  archiveNotZip,
  archiveTruncated,
  archiveCorrupt,
  archiveUnsupported,
  archiveEntryCount,
  archivePrefixData,
  archiveHiddenData,
  archiveTrailingData,
  archiveOverlap,
  archiveHeaderMismatch,
  archiveEncrypted,
  archiveCompression,
  archiveCrcMismatch,
  archiveSizeMismatch,
  archiveCorruptData,
  archiveAmbiguousEnd,
  archiveExtraField,
  archiveDirectoryData,
  dialogCall,
  browserStorage,
  unsafeHtml,
  bridgeToolType,
  bridgeUnknownMethod,
  bridgeDeprecated,
  bridgeLiteralRange,
  referenceMissing,
  referenceRootAbsolute,
  referenceInsecure,
  referenceRemote,
  jsonSyntax,
  jsSyntax,
  unknownDisableDirective,
] as readonly AnyRule[];

export const ruleIds: readonly string[] = rules.map((rule) => rule.id);

export function findRule(id: string): AnyRule | undefined {
  return rules.find((rule) => rule.id === id);
}
