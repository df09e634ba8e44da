/*
 * NODE_EXTRA_CA_CERTS makes every Node process read and parse the certificate file it names as
 * it starts: about 50 ms a process on the development machine (`node -e 0`: 140 against 92 ms),
 * where the suite starts Node for nearly every CLI test (and for scripts, and vitest's workers). No
 * process the tests start needs certificates but npm reaching the registry, so the suite runs
 * without the variable (vitest.config.ts sets it aside before any worker starts), and the
 * end-to-end file, which runs npm as the user's shell would, gives it back.
 */

/** Where the variable's value is kept while the suite runs without it. */
const KEPT = 'PIPELINE_TOOL_TEST_EXTRA_CA_CERTS';

/** Moves NODE_EXTRA_CA_CERTS out of the way, keeping its value for withCertificates. */
export function setCertificatesAside(env: NodeJS.ProcessEnv = process.env): void {
  const value = env['NODE_EXTRA_CA_CERTS'];
  if (value === undefined) return;
  env[KEPT] = value;
  delete env['NODE_EXTRA_CA_CERTS'];
}

/** `env` as the user had it: NODE_EXTRA_CA_CERTS back where setCertificatesAside took it from. */
export function withCertificates(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { [KEPT]: kept, ...rest } = env;
  return kept === undefined ? rest : { ...rest, NODE_EXTRA_CA_CERTS: kept };
}
