import type { BridgeAddLineDto, BridgeProblem, BridgeProductDto, BridgeSectionDto, BridgeUnit, PipelineSdk } from 'pipeline-tool/bridge';
import { JOB_COST_CODE, SKU, TASK_CODE, type Catalogue } from './catalogue';

/*
 * The kitchen as quote lines and sections. Pure: the same kitchen and catalogue always give the
 * same lines, which makes it the part worth testing on its own.
 */

/** Tax as a fraction. quotes.addLines would also read 15 as 15%, but a fraction is unambiguous. */
const TAX_RATE = 0.15;
/** Benchtops are priced per square metre from their length and this depth. */
const BENCHTOP_DEPTH_METRES = 0.65;
/** Laminate benchtops come in 3 m lengths. */
const LAMINATE_LENGTH_METRES = 3;
/** Zone label stored on every line (its second free-text field). */
const LOCATION = 'Kitchen';

/** The tool's own prices for work and costs; products take their price from the catalogue. */
const RATES = {
  stripOutPerCabinet: 38,
  disposal: { cost: 180, sell: 235 },
  checkMeasure: { cost: 90, sell: 150 },
};

/**
 * Sections the lines are grouped in. Site work is summaryOnly: the customer sees one row with its
 * total, while the editor and job costing still see every line.
 */
const SECTIONS = {
  cabinetry: { name: 'Cabinetry', summaryOnly: false, notes: 'Soft-close hinges and drawer runners throughout.' },
  benchtop: { name: 'Benchtop', summaryOnly: false, notes: 'Priced from the length given; the check measure confirms it.' },
  siteWork: { name: 'Site work', summaryOnly: true, notes: 'Removal and disposal of the old kitchen, and a check measure visit.' },
};

/** Notes without lines, declared through the `sections` option (SDK 2.5.0 and later): the quote prints its name and notes, no total. */
const TERMS_SECTION: BridgeSectionDto = {
  name: 'Terms',
  notes: 'A 40% deposit confirms the order; the balance is due on installation.\nThis estimate is valid for 30 days.',
};

/** The form as typed. */
export interface KitchenForm {
  baseCabinets: string;
  wallCabinets: string;
  handles: boolean;
  benchtop: 'stone' | 'laminate' | 'none';
  benchtopMetres: string;
  stripOut: boolean;
  checkMeasure: boolean;
}

export const DEFAULT_KITCHEN: KitchenForm = {
  baseCabinets: '6',
  wallCabinets: '4',
  handles: true,
  benchtop: 'stone',
  benchtopMetres: '4.2',
  stripOut: true,
  checkMeasure: true,
};

/** What the host can take. */
export interface Host {
  /** The `sections` option of addLines exists (SDK 2.5.0). */
  declaresSections: boolean;
}

export function hostOf(bridge: PipelineSdk): Host {
  return { declaresSections: sdkAtLeast(bridge.version, '2.5.0') && typeof bridge.quotes.addSections === 'function' };
}

export interface Estimate {
  lines: BridgeAddLineDto[];
  /** Declared sections without lines. */
  sections: BridgeSectionDto[];
  notices: string[];
}

/**
 * Products that have a task sequence in Pipeline (installation, for cabinets) bring their task
 * lines with them when sent with their id, so the estimate adds no installation lines itself.
 */
export function buildEstimate(form: KitchenForm, catalogue: Catalogue, host: Host): Estimate {
  const notices = [...catalogue.notices];
  const baseCabinets = wholeNumber(form.baseCabinets, 40);
  const wallCabinets = wholeNumber(form.wallCabinets, 40);
  const cabinets = baseCabinets + wallCabinets;
  const metres = round2(Math.min(30, Math.max(0, Number(form.benchtopMetres) || 0)));

  const cabinetry = inSection(SECTIONS.cabinetry, [
    productLine(catalogue, SKU.baseCabinet, baseCabinets),
    productLine(catalogue, SKU.wallCabinet, wallCabinets),
    form.handles ? productLine(catalogue, SKU.handle, cabinets) : null,
  ]);
  const benchtop = inSection(SECTIONS.benchtop, [
    form.benchtop === 'stone'
      ? productLine(catalogue, SKU.stoneBenchtop, round2(metres * BENCHTOP_DEPTH_METRES), { specification: `${metres} m long, ${BENCHTOP_DEPTH_METRES} m deep` })
      : null,
    form.benchtop === 'laminate'
      ? productLine(catalogue, SKU.laminateBenchtop, Math.ceil(metres / LAMINATE_LENGTH_METRES), { specification: `${metres} m in ${LAMINATE_LENGTH_METRES} m lengths` })
      : null,
  ]);
  const siteWork = inSection(SECTIONS.siteWork, [
    form.stripOut && cabinets > 0 ? taskLine(catalogue, TASK_CODE.stripOut, 'Strip out the old kitchen', cabinets, RATES.stripOutPerCabinet) : null,
    form.stripOut ? jobCostLine(catalogue, JOB_COST_CODE.disposal, 'Waste disposal', RATES.disposal) : null,
    form.checkMeasure ? jobCostLine(catalogue, JOB_COST_CODE.checkMeasure, 'Check measure visit', RATES.checkMeasure) : null,
  ]);

  const sections: BridgeSectionDto[] = [];
  if (host.declaresSections) sections.push(TERMS_SECTION);
  else notices.push(`This host's SDK is older than 2.5.0, so the "${TERMS_SECTION.name}" section (notes without lines) is left out.`);
  return { lines: [...cabinetry, ...benchtop, ...siteWork], sections, notices };
}

/**
 * quotes.addLines merges the lines into the open quote without saving it; the user saves as
 * usual. The batch is all or nothing: on a rejection nothing was added.
 */
export async function addToQuote(bridge: PipelineSdk, estimate: Estimate): Promise<void> {
  if (estimate.sections.length > 0) await bridge.quotes.addLines(estimate.lines, { sections: estimate.sections });
  else await bridge.quotes.addLines(estimate.lines);
}

/** The line a problem of a rejected batch is about; sections are reported as `sections[i]`, and belong to no line. */
export function lineIndexOf(problem: BridgeProblem): number | null {
  if (problem.path.startsWith('sections')) return null;
  const match = /^(?:lines)?\[(\d+)\]/.exec(problem.path);
  if (match) return Number(match[1]);
  return Number.isInteger(problem.index) ? problem.index : null;
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A product line, linked to the catalogue's product when its SKU is known. Quantities of 0 give no line: the host requires qty above 0. */
function productLine(catalogue: Catalogue, sku: string, qty: number, extra: Partial<BridgeAddLineDto> = {}): BridgeAddLineDto | null {
  if (!(qty > 0)) return null;
  const product = catalogue.products.get(sku.toUpperCase());
  return {
    lineType: 'product',
    productCode: sku,
    linkedItemId: product ? product.id : null,
    description: product ? product.name : sku,
    qty,
    unitPrice: product ? product.price : 0,
    taxRate: TAX_RATE,
    unit: unitOf(product),
    location: LOCATION,
    ...extra,
  };
}

/** A priced task line linked to its template; without the template it becomes a plain line. */
function taskLine(catalogue: Catalogue, code: string, description: string, qty: number, unitPrice: number): BridgeAddLineDto {
  const id = catalogue.tasks.get(code.toUpperCase());
  return { ...(id ? { lineType: 'task' as const, linkedItemId: id } : {}), productCode: code, description, qty, unitPrice, taxRate: TAX_RATE, location: LOCATION };
}

/**
 * A job cost line. Linked to its template, the template decides the cost code and ledger routing
 * while our prices still apply; without one it is an ad-hoc cost, which is also valid.
 */
function jobCostLine(catalogue: Catalogue, code: string, description: string, price: { cost: number; sell: number }): BridgeAddLineDto {
  return {
    lineType: 'jobcost',
    linkedItemId: catalogue.jobCosts.get(code.toUpperCase()) ?? null,
    productCode: code,
    description,
    qty: 1,
    costPrice: price.cost,
    unitPrice: price.sell,
    taxRate: TAX_RATE,
    location: LOCATION,
  };
}

/**
 * Puts lines in a section. The notes ride on the first line: the host keeps the first notes it
 * sees for a section, and this works on hosts without the `sections` option too.
 */
function inSection(section: { name: string; summaryOnly: boolean; notes: string }, lines: (BridgeAddLineDto | null)[]): BridgeAddLineDto[] {
  return lines
    .filter((line): line is BridgeAddLineDto => line !== null)
    .map((line, index) => ({ ...line, section: section.name, summaryOnly: section.summaryOnly, ...(index === 0 ? { sectionNotes: section.notes } : {}) }));
}

/** True when the host's SDK version (`window.pipeline.version`) is at least `wanted`. */
function sdkAtLeast(version: string, wanted: string): boolean {
  const have = String(version).split('.').map(Number);
  const want = wanted.split('.').map(Number);
  for (let i = 0; i < want.length; i++) {
    const a = have[i] ?? 0;
    const b = want[i] ?? 0;
    if (Number.isNaN(a)) return false;
    if (a !== b) return a > b;
  }
  return true;
}

/** The catalogue's unit when the bridge accepts it on a line; otherwise the host's default. */
function unitOf(product: BridgeProductDto | undefined): BridgeUnit | null {
  const units: BridgeUnit[] = ['T_ITEM', 'T_SQUARE_METRE', 'T_LINEAR_METRE'];
  return units.find((unit) => unit === product?.unit) ?? null;
}

function wholeNumber(text: string, max: number): number {
  const value = Number(text);
  return text.trim() !== '' && Number.isFinite(value) ? Math.min(max, Math.max(0, Math.floor(value))) : 0;
}
