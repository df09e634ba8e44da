#!/usr/bin/env node
// Times loading one fixture file as `dev --fixtures` does, inside this process: the library's
// loadFixtureFile (read, parse, check against the schema, merge over the built-in data).
// Usage: node bench/load-fixtures.mjs <dist/index.js> <fixture file>. Prints {"ms": …, "rows": …}.
// The schema is compiled once before the clock starts, on an empty file: that cost is the same
// for ten rows as for a million, and leaving it out lets 10,000 and 100,000 rows be compared.
import { pathToFileURL } from 'node:url';

const [library, file] = process.argv.slice(2);
const { loadFixtureFile, parseFixtures } = await import(pathToFileURL(library).href);
await parseFixtures('{}', 'warm-up');
const start = performance.now();
const fixtures = await loadFixtureFile(file);
const ms = performance.now() - start;
const rows = fixtures.products.length + fixtures.customers.length + fixtures.quotes.length;
process.stdout.write(`${JSON.stringify({ ms, rows })}\n`);
