import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/*
 * DNS rebinding defence. A web page the author visits can point its own domain at 127.0.0.1 and
 * then talk to the dev server as a "same-origin" site; the only thing that gives it away is the
 * Host header, which then names the attacker's domain. So each listener answers only to the names
 * it was reached by on purpose.
 */

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '::1'];

export function isLoopbackAddress(address: string): boolean {
  const name = address.toLowerCase();
  return name === 'localhost' || name === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

export function isWildcardAddress(address: string): boolean {
  return address === '0.0.0.0' || address === '::';
}

/** The host names a listener bound to `bindAddress` may be addressed by. */
export function allowedHostNames(bindAddress: string): Set<string> {
  const names = new Set<string>([bindAddress.toLowerCase()]);
  if (isLoopbackAddress(bindAddress) || isWildcardAddress(bindAddress)) LOOPBACK_NAMES.forEach((name) => names.add(name));
  if (isWildcardAddress(bindAddress)) {
    for (const list of Object.values(networkInterfaces())) {
      for (const info of list ?? []) names.add(info.address.toLowerCase());
    }
  }
  return names;
}

/**
 * The addresses other computers may reach a listener bound to `bindAddress` at: every external
 * interface address of the family for a wildcard (IPv4 for 0.0.0.0, both for ::), the address
 * itself for any other non-loopback one, nothing on loopback. Link-local IPv6 addresses are left
 * out, since a URL needs their zone.
 */
export function networkAddresses(bindAddress: string): string[] {
  if (isLoopbackAddress(bindAddress)) return [];
  if (!isWildcardAddress(bindAddress)) return [bindAddress];
  const addresses: string[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) {
      if (info.internal || info.address.toLowerCase().startsWith('fe80:')) continue;
      if (bindAddress === '0.0.0.0' && info.family !== 'IPv4') continue;
      addresses.push(info.address);
    }
  }
  return addresses;
}

/** Splits a Host header into name and port (80 when left out); undefined when it is not plain. */
export function parseHostHeader(header: string | undefined): { name: string; port: number } | undefined {
  if (header === undefined) return undefined;
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(header);
  if (!match) return undefined;
  const raw = match[1]!;
  const name = raw.startsWith('[') ? raw.slice(1, -1) : raw;
  if (raw.startsWith('[') && isIP(name) !== 6) return undefined;
  return { name: name.toLowerCase(), port: match[2] === undefined ? 80 : Number(match[2]) };
}

/** The Host header's name when it is one this listener answers to on `port`, else undefined. */
export function checkHost(header: string | undefined, allowed: ReadonlySet<string>, port: number): string | undefined {
  const host = parseHostHeader(header);
  if (host === undefined || host.port !== port || !allowed.has(host.name)) return undefined;
  return host.name;
}

/** How a host name is written inside a URL (IPv6 addresses need brackets). */
export function urlHostName(name: string): string {
  return isIP(name) === 6 ? `[${name}]` : name;
}
