import { expect } from 'vitest';
import type { BridgeAddLineDto, BridgeErrorCode, BridgeProblemCode } from '../../src/bridge/types.js';
import {
  BridgeModelError,
  createPlatform,
  DEFAULT_FIXTURES,
  type BridgeWarning,
  type Platform,
  type PlatformOptions,
} from '../../src/platform/index.js';

/** A platform over the default fixtures with a fixed clock and counting GUIDs, plus its warnings. */
export function makePlatform(options: Partial<PlatformOptions> = {}): { platform: Platform; warnings: BridgeWarning[] } {
  const warnings: BridgeWarning[] = [];
  let next = 0;
  const platform = createPlatform({
    toolId: 'test-tool',
    toolType: 'quoting_extension',
    generateId: () => `f0000000-0000-4000-8000-${String(++next).padStart(12, '0')}`,
    now: () => new Date('2025-07-01T10:00:00.000Z'),
    onWarning: (warning) => warnings.push(warning),
    ...options,
  });
  return { platform, warnings };
}

/** The id of a default product by SKU, or of a template or cost item by code (own tenant). */
export const ids = {
  product: (sku: string) => findId(DEFAULT_FIXTURES.products, (p) => p.sku === sku),
  task: (code: string) => findId(DEFAULT_FIXTURES.taskTemplates, (t) => t.code === code),
  cost: (code: string) => findId(DEFAULT_FIXTURES.costItems, (t) => t.code === code),
  jobcost: (code: string) => findId(DEFAULT_FIXTURES.jobCostTemplates, (t) => t.code === code),
};

function findId<T extends { id: string; tenantId?: string }>(rows: readonly T[], match: (row: T) => boolean): string {
  const row = rows.find((r) => r.tenantId === undefined && match(r));
  if (!row) throw new Error('no such fixture row');
  return row.id;
}

/** A valid add-line record with the given changes. */
export function line(changes: Partial<Record<keyof BridgeAddLineDto, unknown>> = {}): BridgeAddLineDto {
  return { qty: 1, unitPrice: 100, taxRate: 0.15, ...changes } as BridgeAddLineDto;
}

/** Awaits a call that must fail and returns its error, checking the code. */
export async function rejectionOf(promise: Promise<unknown>, code: BridgeErrorCode): Promise<BridgeModelError> {
  const error: unknown = await promise.then(
    () => {
      throw new Error(`expected a ${code} rejection, but the call succeeded`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BridgeModelError);
  expect((error as BridgeModelError).code).toBe(code);
  return error as BridgeModelError;
}

/** The (path, code) pairs of an error's details, for compact assertions. */
export function problemsOf(error: BridgeModelError): [string, BridgeProblemCode][] {
  return error.details.map((p) => [p.path, p.code]);
}

export function warningCodes(warnings: readonly BridgeWarning[]): [string | null, string][] {
  return warnings.map((w) => [w.path, w.code]);
}
