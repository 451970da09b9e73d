/**
 * The deployment files administrators start from (deploy/): parsed as YAML and checked against
 * what the relay actually is: probes on its /readyz and /healthz, metrics on RELAY_METRICS_PORT,
 * a drain window longer than the relay's 10 s, selectors that match, and only variables the
 * relay knows (relay-config.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { RelayEnv } from '../../../relay/relay-config';

const root = join(import.meta.dirname, '../../..');
const read = (name: string) => readFileSync(join(root, 'deploy', name), 'utf8');
const known = new Set(Object.keys(RelayEnv.shape));

interface Container {
  command: string[];
  ports: { name: string; containerPort: number }[];
  env: { name: string; value?: string }[];
  readinessProbe: { httpGet: { path: string; port: string } };
  livenessProbe: { httpGet: { path: string; port: string } };
}
type Labels = Record<string, string>;
interface Manifest {
  kind: string;
  spec: {
    replicas?: number;
    selector: { matchLabels?: Labels } & Labels;
    minAvailable?: number;
    template?: {
      metadata: { labels: Labels };
      spec: { terminationGracePeriodSeconds: number; containers: Container[] };
    };
    ports?: { targetPort: string }[];
  };
}

describe('deploy/kubernetes.yaml', () => {
  const documents = parseAllDocuments(read('kubernetes.yaml')).map((doc) => {
    expect(doc.errors).toEqual([]);
    return doc.toJS() as Manifest;
  });
  const byKind = (kind: string) => documents.find((doc) => doc.kind === kind)!;

  it('is a Deployment, a PodDisruptionBudget and a Service that select the same pods', () => {
    expect(documents.map((doc) => doc.kind).sort()).toEqual([
      'Deployment',
      'PodDisruptionBudget',
      'Service',
    ]);
    const deployment = byKind('Deployment');
    const labels = deployment.spec.template!.metadata.labels;
    expect(deployment.spec.selector.matchLabels).toEqual(labels);
    expect(byKind('PodDisruptionBudget').spec.selector.matchLabels).toEqual(labels);
    expect(byKind('Service').spec.selector).toEqual(labels);
    expect(byKind('PodDisruptionBudget').spec.minAvailable).toBeLessThan(deployment.spec.replicas!);
  });

  it('probes the relay’s endpoints, serves metrics on their port, and leaves time to drain', () => {
    const pod = byKind('Deployment').spec.template!.spec;
    const [relay] = pod.containers;
    expect(relay!.command).toEqual(['npm', 'run', 'relay']);
    expect(relay!.readinessProbe.httpGet.path).toBe('/readyz');
    expect(relay!.livenessProbe.httpGet.path).toBe('/healthz');
    const env = Object.fromEntries(relay!.env.map((each) => [each.name, each.value]));
    for (const name of Object.keys(env)) expect(known, name).toContain(name);
    const ports = Object.fromEntries(relay!.ports.map((each) => [each.name, each.containerPort]));
    expect(String(ports.http)).toBe(env.RELAY_PORT);
    expect(String(ports.metrics)).toBe(env.RELAY_METRICS_PORT);
    expect(relay!.readinessProbe.httpGet.port).toBe('http');
    expect(RelayEnv.safeParse(env).success).toBe(true);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(10);
    expect(byKind('Service').spec.ports![0]!.targetPort).toBe('http');
  });
});

describe('deploy/compose.cluster.yaml', () => {
  const compose = parse(read('compose.cluster.yaml'), { merge: true }) as {
    services: Record<
      string,
      { command: string[]; environment?: Record<string, string>; depends_on?: string[] }
    >;
  };

  it('runs six Redis Cluster nodes joined with a replica each, and two relay nodes on them', () => {
    const redis = Object.entries(compose.services).filter(([name]) => /^redis-\d$/.test(name));
    expect(redis).toHaveLength(6);
    for (const [, service] of redis)
      expect(service.command.join(' ')).toContain('--cluster-enabled yes');
    const init = compose.services['cluster-init']!.command.join(' ');
    expect(init).toContain('--cluster-replicas 1');
    for (const [name] of redis) expect(init).toContain(`${name}:6379`);
    const relays = Object.entries(compose.services).filter(([name]) => name.startsWith('relay-'));
    expect(relays).toHaveLength(2);
    for (const [, relay] of relays) {
      const env = relay.environment!;
      for (const name of Object.keys(env)) expect(known, name).toContain(name);
      expect(RelayEnv.safeParse(env).success).toBe(true);
      for (const node of env.RELAY_REDIS_CLUSTER_NODES!.split(',')) {
        expect(compose.services[node.split(':')[0]!]).toBeDefined();
      }
    }
  });
});
