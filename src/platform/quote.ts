import type { BridgeLineType, BridgeUnit } from '../bridge/types.js';
import type { FixtureOpenQuote, QuoteTemplateSettings } from './fixtures.js';
import { centsToNumber, MAX_SAFE_CENTS, sumAmounts, type MoneyTotals } from './money.js';

/*
 * The quote open in the editor, which quoting extensions change through quotes.addLines and
 * quotes.addSections, and the two ways people see it: the operator's editor and the customer's
 * printed quote (platform-spec §2, Section rules 1–6). Everything here is plain data, so a dev
 * server can send views to a browser as they are.
 */

/** What a quote line holds, as the editor shows it. */
export interface QuoteLineData {
  lineType: BridgeLineType;
  /** The linked row's GUID; null for free-text product lines and ad-hoc job costs. */
  linkedItemId: string | null;
  /** SKU or code of the linked row. A template-linked job cost books to this cost code. */
  linkedCode: string | null;
  description: string;
  /** The line's work-object code: productCode as sent, else the linked row's SKU or code. */
  workObjectCode: string | null;
  qty: number;
  unit: BridgeUnit;
  /** Sell price per unit. */
  unitPrice: number;
  /** Buy price per unit. */
  costPrice: number;
  discountPercent: number;
  /** Always a fraction here: 0.15 for 15%. */
  taxRate: number;
  /** `specification` of the add-line record. */
  freeTextField1: string | null;
  /** `location` of the add-line record. */
  freeTextField2: string | null;
  freeTextField3: string | null;
  freeTextField4: string | null;
  supplierRef: string;
  supplierName: string;
}

/** Identity of a section: the same name with a different summaryOnly is another section. */
export interface SectionKey {
  name: string;
  summaryOnly: boolean;
}

/** A line checked and priced, waiting to be merged. */
export interface LineDraft {
  line: QuoteLineData;
  nettCents: bigint;
  taxCents: bigint;
  groupKey: string | null;
  section: SectionKey | null;
  /** Null when empty. */
  sectionNotes: string | null;
  /** Task lines the host injects right after this one (product lines with a task sequence). */
  injectedTasks: LineDraft[];
}

/** A declared section checked and waiting to be merged. */
export interface SectionDraft {
  key: SectionKey;
  /** Null when empty: empty notes never count as a section's notes (notes of spaces do). */
  notes: string | null;
}

interface StoredLine extends QuoteLineData {
  lineNumber: number;
  groupId: number;
  /** Line number of the product line that brought this task in, or null. */
  injectedFromLine: number | null;
  sectionId: number | null;
  nettCents: bigint;
  taxCents: bigint;
}

interface StoredSection extends SectionKey {
  id: number;
  notes: string | null;
}

export interface OpenQuoteHeader {
  id: string;
  ref: string;
  customerName: string;
  title: string | null;
}

/** The open quote. Treated as immutable: merging returns a new one, so a failed batch leaves no trace. */
export interface OpenQuote {
  readonly header: OpenQuoteHeader;
  readonly lines: readonly StoredLine[];
  /** In display order: sections created by lines as they appeared, declared ones after them. */
  readonly sections: readonly StoredSection[];
  /** Highest group id handed out so far. */
  readonly lastGroupId: number;
}

export function createOpenQuote(fixture: FixtureOpenQuote): OpenQuote {
  const header = { id: fixture.id, ref: fixture.ref, customerName: fixture.customerName, title: fixture.title ?? null };
  return { header, lines: [], sections: [], lastGroupId: 0 };
}

/**
 * Merges one call's lines and declared sections into the quote. Lines sharing a groupKey within
 * this call share a new group id; sections are found or created by (name, summaryOnly), and only
 * a section without notes takes notes (Section rules 1 and 6).
 */
export function mergeIntoQuote(quote: OpenQuote, lines: readonly LineDraft[], declared: readonly SectionDraft[]): OpenQuote {
  const sections = quote.sections.map((section) => ({ ...section }));
  const merged = [...quote.lines];
  const groupIds = new Map<string, number>();
  let lastGroupId = quote.lastGroupId;

  const sectionFor = (key: SectionKey, notes: string | null): StoredSection => {
    let section = sections.find((s) => s.name === key.name && s.summaryOnly === key.summaryOnly);
    if (section === undefined) {
      section = { id: sections.length + 1, ...key, notes: null };
      sections.push(section);
    }
    if (section.notes === null) section.notes = notes;
    return section;
  };
  const groupFor = (key: string | null): number => {
    if (key === null) return 0;
    let id = groupIds.get(key);
    if (id === undefined) {
      id = ++lastGroupId;
      groupIds.set(key, id);
    }
    return id;
  };
  const append = (draft: LineDraft, groupId: number, sectionId: number | null, injectedFromLine: number | null): number => {
    const lineNumber = merged.length + 1;
    merged.push({ lineNumber, ...draft.line, groupId, injectedFromLine, sectionId, nettCents: draft.nettCents, taxCents: draft.taxCents });
    return lineNumber;
  };

  for (const draft of lines) {
    const sectionId = draft.section === null ? null : sectionFor(draft.section, draft.sectionNotes).id;
    const groupId = groupFor(draft.groupKey);
    const lineNumber = append(draft, groupId, sectionId, null);
    for (const task of draft.injectedTasks) append(task, groupId, sectionId, lineNumber);
  }
  for (const section of declared) sectionFor(section.key, section.notes);
  return { header: quote.header, lines: merged, sections, lastGroupId };
}

/** True when the quote's totals still fit the exact range of a JavaScript number. */
export function hasSafeTotals(quote: OpenQuote): boolean {
  let nett = 0n;
  let tax = 0n;
  for (const line of quote.lines) {
    nett += line.nettCents;
    tax += line.taxCents;
  }
  return nett + tax <= MAX_SAFE_CENTS;
}

// ---------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------

export interface EditorLine extends QuoteLineData {
  /** Position in the quote, from 1, in the order lines were added. */
  lineNumber: number;
  /** 0 for no group; lines sharing a groupKey in one call share an id. */
  groupId: number;
  injectedFromLine: number | null;
  /** sell × qty × (1 − discount), rounded to cents. */
  nett: number;
  tax: number;
  total: number;
}

export interface ViewSection {
  id: number;
  name: string;
  summaryOnly: boolean;
  /** Plain text; escape it before putting it into HTML. */
  notes: string | null;
}

export interface EditorBlock {
  /** The section, or null for the trailing Ungrouped block. */
  section: ViewSection | null;
  lines: EditorLine[];
  totals: MoneyTotals;
}

/** The operator's editor: every line, by section, Ungrouped last. */
export interface EditorView {
  quote: OpenQuoteHeader;
  /** Every section (declared empty ones too), then Ungrouped when some line has no section. */
  blocks: EditorBlock[];
  totals: MoneyTotals;
}

function toEditorLine(line: StoredLine): EditorLine {
  const { sectionId: _section, nettCents, taxCents, ...data } = line;
  return { ...data, nett: centsToNumber(nettCents), tax: centsToNumber(taxCents), total: centsToNumber(nettCents + taxCents) };
}

function toViewSection(section: StoredSection): ViewSection {
  return { id: section.id, name: section.name, summaryOnly: section.summaryOnly, notes: section.notes };
}

/** The quote's lines by section, in display order; section null is Ungrouped, present only with lines. */
function groupLines(quote: OpenQuote): { section: StoredSection | null; lines: StoredLine[] }[] {
  const groups = quote.sections.map((section) => ({ section, lines: quote.lines.filter((l) => l.sectionId === section.id) }));
  const ungrouped = quote.lines.filter((l) => l.sectionId === null);
  return ungrouped.length > 0 ? [...groups, { section: null, lines: ungrouped }] : groups;
}

export function buildEditorView(quote: OpenQuote): EditorView {
  return {
    quote: { ...quote.header },
    blocks: groupLines(quote).map(({ section, lines }) => ({
      section: section === null ? null : toViewSection(section),
      lines: lines.map(toEditorLine),
      totals: sumAmounts(lines),
    })),
    totals: sumAmounts(quote.lines),
  };
}

export interface PreviewLine {
  description: string;
  qty: number;
  unit: BridgeUnit;
  /** Null when the tenant's quote template hides unit prices. */
  unitPrice: number | null;
  discountPercent: number;
  nett: number;
}

/** How a part of the quote prints for the customer. */
export type PreviewBlock =
  /** A section printed line by line; subtotal is null when the template hides subtotals. */
  | { kind: 'section'; name: string; notes: string | null; lines: PreviewLine[]; subtotal: number | null }
  /** A summaryOnly section: one row with its name and total, always, whatever the template says. */
  | { kind: 'summary'; name: string; notes: string | null; total: number }
  /** A declared section with notes and no lines: name and notes, no totals. */
  | { kind: 'notes'; name: string; notes: string }
  /** Lines without a section, printed last. */
  | { kind: 'ungrouped'; name: 'Ungrouped'; lines: PreviewLine[]; subtotal: number | null };

/** The quote as the customer sees it. Section amounts are nett; tax is added in the totals. */
export interface CustomerPreview {
  quote: OpenQuoteHeader;
  template: QuoteTemplateSettings;
  blocks: PreviewBlock[];
  /** The same as the editor's: collapsing sections never changes them. */
  totals: MoneyTotals;
}

export function buildCustomerPreview(quote: OpenQuote, template: QuoteTemplateSettings): CustomerPreview {
  const printLine = (line: StoredLine): PreviewLine => ({
    description: line.description,
    qty: line.qty,
    unit: line.unit,
    unitPrice: template.showUnitPrices ? line.unitPrice : null,
    discountPercent: line.discountPercent,
    nett: centsToNumber(line.nettCents),
  });
  const subtotalOf = (lines: StoredLine[]) => (template.showSubtotals ? sumAmounts(lines).nett : null);

  const blocks: PreviewBlock[] = [];
  for (const { section, lines } of groupLines(quote)) {
    if (section === null) {
      blocks.push({ kind: 'ungrouped', name: 'Ungrouped', lines: lines.map(printLine), subtotal: subtotalOf(lines) });
    } else if (lines.length === 0) {
      // Section rule 5: a declared section prints only when it has notes to show.
      if (section.notes !== null) blocks.push({ kind: 'notes', name: section.name, notes: section.notes });
    } else if (section.summaryOnly) {
      blocks.push({ kind: 'summary', name: section.name, notes: section.notes, total: sumAmounts(lines).nett });
    } else {
      blocks.push({ kind: 'section', name: section.name, notes: section.notes, lines: lines.map(printLine), subtotal: subtotalOf(lines) });
    }
  }
  return { quote: { ...quote.header }, template: { ...template }, blocks, totals: sumAmounts(quote.lines) };
}
