import type { BridgeLineType, BridgeQuoteDto } from '../bridge/types.js';
import type {
  FixtureCostItem,
  FixtureCustomer,
  FixtureJob,
  FixtureJobCostTemplate,
  FixtureProduct,
  FixtureQuoteLine,
  FixtureSupplier,
  FixtureTaskTemplate,
  Fixtures,
} from './fixtures.js';

/*
 * The host's tables, with every row's tenant and active flag filled in, and the lookups the
 * bridge methods share: rows of the current tenant, linked items by line type, suppliers.
 */

type Owned<T> = Omit<T, 'tenantId' | 'active'> & { tenantId: string };
type Switchable<T> = Owned<T> & { active: boolean };

export interface TaskStep {
  code: string;
  unitPrice: number;
  /** Buy price of the injected task line; its sell price when the fixture gives none. */
  costPrice: number;
}

export type CustomerRow = Owned<FixtureCustomer>;
export type ProductRow = Omit<Owned<FixtureProduct>, 'taskSequence'> & { taskSequence: TaskStep[] };
export type TaskTemplateRow = Switchable<FixtureTaskTemplate>;
export type CostItemRow = Switchable<FixtureCostItem>;
export type JobCostTemplateRow = Switchable<FixtureJobCostTemplate>;
export type SupplierRow = Switchable<FixtureSupplier>;
export type JobRow = Switchable<FixtureJob>;
export type QuoteRow = BridgeQuoteDto & { tenantId: string; lines?: FixtureQuoteLine[] };

export interface TenantData {
  customers: CustomerRow[];
  products: ProductRow[];
  taskTemplates: TaskTemplateRow[];
  costItems: CostItemRow[];
  jobCostTemplates: JobCostTemplateRow[];
  suppliers: SupplierRow[];
  jobs: JobRow[];
  quotes: QuoteRow[];
}

export const SELF_SUPPLIER_REF = 'T_SELF';

/**
 * The fixtures as host tables. Rows are copied, so that what the host adds (customers, quotes)
 * never writes back into the caller's fixture objects.
 */
export function createTenantData(fixtures: Fixtures): TenantData {
  const home = fixtures.context.tenantId;
  const own = <T extends { tenantId?: string }>(row: T) => ({ ...row, tenantId: row.tenantId ?? home });
  const switchable = <T extends { tenantId?: string; active?: boolean }>(row: T) => ({ ...own(row), active: row.active ?? true });
  return {
    customers: fixtures.customers.map(own),
    products: fixtures.products.map(({ taskSequence = [], ...product }) => ({
      ...own(product),
      taskSequence: taskSequence.map((step) => {
        if (typeof step === 'string') return { code: step, unitPrice: 0, costPrice: 0 };
        const unitPrice = step.unitPrice ?? 0;
        return { code: step.code, unitPrice, costPrice: step.costPrice ?? unitPrice };
      }),
    })),
    taskTemplates: fixtures.taskTemplates.map(switchable),
    costItems: fixtures.costItems.map(switchable),
    jobCostTemplates: fixtures.jobCostTemplates.map(switchable),
    suppliers: fixtures.suppliers.map(switchable),
    jobs: fixtures.jobs.map(switchable),
    quotes: fixtures.quotes.map(own),
  };
}

export function sameId(a: string, b: string): boolean {
  // GUIDs compare without regard to case, as the platform parses them.
  return a.toLowerCase() === b.toLowerCase();
}

/** The table a line type's linkedItemId points into, and how to name its rows in messages. */
const LINKED_TABLES = {
  product: { table: 'products', label: 'product' },
  task: { table: 'taskTemplates', label: 'task template' },
  cost: { table: 'costItems', label: 'cost item' },
  jobcost: { table: 'jobCostTemplates', label: 'job cost template' },
} as const satisfies Record<BridgeLineType, { table: keyof TenantData; label: string }>;

/** The row a line links to, with the code or SKU that identifies it. */
export interface LinkedItem {
  id: string;
  /** SKU of a product, code of a template or cost item. */
  code: string;
  name: string;
  /** Task sequence, for products. */
  taskSequence: TaskStep[];
}

export type LinkLookup =
  | { status: 'found'; item: LinkedItem }
  | { status: 'inactive'; label: string }
  | { status: 'missing'; label: string; /** Line type whose table does hold the id, for a hint. */ otherLineType: BridgeLineType | null };

type LinkableRow = ProductRow | TaskTemplateRow | CostItemRow | JobCostTemplateRow;

function findRow(data: TenantData, tenantId: string, lineType: BridgeLineType, id: string): LinkableRow | undefined {
  const rows: readonly LinkableRow[] = data[LINKED_TABLES[lineType].table];
  return rows.find((row) => row.tenantId === tenantId && sameId(row.id, id));
}

/** Resolves a linkedItemId against the table of its line type, among the tenant's rows. */
export function lookUpLinkedItem(data: TenantData, tenantId: string, lineType: BridgeLineType, id: string): LinkLookup {
  const { label } = LINKED_TABLES[lineType];
  const row = findRow(data, tenantId, lineType, id);
  if (row === undefined) {
    const lineTypes = Object.keys(LINKED_TABLES) as BridgeLineType[];
    const otherLineType = lineTypes.find((other) => other !== lineType && findRow(data, tenantId, other, id) !== undefined) ?? null;
    return { status: 'missing', label, otherLineType };
  }
  if ('sku' in row) return { status: 'found', item: { id: row.id, code: row.sku, name: row.name, taskSequence: row.taskSequence } };
  if (!row.active) return { status: 'inactive', label };
  return { status: 'found', item: { id: row.id, code: row.code, name: row.name, taskSequence: [] } };
}

export interface SupplierResolution {
  supplier: SupplierRow;
  /** Why a non-blank supplierRef fell back to Self, or null when it resolved (or was blank). */
  fallbackReason: string | null;
}

/**
 * Finds the supplier a line names, by one rule for quotes.create, quotes.addLines and the lines of
 * a fixture quote: its reference first, then its name, among the tenant's active suppliers,
 * ignoring letter case. The spec says "case-insensitively" for addLines and describes
 * quotes.create's supplierRef in the same words otherwise; the platform resolves both through one
 * lookup, so the emulator does too. Anything else falls back to the Self supplier.
 */
export function resolveSupplier(data: TenantData, tenantId: string, supplierRef: string | null): SupplierResolution {
  const suppliers = data.suppliers.filter((s) => s.tenantId === tenantId);
  // Every line needs a supplier to fall back to, so a tenant without a Self row still has one.
  const self = suppliers.find((s) => s.reference === SELF_SUPPLIER_REF) ?? {
    id: '',
    reference: SELF_SUPPLIER_REF,
    name: 'Self',
    tenantId,
    active: true,
  };
  if (supplierRef === null || supplierRef.trim() === '') return { supplier: self, fallbackReason: null };
  const wanted = supplierRef.toLowerCase();
  const matches = (s: SupplierRow, key: 'reference' | 'name') => s[key].toLowerCase() === wanted;
  const active = suppliers.filter((s) => s.active);
  const found = active.find((s) => matches(s, 'reference')) ?? active.find((s) => matches(s, 'name'));
  if (found) return { supplier: found, fallbackReason: null };
  const inactive = suppliers.find((s) => !s.active && (matches(s, 'reference') || matches(s, 'name')));
  const fallbackReason = inactive ? `supplier "${inactive.name}" is inactive` : 'no active supplier has that reference or name';
  return { supplier: self, fallbackReason };
}
