// A fixture file the size of a real catalogue, for timing `dev --fixtures`: 60% products (every
// tenth with a task sequence, as a kitchen business's installable items have), 30% customers and
// 10% quotes, every row with its own GUID, laid over the built-in data ("extend"), pretty-printed
// as an editor saves it. The task templates named are built-in ones.
import { writeFileSync } from 'node:fs';

const WORDS = ['Oak', 'Walnut', 'Matte', 'Gloss', 'Soft-close', 'Corner', 'Tall', 'Base', 'Wall', 'Drawer', 'Panel', 'Hinge', 'Handle', 'Bench', 'Splashback'];
const TASKS = ['T_DEFAULT_INSTALLATION_TASK', 'T_ELECTRICAL_CONNECT'];

const guid = (table, n) => `${table}${n.toString(16).padStart(7, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** Writes a fixture file of `rows` rows to `file`, the same bytes for the same `random` seed. */
export function writeFixtureFile(file, rows, random) {
  const name = () => `${random.pick(WORDS)} ${random.pick(WORDS)} ${random.between(300, 1200)} mm`;
  const products = Array.from({ length: Math.round(rows * 0.6) }, (_, n) => ({
    id: guid('b', n),
    sku: `SKU-${n.toString().padStart(6, '0')}`,
    name: name(),
    price: random.between(100, 500_000) / 100,
    unit: random.chance(0.8) ? 'T_ITEM' : 'T_LINEAR_METRE',
    ...(n % 10 === 0 ? { taskSequence: [random.pick(TASKS)] } : {}),
  }));
  const customers = Array.from({ length: Math.round(rows * 0.3) }, (_, n) => ({
    id: guid('c', n),
    name: `Customer ${n}`,
    email: `customer${n}@example.nz`,
    phone: `+64 9 ${random.between(100, 999)} ${random.between(1000, 9999)}`,
  }));
  const quotes = Array.from({ length: rows - products.length - customers.length }, (_, n) => ({
    id: guid('d', n),
    ref: `Q-${20_000 + n}`,
    customerName: `Customer ${n % customers.length}`,
    total: random.between(1_000, 5_000_000) / 100,
    status: random.pick(['Draft', 'Sent', 'Accepted', 'Rejected', 'Expired']),
    date: new Date(Date.UTC(2024, 0, 1) + n * 3_600_000).toISOString(),
  }));
  writeFileSync(file, `${JSON.stringify({ $schema: './fixtures.schema.json', products, customers, quotes }, null, 2)}\n`);
}
