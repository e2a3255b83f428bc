/** The variables that shape the daemon's Node.js process, as the Kubernetes manifests set them: what the daemon benches run it with. */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** What the manifests give the container: the one place the heap cap and the allocator's setting are written. */
const MANIFEST = fileURLToPath(new URL('../../../deploy/kubernetes/git-sync/deployment.yaml', import.meta.url));

/** The container's variables that shape the Node.js process itself, not Rampart's settings. */
const RUNTIME_VARIABLES = ['NODE_OPTIONS', 'MALLOC_TRIM_THRESHOLD_'] as const;

/** Each runtime variable as the manifests set it; one they leave out is `undefined` (a child then goes without). */
export type RuntimeEnv = Record<(typeof RUNTIME_VARIABLES)[number], string | undefined>;

export async function manifestRuntimeEnv(): Promise<RuntimeEnv> {
  const deployment = parse(await readFile(MANIFEST, 'utf8')) as {
    spec: { template: { spec: { containers: { name: string; env?: { name: string; value?: string }[] }[] } } };
  };
  const rampart = deployment.spec.template.spec.containers.find((c) => c.name === 'rampart');
  const value = (name: string) => rampart?.env?.find((e) => e.name === name)?.value;
  return Object.fromEntries(RUNTIME_VARIABLES.map((name) => [name, value(name)])) as RuntimeEnv;
}

/** The same variables, none set: what a process run without the manifests' settings gets. */
export const NO_RUNTIME_ENV: RuntimeEnv = Object.fromEntries(RUNTIME_VARIABLES.map((name) => [name, undefined])) as RuntimeEnv;

/** `NODE_OPTIONS="…" MALLOC_TRIM_THRESHOLD_="…"`, the variables set, for the tables. */
export function describeRuntimeEnv(env: RuntimeEnv): string {
  return Object.entries(env).flatMap(([name, value]) => (value === undefined ? [] : [`${name}="${value}"`])).join(' ') || 'none';
}
