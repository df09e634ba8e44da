import type { BridgeLineType, BridgeUnit } from '../bridge/types.js';
import { describeValue, isRecord, readList, RecordReader, type CallChecks } from './arguments.js';
import { computeLineAmounts, decimalOf, decimalToNumber, MAX_SAFE_CENTS, percentToFraction, type Decimal } from './money.js';
import type { LineDraft, QuoteLineData, SectionDraft, SectionKey } from './quote.js';
import { lookUpLinkedItem, resolveSupplier, type LinkedItem, type TenantData } from './tenant-data.js';

/*
 * Checking the arguments of quotes.addLines and quotes.addSections (platform-spec §2 Add-line
 * record, Section declaration; §4.2; decisions.md "Bridge") and turning them into drafts that
 * quote.ts merges. Every problem of the batch is collected; the caller merges nothing if any.
 */

export const SECTION_NAME_MAX = 100;
export const SECTION_NOTES_MAX = 2000;
/**
 * Not a platform limit (the spec states none for addLines): a guard so that a runaway tool
 * cannot make the emulator walk millions of lines.
 */
export const MAX_LINES_PER_BATCH = 10_000;

const LINE_TYPES: readonly BridgeLineType[] = ['product', 'task', 'cost', 'jobcost'];
const UNITS: readonly BridgeUnit[] = ['T_ITEM', 'T_SQUARE_METRE', 'T_LINEAR_METRE'];

const ADD_LINE_FIELDS = [
  'description',
  'productCode',
  'qty',
  'unitPrice',
  'costPrice',
  'taxRate',
  'location',
  'specification',
  'unit',
  'groupKey',
  'lineType',
  'linkedItemId',
  'section',
  'summaryOnly',
  'sectionNotes',
  'discountPercent',
  'supplierRef',
  'freeTextField3',
  'freeTextField4',
  'productId',
] as const;
const SECTION_FIELDS = ['name', 'summaryOnly', 'notes'] as const;

/** What the checks need to know about the host. */
export interface BatchContext {
  data: TenantData;
  tenantId: string;
}

/** Cuts text to `max` UTF-16 units, as the platform counts, without splitting a surrogate pair. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** A section name as the host keeps it: trimmed, then cut to 100 characters. Empty means none. */
function normaliseSectionName(raw: string, reader: RecordReader, checks: CallChecks, field: string): string {
  const trimmed = raw.trim();
  if (trimmed.length <= SECTION_NAME_MAX) return trimmed;
  checks.warn('SECTION_NAME_TRUNCATED', reader.at(field), `is ${trimmed.length} characters long and was cut to ${SECTION_NAME_MAX}`);
  return truncate(trimmed, SECTION_NAME_MAX).trimEnd();
}

/**
 * Section notes as kept: line breaks and spacing untouched, cut to 2000. Only the empty string
 * counts as none: the platform's "first non-empty value wins" takes spaces as a value, so notes
 * of spaces only win too, and print as a blank line; the author is warned.
 */
function readNotes(reader: RecordReader, checks: CallChecks, field: string): string | null | undefined {
  const notes = reader.optionalString(field);
  if (notes === undefined || notes === null || notes === '') return notes === undefined ? undefined : null;
  if (notes.trim() === '') checks.warn('SECTION_NOTES_BLANK', reader.at(field), 'are only spaces or line breaks: they count as notes (the first non-empty notes win) and print as blank');
  if (notes.length <= SECTION_NOTES_MAX) return notes;
  checks.warn('SECTION_NOTES_TRUNCATED', reader.at(field), `are ${notes.length} characters long and were cut to ${SECTION_NOTES_MAX}`);
  return truncate(notes, SECTION_NOTES_MAX);
}

/** summaryOnly is never a reason to reject: anything but a boolean counts as false. */
function readSummaryOnly(reader: RecordReader, checks: CallChecks): boolean {
  const value = reader.raw('summaryOnly');
  if (typeof value === 'boolean') return value;
  if (value !== undefined && value !== null) {
    checks.warn('FIELD_IGNORED', reader.at('summaryOnly'), `is ${describeValue(value)}, not a boolean, so it counts as false`);
  }
  return false;
}

/**
 * taxRate as a fraction: above 1 it is a percentage (15 → 0.15); from 0 to 1 it already is one.
 * Over 100 it comes to more than 100%, the same slip quotes.create warns of above 1, and the
 * same warning says so.
 */
function normaliseTaxRate(taxRate: number, reader: RecordReader, checks: CallChecks): Decimal {
  if (taxRate === 1) checks.warn('TAX_RATE_IS_ONE', reader.at('taxRate'), 'is 1, which means 100%; for 1% send 0.01');
  if (taxRate > 100) {
    checks.warn('TAX_RATE_LOOKS_LIKE_PERCENT', reader.at('taxRate'), `is ${taxRate}, which quotes.addLines reads as ${taxRate}% (above 1 a rate is a percentage); for 15% send 15 or 0.15`);
  }
  const exact = decimalOf(taxRate);
  return taxRate > 1 ? percentToFraction(exact) : exact;
}

/**
 * The id a line links to and the field it came from. The legacy productId stands in for
 * linkedItemId only on product lines that have none.
 */
function readLinkId(reader: RecordReader, checks: CallChecks, lineType: BridgeLineType | undefined) {
  const linkedItemId = reader.optionalString('linkedItemId');
  const productId = reader.optionalString('productId');
  if (linkedItemId === undefined || productId === undefined) return undefined;
  if (productId === null) return { id: linkedItemId, field: 'linkedItemId' };
  checks.warn('DEPRECATED', reader.at('productId'), "is deprecated; send the product's GUID as linkedItemId with lineType 'product'");
  if (lineType === 'product' && linkedItemId === null) return { id: productId, field: 'productId' };
  const why = linkedItemId !== null ? 'linkedItemId is also set' : `lineType is '${lineType}'`;
  checks.warn('FIELD_IGNORED', reader.at('productId'), `is ignored because ${why}`);
  return { id: linkedItemId, field: 'linkedItemId' };
}

function resolveLink(
  link: { id: string | null; field: string },
  lineType: BridgeLineType,
  reader: RecordReader,
  checks: CallChecks,
  context: BatchContext,
): LinkedItem | null | undefined {
  if (link.id === null) return null;
  const found = lookUpLinkedItem(context.data, context.tenantId, lineType, link.id);
  if (found.status === 'found') return found.item;
  if (found.status === 'inactive') {
    checks.problem('LINKED_ITEM_INACTIVE', reader.at(link.field), `points to an inactive ${found.label} (${link.id})`);
  } else {
    const hint =
      found.otherLineType !== null
        ? `; that id belongs to lineType '${found.otherLineType}'`
        : link.id.trim() === ''
          ? '; leave the field out or send null when there is nothing to link'
          : '';
    checks.problem('LINKED_ITEM_NOT_FOUND', reader.at(link.field), `matches no ${found.label} of this tenant (${describeValue(link.id)})${hint}`);
  }
  return undefined;
}

function readSection(reader: RecordReader, checks: CallChecks): { key: SectionKey | null; notes: string | null } | undefined {
  const name = reader.optionalString('section');
  const notes = readNotes(reader, checks, 'sectionNotes');
  const summaryOnly = readSummaryOnly(reader, checks);
  if (name === undefined || notes === undefined) return undefined;
  const normalised = name === null ? '' : normaliseSectionName(name, reader, checks, 'section');
  if (normalised === '') {
    // No section: the line prints under Ungrouped, where neither collapsing nor notes apply.
    if (summaryOnly) checks.warn('FIELD_IGNORED', reader.at('summaryOnly'), 'has no effect on a line without a section');
    if (notes !== null) checks.warn('FIELD_IGNORED', reader.at('sectionNotes'), 'have no effect on a line without a section');
    return { key: null, notes: null };
  }
  return { key: { name: normalised, summaryOnly }, notes };
}

/** Task lines a product's task sequence injects after it: qty 1, prices from the fixture. */
function injectTasks(product: LinkedItem, taxRate: Decimal, context: BatchContext): LineDraft[] {
  const self = resolveSupplier(context.data, context.tenantId, null).supplier;
  const tasks: LineDraft[] = [];
  for (const step of product.taskSequence) {
    const template = context.data.taskTemplates.find((t) => t.tenantId === context.tenantId && t.code === step.code && t.active);
    if (template === undefined) continue; // retired templates are no longer injected
    tasks.push({
      line: {
        lineType: 'task',
        linkedItemId: template.id,
        linkedCode: template.code,
        description: template.name,
        workObjectCode: template.code,
        qty: 1,
        unit: 'T_ITEM',
        unitPrice: step.unitPrice,
        costPrice: step.costPrice,
        discountPercent: 0,
        taxRate: decimalToNumber(taxRate),
        freeTextField1: null,
        freeTextField2: null,
        freeTextField3: null,
        freeTextField4: null,
        supplierRef: self.reference,
        supplierName: self.name,
      },
      ...computeLineAmounts({ unitPrice: step.unitPrice, qty: 1, discountPercent: 0, taxRate }),
      // Group and section follow the product line when the tasks are merged.
      groupKey: null,
      section: null,
      sectionNotes: null,
      injectedTasks: [],
    });
  }
  return tasks;
}

function readLine(raw: unknown, index: number, checks: CallChecks, context: BatchContext): LineDraft | undefined {
  if (!isRecord(raw)) {
    checks.problem('INVALID_TYPE', { path: `lines[${index}]`, index, field: null }, `must be an add-line object, got ${describeValue(raw)}`);
    return undefined;
  }
  const reader = new RecordReader(raw, checks, 'lines', index);
  reader.warnUnknownFields(ADD_LINE_FIELDS);
  const before = checks.problems.length;

  const qty = reader.requiredNumber('qty', { min: 0, minExclusive: true });
  const unitPrice = reader.requiredNumber('unitPrice', { min: 0 });
  const costPrice = reader.optionalNumber('costPrice', { min: 0 });
  const rawTaxRate = reader.requiredNumber('taxRate', { min: 0 });
  const discountPercent = reader.optionalNumber('discountPercent', { min: 0, max: 100 });
  const texts = {
    description: reader.optionalString('description'),
    productCode: reader.optionalString('productCode'),
    specification: reader.optionalString('specification'),
    location: reader.optionalString('location'),
    freeTextField3: reader.optionalString('freeTextField3'),
    freeTextField4: reader.optionalString('freeTextField4'),
    groupKey: reader.optionalString('groupKey'),
    supplierRef: reader.optionalString('supplierRef'),
  };
  const unit = reader.optionalToken('unit', UNITS, 'T_ITEM', 'UNKNOWN_UNIT');
  const lineType = reader.optionalToken('lineType', LINE_TYPES, 'product', 'UNKNOWN_LINE_TYPE');
  if (lineType === 'cost') checks.warn('DEPRECATED', reader.at('lineType'), "'cost' is deprecated; use 'jobcost' with a job cost template");
  const link = readLinkId(reader, checks, lineType);
  const section = readSection(reader, checks);
  const linked = lineType !== undefined && link !== undefined ? resolveLink(link, lineType, reader, checks, context) : undefined;

  // Each reader records a problem whenever it returns undefined, so the count alone decides; the
  // explicit checks only tell the compiler what that means.
  const failed = checks.problems.length > before;
  if (failed || qty === undefined || unitPrice === undefined || rawTaxRate === undefined || unit === undefined || lineType === undefined || section === undefined) {
    return undefined;
  }
  const taxRate = normaliseTaxRate(rawTaxRate, reader, checks);
  const supplier = resolveSupplier(context.data, context.tenantId, texts.supplierRef ?? null);
  if (supplier.fallbackReason !== null) {
    checks.warn('SUPPLIER_NOT_RESOLVED', reader.at('supplierRef'), `${describeValue(texts.supplierRef)} fell back to the Self supplier: ${supplier.fallbackReason}`);
  }
  if (lineType === 'product' && linked === null && texts.productCode) {
    const sku = texts.productCode.toUpperCase();
    const known = context.data.products.some((p) => p.tenantId === context.tenantId && p.sku.toUpperCase() === sku);
    if (known) {
      checks.warn('PRODUCT_CODE_NOT_LINKED', reader.at('productCode'), `names a product of the catalogue but the line sends no linkedItemId, so it stays free text without task injection`);
    }
  }

  const line: QuoteLineData = {
    lineType,
    linkedItemId: linked?.id ?? null,
    linkedCode: linked?.code ?? null,
    description: texts.description ?? linked?.name ?? texts.productCode ?? '',
    workObjectCode: texts.productCode ?? linked?.code ?? null,
    qty,
    unit,
    unitPrice,
    costPrice: costPrice ?? unitPrice,
    discountPercent: discountPercent ?? 0,
    taxRate: decimalToNumber(taxRate),
    freeTextField1: texts.specification ?? null,
    freeTextField2: texts.location ?? null,
    freeTextField3: texts.freeTextField3 ?? null,
    freeTextField4: texts.freeTextField4 ?? null,
    supplierRef: supplier.supplier.reference,
    supplierName: supplier.supplier.name,
  };
  const amounts = computeLineAmounts({ unitPrice, qty, discountPercent: discountPercent ?? 0, taxRate });
  if (amounts.nettCents + amounts.taxCents > MAX_SAFE_CENTS) {
    checks.problem('OUT_OF_RANGE', reader.at(null), 'the line total is too large to be represented exactly');
    return undefined;
  }
  return {
    line,
    ...amounts,
    groupKey: texts.groupKey === '' ? null : (texts.groupKey ?? null),
    section: section.key,
    sectionNotes: section.notes,
    injectedTasks: lineType === 'product' && linked ? injectTasks(linked, taxRate, context) : [],
  };
}

function readSectionDeclaration(raw: unknown, index: number, checks: CallChecks): SectionDraft | undefined {
  if (!isRecord(raw)) {
    checks.problem('INVALID_TYPE', { path: `sections[${index}]`, index, field: null }, `must be a section object, got ${describeValue(raw)}`);
    return undefined;
  }
  const reader = new RecordReader(raw, checks, 'sections', index);
  reader.warnUnknownFields(SECTION_FIELDS);
  const rawName = reader.optionalString('name');
  const notes = readNotes(reader, checks, 'notes');
  const summaryOnly = readSummaryOnly(reader, checks);
  if (rawName === undefined) return undefined;
  // The name is checked even when the notes are wrong, so that the error lists both problems.
  const name = rawName === null ? '' : normaliseSectionName(rawName, reader, checks, 'name');
  if (name === '') {
    checks.problem('BLANK_SECTION_NAME', reader.at('name'), `is ${describeValue(rawName)}; a declared section needs a name`);
    return undefined;
  }
  if (notes === undefined) return undefined;
  return { key: { name, summaryOnly }, notes };
}

export interface AddLinesBatch {
  lines: LineDraft[];
  sections: SectionDraft[];
}

const BATCH_LIMITS = { max: MAX_LINES_PER_BATCH, maxRule: `the emulator takes at most ${MAX_LINES_PER_BATCH} per call` };

function readSections(value: unknown, checks: CallChecks): SectionDraft[] {
  const place = { path: 'sections', index: null, field: null };
  return readList(value, place, checks, BATCH_LIMITS, (raw, index) => readSectionDeclaration(raw, index, checks)) ?? [];
}

/**
 * The lines and declared sections of one quotes.addLines call. `sectionsAllowed` is false on
 * hosts older than 2.5.0, which ignore the `sections` option.
 */
export function readAddLinesCall(lines: unknown, options: unknown, sectionsAllowed: boolean, checks: CallChecks, context: BatchContext): AddLinesBatch {
  const place = { path: 'lines', index: null, field: null };
  const drafts = readList(lines, place, checks, BATCH_LIMITS, (raw, index) => readLine(raw, index, checks, context)) ?? [];
  let sections: SectionDraft[] = [];
  if (options !== undefined && options !== null) {
    if (!isRecord(options)) {
      checks.problem('INVALID_TYPE', { path: 'options', index: null, field: null }, `must be an object, got ${describeValue(options)}`);
    } else {
      const reader = new RecordReader(options, checks);
      reader.warnUnknownFields(['sections']);
      if (reader.has('sections') && !sectionsAllowed) {
        checks.warn('OPTION_NOT_AVAILABLE', reader.at('sections'), 'arrived in SDK 2.5.0; this host is older and ignores it');
      } else if (reader.has('sections')) {
        sections = readSections(reader.raw('sections'), checks);
      }
    }
  }
  return { lines: drafts, sections };
}

/** The declared sections of one quotes.addSections call. */
export function readAddSectionsCall(sections: unknown, checks: CallChecks): AddLinesBatch {
  return { lines: [], sections: readSections(sections, checks) };
}
