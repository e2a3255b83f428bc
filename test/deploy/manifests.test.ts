/**
 * The Kubernetes manifests and alert rules: every object validates against the
 * Kubernetes schemas (kubernetes-models), and the properties operators rely
 * on hold: security context, probes, ports, shared volumes, git-sync link.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { ConfigMap, Secret, Service, ServiceAccount } from 'kubernetes-models/v1';
import type { IContainer, IPodSpec } from 'kubernetes-models/v1';
import { CYCLE_RESULTS } from '../../src/reconcile/outcome.js';
import { loadPolicyTexts } from '../../src/policy/validate.js';

const ROOT = join(import.meta.dirname, '../..');
const K8S = join(ROOT, 'deploy/kubernetes');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests are free-form until validated
type Manifest = Record<string, any>;

function manifests(dir: string): { file: string; object: Manifest }[] {
  return yamlFiles(dir)
    .filter((file) => !file.includes('/policies/'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => {
        expect(doc.errors, file).toEqual([]);
        return { file: relative(ROOT, file), object: doc.toJS() as Manifest };
      }),
    );
}

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
};

const variants = ['git-sync', 'configmap'] as const;

describe.each(variants)('deploy/kubernetes/%s', (variant) => {
  const dir = join(K8S, variant);
  const all = manifests(dir);
  const objects = all.filter((m) => m.object.kind !== 'Kustomization');
  const kustomization = all.find((m) => m.object.kind === 'Kustomization')?.object;
  const deployment = objects.find((m) => m.object.kind === 'Deployment')?.object as Manifest;
  const pod = deployment.spec.template.spec as IPodSpec;
  const rampart = pod.containers.find((c) => c.name === 'rampart') as IContainer;

  it('every object validates against the Kubernetes schema', () => {
    expect(objects.length).toBeGreaterThanOrEqual(4);
    for (const { file, object } of objects) {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`];
      expect(Model, `${file}: ${object.apiVersion} ${object.kind}`).toBeDefined();
      expect(() => new (Model as new (data: unknown) => { validate(): void })(object).validate(), file).not.toThrow();
    }
  });

  it('the kustomization lists every manifest except the secret example', () => {
    const listed = new Set<string>(kustomization?.resources ?? []);
    const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml');
    for (const file of files) expect(listed.has(file), file).toBe(!file.includes('example'));
    expect([...listed].some((f) => f.includes('secret'))).toBe(false);
  });

  it('runs one pod at a time (never two writers)', () => {
    expect(deployment.spec.replicas).toBe(1);
    expect(deployment.spec.strategy.type).toBe('Recreate');
  });

  it('locks every container down', () => {
    expect(pod.securityContext?.runAsNonRoot).toBe(true);
    expect(pod.securityContext?.seccompProfile?.type).toBe('RuntimeDefault');
    expect(pod.automountServiceAccountToken).toBe(false);
    for (const container of pod.containers) {
      const sc = container.securityContext;
      expect(sc?.runAsNonRoot, container.name).toBe(true);
      expect(sc?.runAsUser, container.name).toBeGreaterThan(0);
      expect(sc?.allowPrivilegeEscalation, container.name).toBe(false);
      expect(sc?.readOnlyRootFilesystem, container.name).toBe(true);
      expect(sc?.capabilities?.drop, container.name).toEqual(['ALL']);
      expect(sc?.seccompProfile?.type, container.name).toBe('RuntimeDefault');
      expect(container.resources?.requests?.memory, container.name).toBeDefined();
      expect(container.resources?.limits?.memory, container.name).toBeDefined();
    }
    expect(rampart.securityContext?.runAsUser).toBe(10001);
    const sa = objects.find((m) => m.object.kind === 'ServiceAccount')?.object;
    expect(sa?.automountServiceAccountToken).toBe(false);
    expect(pod.serviceAccountName).toBe(sa?.metadata.name);
  });

  it('serves probes and metrics on port 9464 named metrics, listening on all interfaces', () => {
    expect(rampart.ports).toEqual([{ name: 'metrics', containerPort: 9464, protocol: 'TCP' }]);
    expect(rampart.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'metrics' });
    expect(rampart.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'metrics' });
    const args = rampart.args ?? [];
    expect(args[0]).toBe('run');
    expect(args[args.indexOf('--listen') + 1]).toBe('0.0.0.0:9464');
    const annotations = deployment.spec.template.metadata.annotations;
    expect(annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9464', 'prometheus.io/path': '/metrics' });
    const service = objects.find((m) => m.object.kind === 'Service')?.object as Manifest;
    expect(service.spec.ports).toEqual([{ name: 'metrics', port: 9464, targetPort: 'metrics', protocol: 'TCP' }]);
    expect(service.spec.publishNotReadyAddresses).toBe(true);
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
  });

  it('reads the token from a mounted Secret file and the API URL from the ConfigMap', () => {
    const env = Object.fromEntries((rampart.env ?? []).map((e) => [e.name, e]));
    expect(env.RAMPART_API_TOKEN_FILE?.value).toBe('/var/run/secrets/rampart/token');
    expect(env.RAMPART_API_TOKEN).toBeUndefined();
    expect(env.RAMPART_API_URL?.valueFrom?.configMapKeyRef).toEqual({ name: 'rampart-config', key: 'RAMPART_API_URL' });
    const mount = rampart.volumeMounts?.find((m) => m.mountPath === '/var/run/secrets/rampart');
    expect(mount?.readOnly).toBe(true);
    const volume = pod.volumes?.find((v) => v.name === mount?.name);
    expect(volume?.secret?.secretName).toBe('rampart-api-token');
    expect(volume?.secret?.items).toEqual([{ key: 'token', path: 'token' }]);
    const config = objects.find((m) => m.object.kind === 'ConfigMap' && m.object.metadata.name === 'rampart-config')?.object;
    expect(config?.data.RAMPART_API_URL).toMatch(/^https:\/\//);
  });

  it('mounts every volume it uses, and gives the read-only root a writable /tmp', () => {
    const volumes = new Set((pod.volumes ?? []).map((v) => v.name));
    for (const container of pod.containers) {
      for (const mount of container.volumeMounts ?? []) expect(volumes.has(mount.name), `${container.name}: ${mount.name}`).toBe(true);
      expect(container.volumeMounts?.some((m) => m.mountPath === '/tmp'), container.name).toBe(true);
    }
  });

  if (variant === 'git-sync') {
    it('shares the git emptyDir: git-sync writes it, Rampart reads the policies under its link', () => {
      const gitSync = pod.containers.find((c) => c.name === 'git-sync') as IContainer;
      expect(gitSync.image).toMatch(/^registry\.k8s\.io\/git-sync\/git-sync:v4\.\d+\.\d+$/);
      const flags = Object.fromEntries((gitSync.args ?? []).map((a) => a.split('=', 2) as [string, string]));
      expect(flags['--repo']).toMatch(/^https:\/\//);
      expect(flags['--root']).toBe('/git');
      expect(flags['--link']).toBe('repo');
      expect(flags['--period']).toMatch(/^\d+s$/);
      const gitVolume = pod.volumes?.find((v) => v.name === 'git');
      expect(gitVolume?.emptyDir).toBeDefined();
      const writer = gitSync.volumeMounts?.find((m) => m.name === 'git');
      const reader = rampart.volumeMounts?.find((m) => m.name === 'git');
      expect(writer?.mountPath).toBe(flags['--root']);
      expect(writer?.readOnly ?? false).toBe(false);
      expect(reader?.readOnly).toBe(true);
      const args = rampart.args ?? [];
      const policies = args[args.indexOf('--policies') + 1];
      expect(policies).toBe(`${reader?.mountPath}/${flags['--link']}/policies`);
      // The shared volume's group is git-sync's, so both containers can use it.
      expect(pod.securityContext?.fsGroup).toBe(gitSync.securityContext?.runAsUser);
    });
  } else {
    it('mounts the policies ConfigMap where --policies points, and its policies are valid', () => {
      const mount = rampart.volumeMounts?.find((m) => m.name === 'policies');
      const args = rampart.args ?? [];
      expect(args[args.indexOf('--policies') + 1]).toBe(mount?.mountPath);
      expect(mount?.readOnly).toBe(true);
      expect(pod.volumes?.find((v) => v.name === 'policies')?.configMap?.name).toBe('rampart-policies');
      const generator = (kustomization?.configMapGenerator as { name: string; files: string[] }[])[0];
      expect(generator?.name).toBe('rampart-policies');
      expect(kustomization?.generatorOptions?.disableNameSuffixHash).toBe(true);
      const texts = (generator?.files ?? []).map((f) => ({ file: f, text: readFileSync(join(dir, f), 'utf8') }));
      expect(texts.length).toBeGreaterThan(0);
      const result = loadPolicyTexts(texts);
      expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    });
  }
});

describe('the two deployments size Rampart alike', () => {
  it('with the same Node options, allocator setting and memory request and limit (measured once, docs/operations-daemon.md)', () => {
    const sizing = variants.map((variant) => {
      const deployment = manifests(join(K8S, variant)).find((m) => m.object.kind === 'Deployment')?.object as Manifest;
      const rampart = (deployment.spec.template.spec as IPodSpec).containers.find((c) => c.name === 'rampart') as IContainer;
      const value = (name: string) => rampart.env?.find((e) => e.name === name)?.value;
      return { nodeOptions: value('NODE_OPTIONS'), mallocTrim: value('MALLOC_TRIM_THRESHOLD_'), resources: rampart.resources };
    });
    expect(sizing[0]?.nodeOptions).toMatch(/--max-old-space-size=\d+/);
    // One V8 worker thread: each of Node's default four kept its own malloc arena (docs/operations-daemon.md).
    expect(sizing[0]?.nodeOptions).toMatch(/--v8-pool-size=1\b/);
    // The young generation bounded as on Node.js 20 and 22: Node.js 24, the image's, grows it four times larger.
    expect(sizing[0]?.nodeOptions).toMatch(/--max-semi-space-size=16\b/);
    // A fixed trim threshold: glibc's moving one kept a cycle's freed memory resident.
    expect(sizing[0]?.mallocTrim).toMatch(/^\d+$/);
    expect(sizing[1]).toEqual(sizing[0]);
  });
});

describe('deploy/prometheus/rampart-alerts.yaml', () => {
  const rule = parse(readFileSync(join(ROOT, 'deploy/prometheus/rampart-alerts.yaml'), 'utf8')) as Manifest;
  const rules = (rule.spec.groups as { rules: Manifest[] }[]).flatMap((g) => g.rules);
  /** The daemon metrics docs/operations-daemon.md and the contract define. */
  const CONTRACT_METRICS = new Set([
    'rampart_reconcile_total', 'rampart_reconcile_duration_seconds', 'rampart_changes_applied_total',
    'rampart_policy_valid', 'rampart_last_success_timestamp_seconds', 'rampart_churn_held_objects',
    'rampart_paused', 'rampart_paused_since_timestamp_seconds', 'rampart_writes_by_cause_total',
  ]);

  it('is a PrometheusRule with named, annotated alerts', () => {
    expect(rule.apiVersion).toBe('monitoring.coreos.com/v1');
    expect(rule.kind).toBe('PrometheusRule');
    for (const r of rules) {
      expect(r.alert).toMatch(/^Rampart[A-Z]\w+$/);
      expect(typeof r.expr).toBe('string');
      expect(r.labels.severity).toMatch(/^(warning|critical)$/);
      expect(r.annotations.summary).toBeTruthy();
    }
  });

  it('covers stalled, failing, invalid and unsafe', () => {
    const exprs = rules.map((r) => r.expr as string);
    expect(exprs.some((e) => e.includes('time() - rampart_last_success_timestamp_seconds'))).toBe(true);
    expect(exprs.some((e) => /rate\(rampart_reconcile_total\{result="failed"\}/.test(e))).toBe(true);
    expect(exprs.some((e) => e.includes('rampart_policy_valid == 0'))).toBe(true);
    expect(exprs.some((e) => e.includes('rampart_reconcile_total{result="unsafe"}'))).toBe(true);
  });

  it('references only contract metrics and outcome labels the daemon records', () => {
    for (const r of rules) {
      const expr = r.expr as string;
      for (const name of expr.match(/\brampart_[a-z_]+/g) ?? []) expect(CONTRACT_METRICS.has(name), `${r.alert}: ${name}`).toBe(true);
      expect((expr.match(/\b[a-z_]+_(?:total|seconds|valid)\b/g) ?? []).every((n) => n.startsWith('rampart_')), r.alert).toBe(true);
      for (const match of expr.matchAll(/result=~?"([^"]+)"/g)) {
        for (const result of (match[1] as string).split('|')) expect(CYCLE_RESULTS as readonly string[], `${r.alert}: ${result}`).toContain(result);
      }
      expect(expr.split('(').length, r.alert).toBe(expr.split(')').length);
    }
  });
});
