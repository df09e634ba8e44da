import type { BridgeCodeListOptions, BridgeProductDto, PipelineSdk } from 'pipeline-tool/bridge';

/*
 * The platform's recommended pattern: fetch the product catalogue in one large page and map each
 * uppercased SKU to its product, and resolve task and job cost templates by their codes, because
 * SKUs and codes are the same in every environment and GUIDs are not.
 */

// What this estimator sells. Adapt these to your catalogue: they exist in pipeline-tool dev's sample data.
export const SKU = {
  baseCabinet: 'CAB-BASE-600',
  wallCabinet: 'CAB-WALL-600',
  handle: 'HANDLE-BAR-160',
  stoneBenchtop: 'BENCH-STONE-20',
  laminateBenchtop: 'BENCH-LAM-3000',
};
export const TASK_CODE = { stripOut: 'T_DEMOLITION' };
export const JOB_COST_CODE = { disposal: 'DISPOSAL', checkMeasure: 'CHECK-MEASURE' };

/** One page this size is expected to hold the whole catalogue; more pages are read if not. */
const PRODUCT_PAGE_SIZE = 1000;

export interface Catalogue {
  /** By uppercased SKU. */
  products: Map<string, BridgeProductDto>;
  /** Task template id by uppercased code. */
  tasks: Map<string, string>;
  /** Job cost template id by uppercased code. */
  jobCosts: Map<string, string>;
  /** What could not be resolved, for the user. */
  notices: string[];
}

export async function loadCatalogue(bridge: PipelineSdk): Promise<Catalogue> {
  const notices: string[] = [];
  const jobCostsAvailable = typeof bridge.jobCostTemplates?.list === 'function';
  if (!jobCostsAvailable) {
    notices.push(`This host runs SDK ${bridge.version}, which has no job cost templates (2.2.0 and later), so job costs are sent ad hoc.`);
  }
  const [products, tasks, jobCosts] = await Promise.all([
    loadProducts(bridge),
    idsByCode((options) => bridge.taskTemplates.list(options), Object.values(TASK_CODE)),
    jobCostsAvailable ? idsByCode((options) => bridge.jobCostTemplates.list(options), Object.values(JOB_COST_CODE)) : new Map<string, string>(),
  ]);
  for (const sku of Object.values(SKU)) {
    if (!products.has(sku)) notices.push(`SKU ${sku} is not in this catalogue: it is sent as free text at price 0; price it in the quote.`);
  }
  for (const code of Object.values(TASK_CODE)) {
    if (!tasks.has(code)) notices.push(`Task template ${code} was not found, so that work is sent as a plain line.`);
  }
  if (jobCostsAvailable) {
    for (const code of Object.values(JOB_COST_CODE)) {
      if (!jobCosts.has(code)) notices.push(`Job cost template ${code} was not found, so that cost is sent ad hoc.`);
    }
  }
  return { products, tasks, jobCosts, notices };
}

/** Every product, by uppercased SKU. One large page normally holds them all; if the host pages anyway, the rest are read too. */
async function loadProducts(bridge: PipelineSdk): Promise<Map<string, BridgeProductDto>> {
  const bySku = new Map<string, BridgeProductDto>();
  for (let page = 1; page <= 100; page++) {
    const result = await bridge.products.list({ page, pageSize: PRODUCT_PAGE_SIZE });
    for (const product of result.items) {
      const sku = product.sku.trim().toUpperCase();
      if (!bySku.has(sku)) bySku.set(sku, product);
    }
    if (result.items.length === 0 || page * result.pageSize >= result.totalCount) break;
  }
  return bySku;
}

/** Looks template codes up in one call: with `codes`, the host ignores paging and returns every active match. */
async function idsByCode(list: (options: BridgeCodeListOptions) => Promise<{ items: { id: string; code: string }[] }>, codes: string[]): Promise<Map<string, string>> {
  const result = await list({ codes });
  return new Map(result.items.map((row) => [row.code.toUpperCase(), row.id]));
}
