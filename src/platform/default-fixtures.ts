import type { FixtureProduct, FixtureQuoteLine, Fixtures } from './fixtures.js';

/*
 * The data set `pipeline-tool dev` starts with: a kitchen and joinery business in New Zealand.
 * It is deliberately uneven, so that tools meet every rule: inactive rows, rows of another
 * tenant, products with and without task sequences, job cost templates listed out of code order,
 * an inactive supplier, closed jobs. Tests rely on these rows; change them with care.
 *
 * GUIDs are readable on purpose: the first digit names the table (1 customers, 2 products,
 * 3 task templates, 4 cost items, 5 job cost templates, 6 suppliers, 7 jobs, 8 quotes, 9 the
 * open quote, e tenants) and the last digits count rows.
 */

function guid(table: string, row: number): string {
  return `${table}0000000-0000-4000-8000-${String(row).padStart(12, '0')}`;
}

export const DEFAULT_TENANT_ID = guid('e', 1);
/** A second tenant whose rows must never show up for the default one. */
export const OTHER_TENANT_ID = guid('e', 2);

/** The REST API key of the built-in data: every endpoint, the default rate limit. */
export const DEFAULT_API_KEY = 'kck_dev_2f6c1e0b9a7d4e58';

/** The catalogue, first digit 2; the built-in quotes sell from it. */
const PRODUCTS: FixtureProduct[] = [
  {
    id: guid('2', 1),
    sku: 'CAB-BASE-600',
    name: 'Base cabinet 600 mm',
    price: 365.5,
    unit: 'T_ITEM',
    taskSequence: ['T_DEFAULT_INSTALLATION_TASK'],
  },
  {
    id: guid('2', 2),
    sku: 'CAB-WALL-600',
    name: 'Wall cabinet 600 mm',
    price: 298,
    unit: 'T_ITEM',
    taskSequence: ['T_DEFAULT_INSTALLATION_TASK'],
  },
  { id: guid('2', 3), sku: 'BENCH-LAM-3000', name: 'Laminate benchtop 3000 mm', price: 489, unit: 'T_ITEM' },
  {
    id: guid('2', 4),
    sku: 'BENCH-STONE-20',
    name: 'Engineered stone benchtop 20 mm',
    price: 620,
    unit: 'T_SQUARE_METRE',
    taskSequence: ['T_SITE_MEASURE', { code: 'T_DEFAULT_INSTALLATION_TASK', unitPrice: 180, costPrice: 120 }],
  },
  {
    id: guid('2', 5),
    sku: 'TILE-SUBWAY-75',
    name: 'Subway wall tile 75 × 150',
    price: 89.9,
    unit: 'T_SQUARE_METRE',
    taskSequence: ['T_TILING_PREP', { code: 'T_TILING', unitPrice: 55 }],
  },
  { id: guid('2', 6), sku: 'SKIRT-MDF-90', name: 'MDF skirting 90 mm', price: 12.45, unit: 'T_LINEAR_METRE' },
  { id: guid('2', 7), sku: 'HANDLE-BAR-160', name: 'Bar handle 160 mm, brushed nickel', price: 14.95, unit: 'T_ITEM' },
  {
    id: guid('2', 8),
    sku: 'SINK-UM-450',
    name: 'Undermount sink 450 mm',
    price: 459,
    unit: 'T_ITEM',
    taskSequence: ['T_PLUMBING_CONNECT'],
  },
  {
    id: guid('2', 9),
    sku: 'TAP-MIXER-GN',
    name: 'Gooseneck mixer tap',
    price: 249.99,
    unit: 'T_ITEM',
    taskSequence: ['T_PLUMBING_CONNECT'],
  },
  { id: guid('2', 10), sku: 'HOOD-900', name: 'Rangehood 900 mm', price: 899, unit: 'T_ITEM' },
  {
    id: guid('2', 11),
    sku: 'LED-STRIP-WW',
    name: 'LED strip light, warm white',
    price: 32.5,
    unit: 'T_LINEAR_METRE',
    // A step whose template is inactive: injection skips it and keeps the rest.
    taskSequence: ['T_LEGACY_ASSEMBLY', 'T_ELECTRICAL_CONNECT'],
  },
  { id: guid('2', 12), sku: 'PANEL-END-720', name: 'End panel 720 mm', price: 119, unit: 'T_ITEM' },
  {
    id: guid('2', 13),
    sku: 'CAB-BASE-600',
    name: 'Base cabinet 600 mm (other tenant)',
    price: 999,
    unit: 'T_ITEM',
    tenantId: OTHER_TENANT_ID,
  },
];

/** A line of a built-in quote selling a catalogue product at its price, with 15% GST. */
function product(row: number, qty: number): FixtureQuoteLine {
  const { id, sku, name, price } = PRODUCTS.find((candidate) => candidate.id === guid('2', row))!;
  return { skuId: id, description: name, productCode: sku, qty, unitPrice: price, taxRate: 0.15 };
}

/**
 * The labour line that brings a built-in quote to its total (chosen so that the lines, priced as
 * the model prices them, add up to the quote's `total` exactly: a test holds them to it).
 */
function labour(unitPrice: number): FixtureQuoteLine {
  return { skuId: null, description: 'Installation and labour', productCode: null, qty: 1, unitPrice, taxRate: 0.15 };
}

export const DEFAULT_FIXTURES: Fixtures = {
  context: {
    userName: 'Mere Whitaker',
    userEmail: 'mere@kauricoastkitchens.co.nz',
    userRole: 'H_Admin',
    tenantName: 'Kauri Coast Kitchens Ltd',
    tenantId: DEFAULT_TENANT_ID,
    cultureCode: 'en-NZ',
  },
  quoteTemplate: { showSubtotals: true, showUnitPrices: true },
  customers: [
    { id: guid('1', 1), name: 'Aroha Tane', email: 'aroha.tane@example.co.nz', phone: '+64 21 555 0101' },
    { id: guid('1', 2), name: 'Hamish & Claire Doyle', email: 'doyles@example.co.nz', phone: '+64 27 555 0102' },
    { id: guid('1', 3), name: 'Papamoa Beach Motel', email: 'office@papamoamotel.example.nz', phone: '+64 7 555 0103' },
    { id: guid('1', 4), name: 'Li Wei', email: 'li.wei@example.com', phone: '+64 22 555 0104' },
    { id: guid('1', 5), name: 'Ngaio Builders Ltd', email: 'accounts@ngaiobuilders.example.nz', phone: '+64 9 555 0105' },
    { id: guid('1', 6), name: 'Sione Fifita', email: 'sione.f@example.co.nz', phone: '' },
    { id: guid('1', 7), name: 'Te Puke Community Trust', email: 'admin@tepuketrust.example.nz', phone: '+64 7 555 0107' },
    { id: guid('1', 8), name: 'Olivia Barnes', email: 'Olivia.Barnes@Example.com', phone: '+64 21 555 0108' },
    { id: guid('1', 9), name: 'Other Tenant Customer', email: 'someone@othertenant.example', phone: '', tenantId: OTHER_TENANT_ID },
  ],
  products: PRODUCTS,
  taskTemplates: [
    { id: guid('3', 1), code: 'T_DEFAULT_INSTALLATION_TASK', name: 'Installation' },
    { id: guid('3', 2), code: 'T_SITE_MEASURE', name: 'Site measure' },
    { id: guid('3', 3), code: 'T_TILING_PREP', name: 'Tiling preparation' },
    { id: guid('3', 4), code: 'T_TILING', name: 'Tiling' },
    { id: guid('3', 5), code: 'T_PLUMBING_CONNECT', name: 'Plumbing connection' },
    { id: guid('3', 6), code: 'T_ELECTRICAL_CONNECT', name: 'Electrical connection' },
    { id: guid('3', 7), code: 'T_DEMOLITION', name: 'Demolition and strip-out' },
    { id: guid('3', 8), code: 'T_LEGACY_ASSEMBLY', name: 'Flat-pack assembly (retired)', active: false },
    { id: guid('3', 9), code: 'T_DEFAULT_INSTALLATION_TASK', name: 'Installation (other tenant)', tenantId: OTHER_TENANT_ID },
  ],
  costItems: [
    { id: guid('4', 1), code: 'CARD-FEE', name: 'Credit card surcharge', type: 'T_FINANCIAL' },
    { id: guid('4', 2), code: 'TRAVEL-KM', name: 'Mileage', type: 'T_TRAVEL' },
    { id: guid('4', 3), code: 'TRAVEL-OLD', name: 'Travel (old rate)', type: 'T_TRAVEL', active: false },
    { id: guid('4', 4), code: 'CARD-FEE', name: 'Card fee (other tenant)', type: 'T_FINANCIAL', tenantId: OTHER_TENANT_ID },
  ],
  // Not in code order on purpose: jobCostTemplates.list must sort them.
  jobCostTemplates: [
    { id: guid('5', 1), code: 'TRAVEL', name: 'Travel', type: 'T_EXPENSE' },
    { id: guid('5', 2), code: 'SHIPPING', name: 'Shipping and freight', type: 'T_THIRD_PARTY_COST' },
    { id: guid('5', 3), code: 'CHECK-MEASURE', name: 'Check measure', type: 'T_ADHOC' },
    { id: guid('5', 4), code: 'DISPOSAL', name: 'Waste disposal', type: 'T_THIRD_PARTY_COST' },
    { id: guid('5', 5), code: 'SKIP-HIRE', name: 'Skip bin hire (retired)', type: 'T_THIRD_PARTY_COST', active: false },
    { id: guid('5', 6), code: 'APPLIANCES', name: 'Appliances bought in', type: 'T_PURCHASED_ITEM' },
    { id: guid('5', 7), code: 'CONSENT', name: 'Building consent fee', type: 'T_EXPENSE' },
    { id: guid('5', 8), code: 'FREIGHT', name: 'Freight (other tenant)', type: 'T_THIRD_PARTY_COST', tenantId: OTHER_TENANT_ID },
  ],
  suppliers: [
    { id: guid('6', 1), reference: 'T_SELF', name: 'Self' },
    { id: guid('6', 2), reference: 'BUNN-TRADE', name: 'Bunnings Trade' },
    { id: guid('6', 3), reference: 'PLACE-RIC', name: 'PlaceMakers Riccarton' },
    { id: guid('6', 4), reference: 'STONEWORKS', name: 'Stoneworks NZ' },
    { id: guid('6', 5), reference: 'MAINFREIGHT', name: 'Mainfreight' },
    { id: guid('6', 6), reference: 'TOTARA-TIMBER', name: 'Totara Timber Co', active: false },
    { id: guid('6', 7), reference: 'OTHER-SUPPLY', name: 'Other Tenant Supplies', tenantId: OTHER_TENANT_ID },
  ],
  jobs: [
    { id: guid('7', 1), ref: 'J-2031', customerName: 'Aroha Tane', customerIdGuid: guid('1', 1), status: 'Open' },
    { id: guid('7', 2), ref: 'J-2032', customerName: 'Papamoa Beach Motel', customerIdGuid: guid('1', 3), status: 'On hold' },
    { id: guid('7', 3), ref: 'J-1987', customerName: 'Li Wei', customerIdGuid: guid('1', 4), status: 'Closed', active: false },
    { id: guid('7', 4), ref: 'J-2035', customerName: 'Ngaio Builders Ltd', customerIdGuid: guid('1', 5), status: 'Open' },
    { id: guid('7', 5), ref: 'J-2036', customerName: 'Hamish & Claire Doyle', customerIdGuid: guid('1', 2), status: 'Open' },
    {
      id: guid('7', 6),
      ref: 'J-0099',
      customerName: 'Other Tenant Customer',
      customerIdGuid: guid('1', 9),
      status: 'Open',
      tenantId: OTHER_TENANT_ID,
    },
  ],
  quotes: [
    {
      id: guid('8', 1),
      ref: 'Q-1037',
      customerName: 'Li Wei',
      total: 12650.75,
      status: 'Accepted',
      date: '2025-03-04T09:12:00.000Z',
      lines: [
        product(1, 6),
        product(2, 5),
        { ...product(4, 4), supplierRef: 'STONEWORKS' },
        product(8, 1),
        product(9, 1),
        labour(4128.66),
      ],
    },
    {
      id: guid('8', 2),
      ref: 'Q-1038',
      customerName: 'Papamoa Beach Motel',
      total: 48210,
      status: 'Sent',
      date: '2025-04-18T02:30:00.000Z',
      lines: [product(1, 24), product(2, 20), product(3, 12), product(10, 6), product(12, 12), labour(14499.74)],
    },
    {
      id: guid('8', 3),
      ref: 'Q-1039',
      customerName: 'Sione Fifita',
      total: 3120.4,
      status: 'Rejected',
      date: '2025-05-02T22:05:00.000Z',
      lines: [product(5, 18), product(6, 24), labour(796.39)],
    },
    {
      id: guid('8', 4),
      ref: 'Q-1040',
      customerName: 'Te Puke Community Trust',
      total: 7999.99,
      status: 'Expired',
      date: '2025-01-20T01:00:00.000Z',
      lines: [product(1, 4), product(2, 4), product(3, 2), product(7, 8), labour(3204.91)],
    },
    {
      id: guid('8', 5),
      ref: 'Q-1041',
      customerName: 'Hamish & Claire Doyle',
      total: 21480.5,
      status: 'Draft',
      date: '2025-06-11T04:45:00.000Z',
      lines: [product(1, 10), product(2, 8), { ...product(4, 6), supplierRef: 'STONEWORKS' }, product(11, 5), product(8, 1), labour(8298.19)],
    },
    {
      id: guid('8', 6),
      ref: 'Q-5001',
      customerName: 'Other Tenant Customer',
      total: 100,
      status: 'Draft',
      date: '2025-06-01T00:00:00.000Z',
      tenantId: OTHER_TENANT_ID,
      lines: [labour(86.96)],
    },
  ],
  openQuote: { id: guid('9', 1), ref: 'Q-1042', customerName: 'Aroha Tane', title: 'Kitchen renovation' },
  settings: [],
  apiKeys: [{ key: DEFAULT_API_KEY }],
};
