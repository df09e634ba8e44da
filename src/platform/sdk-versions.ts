import type { BridgeToolType, PipelineSdk } from '../bridge/types.js';
import { editDistance, nearestName } from '../core/nearest.js';

/*
 * Which bridge methods exist in which SDK version (platform-spec §9.3). Kept free of Node and
 * npm imports so that the SDK shim in the browser can use it to leave out absent methods.
 */

type Namespace = Exclude<keyof PipelineSdk, 'version'>;

/** Every bridge method, as `namespace.method`. */
export type BridgeMethodName = {
  [N in Namespace]: `${N}.${Extract<keyof PipelineSdk[N], string>}`;
}[Namespace];

export interface BridgeMethodInfo {
  /** First SDK version that has the method. */
  since: string;
  /** Tool types allowed to call it. */
  toolTypes: readonly BridgeToolType[];
  /** What to use instead, when the method is deprecated. */
  replacedBy?: BridgeMethodName;
}

const ALL: readonly BridgeToolType[] = ['standalone', 'quoting_extension'];
const EXTENSIONS: readonly BridgeToolType[] = ['quoting_extension'];

/** The oldest and newest SDK versions the model can act as. */
export const OLDEST_SDK_VERSION = '2.1.0';
export const CURRENT_SDK_VERSION = '2.5.0';

/** The `sections` option of quotes.addLines arrived with quotes.addSections. */
export const ADD_LINES_SECTIONS_SINCE = '2.5.0';

// The spec dates only the methods it names in §9.3; everything else is taken to be as old as the
// oldest version we emulate.
export const BRIDGE_METHODS: Readonly<Record<BridgeMethodName, BridgeMethodInfo>> = {
  'context.get': { since: OLDEST_SDK_VERSION, toolTypes: ALL },
  'customers.list': { since: OLDEST_SDK_VERSION, toolTypes: ALL },
  'products.list': { since: OLDEST_SDK_VERSION, toolTypes: ALL },
  'taskTemplates.list': { since: '2.1.0', toolTypes: ALL },
  'costItems.list': { since: '2.1.0', toolTypes: ALL, replacedBy: 'jobCostTemplates.list' },
  'jobCostTemplates.list': { since: '2.2.0', toolTypes: ALL },
  'jobs.list': { since: OLDEST_SDK_VERSION, toolTypes: ALL },
  'quotes.list': { since: OLDEST_SDK_VERSION, toolTypes: ALL },
  'quotes.create': { since: OLDEST_SDK_VERSION, toolTypes: ALL },
  'quotes.addLines': { since: OLDEST_SDK_VERSION, toolTypes: EXTENSIONS },
  'quotes.addSections': { since: '2.5.0', toolTypes: EXTENSIONS },
  'settings.get': { since: '2.3.0', toolTypes: ALL },
  'settings.set': { since: '2.3.0', toolTypes: ALL },
};

function parseVersion(version: string): [number, number, number] | undefined {
  const match = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/** Compares two plain `x.y.z` versions; negative when a is older. */
function compareVersions(a: [number, number, number], b: [number, number, number]): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** True for a plain `x.y.z` version from 2.1.0 to 2.5.0, patch releases in between included. */
export function isSupportedSdkVersion(version: string): boolean {
  const parsed = parseVersion(version);
  return (
    parsed !== undefined &&
    compareVersions(parsed, parseVersion(OLDEST_SDK_VERSION)!) >= 0 &&
    compareVersions(parsed, parseVersion(CURRENT_SDK_VERSION)!) <= 0
  );
}

/** True when a host of SDK `version` has what arrived in `since`. */
export function hasSince(version: string, since: string): boolean {
  const parsed = parseVersion(version);
  const first = parseVersion(since);
  return parsed !== undefined && first !== undefined && compareVersions(parsed, first) >= 0;
}

export function isBridgeMethod(name: string): name is BridgeMethodName {
  return Object.prototype.hasOwnProperty.call(BRIDGE_METHODS, name);
}

/** The methods a host of SDK `version` exposes, in a stable order. */
export function listSdkMethods(version: string): BridgeMethodName[] {
  return (Object.keys(BRIDGE_METHODS) as BridgeMethodName[]).filter((name) => hasSince(version, BRIDGE_METHODS[name].since));
}

/**
 * Why a name is no bridge method, with the nearest method of `methods` (the host's own) to try:
 * a near spelling of any method first, else the closest member of the same namespace.
 */
export function describeUnknownMethod(name: string, methods: readonly string[]): string {
  const space = name.split('.', 1)[0] ?? '';
  const siblings = methods.filter((method) => method.startsWith(`${space}.`));
  let nearest = nearestName(name, methods);
  if (nearest === undefined && siblings.length > 0) {
    nearest = siblings.reduce((best, method) => (editDistance(name, method) < editDistance(name, best) ? method : best));
  }
  const hint = nearest === undefined ? '' : ` Did you mean ${nearest}?`;
  const members = siblings.length === 0 ? '' : ` (${space} has ${siblings.map((method) => method.slice(space.length + 1)).join(', ')})`;
  return `${name} is not a bridge method.${hint}${members}`;
}
