// Validates rendered overlays offline: every object against its schema, then the services' Deployments against
// their application.properties, and the references between objects.
// Usage (from validate.sh): node validate.mjs REPO_ROOT NAME=RENDERED.yaml...
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

const SERVICES = ['auth-service', 'message-service', 'push-service', 'push-worker'];
// Services without a database, Kafka or token keys of their own: they call the others' APIs (docs/console.md).
const API_CLIENTS = ['console'];
// Env names outside application.properties that are still fine: Quarkus and Kafka client roots, and the JVM
// image's own variables (run-java.sh).
const KNOWN_ROOTS = /^(QUARKUS|KAFKA|JAVA)_/;
const REQUIRED_ENV = {
  all: ['QUARKUS_DATASOURCE_JDBC_URL', 'QUARKUS_DATASOURCE_USERNAME', 'QUARKUS_DATASOURCE_PASSWORD',
    'KAFKA_BOOTSTRAP_SERVERS', 'MP_JWT_VERIFY_PUBLICKEY_LOCATION', 'QUARKUS_LOG_CONSOLE_JSON_ENABLED', 'IM_INTERNAL_KEY'],
  // IM_PLATFORM_KEY only where im.platform-key is a property: the services with operator endpoints
  'auth-service': ['IM_JWT_PRIVATE_KEY_LOCATION', 'IM_PLATFORM_KEY'],
  'message-service': ['IM_MESSAGE_REPLICA_ID', 'IM_PLATFORM_KEY'],
  'push-service': ['IM_PUSH_CERTIFICATE_KEY', 'IM_PUSH_FANOUT_REPLICA_ID', 'IM_PLATFORM_KEY'],
  'push-worker': ['IM_PUSH_CERTIFICATE_KEY'],
  console: ['IM_CONSOLE_AUTH_SERVICE_URL', 'IM_CONSOLE_PUSH_SERVICE_URL', 'IM_CONSOLE_SESSION_SECURE_COOKIE'],
};
// Values that must come from a Secret, never from the manifest or a ConfigMap.
const SECRET_ENV = ['QUARKUS_DATASOURCE_USERNAME', 'QUARKUS_DATASOURCE_PASSWORD', 'IM_PLATFORM_KEY', 'IM_INTERNAL_KEY',
  'IM_PUSH_CERTIFICATE_KEY'];
// Replica ids that must be the pod's name (fieldRef metadata.name): unique per pod, never shared by two.
const POD_NAME_ENV = ['IM_MESSAGE_REPLICA_ID', 'IM_PUSH_FANOUT_REPLICA_ID', 'IM_PUSH_WORKER_REPLICA_ID'];
const HEALTH = { startupProbe: '/q/health/started', livenessProbe: '/q/health/live', readinessProbe: '/q/health/ready' };

// Schema packages per apiVersion; Strimzi has none on the npm registry (checked structurally below).
const MODEL_MODULES = {
  'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
  'postgresql.cnpg.io/v1': '@kubernetes-models/cloudnative-pg/postgresql.cnpg.io/v1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};
const BUILT_IN = /^(v1|[a-z]+\/v\d\w*|[a-z.]+\.k8s\.io\/v\d\w*)$/;

// PostgreSQL's default max_connections, and the connections kept out of the services' budget:
// superuser_reserved_connections (3) + operators' psql sessions, backups, monitoring and migrations (7)
const PG_DEFAULT_MAX_CONNECTIONS = 100;
const PG_RESERVED_CONNECTIONS = 10;

const [repo, ...overlayArgs] = process.argv.slice(2);
const problems = [];
const budgets = [];
let objectCount = 0;

for (const arg of overlayArgs) {
  const [overlay, file] = arg.split('=');
  const objects = [];
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    if (doc.errors.length) problems.push(`${overlay}: YAML: ${doc.errors[0].message}`);
    else if (doc.contents) objects.push(doc.toJS());
  }
  objectCount += objects.length;
  const report = (obj, message) => problems.push(`${overlay}: ${obj.kind}/${obj.metadata?.name}: ${message}`);
  for (const obj of objects) await validateSchema(obj, objects, report);
  for (const service of [...SERVICES, ...API_CLIENTS]) checkService(service, objects, (message) => problems.push(`${overlay}: ${service}: ${message}`));
  checkReferences(objects, report);
  checkPushChannels(objects, report);
  checkConnectionBudgets(objects, (message) => problems.push(`${overlay}: connection budget: ${message}`), (line) => budgets.push(`${overlay}: ${line}`));
}
for (const line of budgets) console.log(`k8s: connections ${line}`);

if (problems.length) {
  for (const problem of problems) console.error(`k8s: ${problem}`);
  console.error(`k8s: ${problems.length} problem(s) in ${overlayArgs.length} overlays`);
  process.exit(1);
}
console.log(`k8s: ${objectCount} objects valid in ${overlayArgs.length} overlays`);

async function validateSchema(obj, objects, report) {
  const { apiVersion, kind } = obj;
  if (apiVersion === 'kafka.strimzi.io/v1beta2') return checkStrimzi(obj, objects, report);
  const module = MODEL_MODULES[apiVersion] ?? (BUILT_IN.test(apiVersion) ? `kubernetes-models/${apiVersion}` : null);
  if (!module) return report(obj, `no schema known for ${apiVersion}: add a model package or a structural check`);
  let Model;
  try {
    Model = (await import(module))[kind];
  } catch {
    // an unknown group or version
  }
  if (!Model) return report(obj, `no schema for ${apiVersion} ${kind}`);
  try {
    new Model(obj).validate();
  } catch (error) {
    report(obj, error.message);
  }
}

// Strimzi: the fields its operator requires for what we use (KRaft, node pools, topics), since no schema package
// exists. Unknown fields are not detected.
function checkStrimzi(obj, objects, report) {
  const spec = obj.spec ?? {};
  const isInt = (value, min = 1) => Number.isInteger(value) && value >= min;
  const kafkas = objects.filter((o) => o.kind === 'Kafka').map((o) => o.metadata.name);
  const cluster = obj.metadata?.labels?.['strimzi.io/cluster'];
  if (!obj.metadata?.name) return report(obj, 'metadata.name missing');
  switch (obj.kind) {
    case 'Kafka': {
      const listeners = spec.kafka?.listeners;
      if (!Array.isArray(listeners) || !listeners.length) report(obj, 'spec.kafka.listeners missing');
      for (const l of listeners ?? []) {
        if (!l.name || !isInt(l.port) || !['internal', 'route', 'loadbalancer', 'nodeport', 'ingress', 'cluster-ip'].includes(l.type) || typeof l.tls !== 'boolean') {
          report(obj, `listener ${JSON.stringify(l)} needs name, port, type and tls`);
        }
      }
      if (spec.zookeeper) report(obj, 'KRaft mode: no spec.zookeeper');
      const pools = objects.filter((o) => o.kind === 'KafkaNodePool' && o.metadata.labels?.['strimzi.io/cluster'] === obj.metadata.name);
      if (!pools.some((p) => p.spec?.roles?.includes('controller'))) report(obj, 'KRaft mode needs a KafkaNodePool with the controller role');
      if (!pools.some((p) => p.spec?.roles?.includes('broker'))) report(obj, 'needs a KafkaNodePool with the broker role');
      if (objects.some((o) => o.kind === 'KafkaTopic') && !spec.entityOperator?.topicOperator) report(obj, 'KafkaTopics need spec.entityOperator.topicOperator');
      break;
    }
    case 'KafkaNodePool': {
      if (!kafkas.includes(cluster)) report(obj, `label strimzi.io/cluster=${cluster} names no Kafka`);
      if (!isInt(spec.replicas)) report(obj, 'spec.replicas must be a positive integer');
      if (!spec.roles?.length || spec.roles.some((r) => !['controller', 'broker'].includes(r))) report(obj, 'spec.roles must be controller and/or broker');
      const storage = spec.storage;
      const volumes = storage?.type === 'jbod' ? storage.volumes : [storage];
      if (!volumes?.length) report(obj, 'spec.storage (with volumes for jbod) missing');
      for (const v of volumes ?? []) {
        if (!['persistent-claim', 'ephemeral'].includes(v?.type)) report(obj, `storage type ${v?.type} unknown`);
        if (v?.type === 'persistent-claim' && !v.size) report(obj, 'persistent-claim storage needs a size');
        if (storage?.type === 'jbod' && !Number.isInteger(v?.id)) report(obj, 'jbod volumes need an integer id');
      }
      break;
    }
    case 'KafkaTopic': {
      if (!kafkas.includes(cluster)) report(obj, `label strimzi.io/cluster=${cluster} names no Kafka`);
      if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(obj.metadata.name)) report(obj, 'metadata.name is not a valid resource name (set spec.topicName for the topic)');
      if (!isInt(spec.partitions)) report(obj, 'spec.partitions must be a positive integer');
      const brokers = objects.filter((o) => o.kind === 'KafkaNodePool' && o.metadata.labels?.['strimzi.io/cluster'] === cluster && o.spec?.roles?.includes('broker'))
        .reduce((sum, p) => sum + (p.spec.replicas ?? 0), 0);
      if (!isInt(spec.replicas) || spec.replicas > brokers) report(obj, `spec.replicas must be between 1 and the ${brokers} brokers`);
      break;
    }
    default:
      report(obj, 'no structural check for this Strimzi kind');
  }
}

// Property keys a service knows, without profile-specific (%test.) ones: its application.properties and the
// defaults it gets from common and throttling (META-INF/microprofile-config.properties, on the classpaths of the
// services that use them).
function readProperties(service) {
  const properties = new Map();
  const files = ['common/src/main/resources/META-INF/microprofile-config.properties',
    'throttling/src/main/resources/META-INF/microprofile-config.properties',
    `${service}/src/main/resources/application.properties`];
  for (const file of files) {
    const text = readFileSync(path.join(repo, file), 'utf8');
    for (const line of text.split('\n')) {
      const match = /^\s*([^#!%\s][^=:]*?)\s*[=:]\s*(.*)$/.exec(line);
      if (match) properties.set(match[1], match[2]);
    }
  }
  return properties;
}

// Quarkus' environment variable name of a property key.
function envName(key) {
  return key.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

function checkService(service, objects, report) {
  const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === service);
  if (!deployment) return report('no Deployment');
  const pod = deployment.spec.template.spec;
  const container = pod.containers.find((c) => c.name === service);
  if (!container) return report(`no container named ${service}`);
  const properties = readProperties(service);
  const port = Number(properties.get('quarkus.http.port'));

  const http = (container.ports ?? []).find((p) => p.name === 'http');
  if (http?.containerPort !== port) report(`container port "http" is ${http?.containerPort}, quarkus.http.port is ${port}`);
  for (const [probe, expected] of Object.entries(HEALTH)) {
    const get = container[probe]?.httpGet;
    const probePort = get?.port === 'http' ? http?.containerPort : get?.port;
    if (get?.path !== expected || probePort !== port) report(`${probe} must be GET ${expected} on port ${port}, is ${get?.path} on ${probePort}`);
  }

  // Every variable the container gets, with its value where it is not a secret.
  const env = new Map();
  for (const source of container.envFrom ?? []) {
    if (!source.configMapRef) { report('envFrom only from ConfigMaps (Secrets: one secretKeyRef per variable)'); continue; }
    const configMap = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === source.configMapRef.name);
    if (!configMap) { report(`envFrom ConfigMap ${source.configMapRef.name} not in the overlay`); continue; }
    for (const [name, value] of Object.entries(configMap.data ?? {})) env.set(name, { value, from: 'configMap' });
  }
  for (const e of container.env ?? []) {
    const from = e.valueFrom?.secretKeyRef ? 'secret' : e.valueFrom?.fieldRef?.fieldPath === 'metadata.name' ? 'podName' : e.valueFrom ? 'other' : 'literal';
    env.set(e.name, { value: e.value, from });
  }

  const propertyEnvNames = new Set([...properties.keys()].map(envName));
  for (const name of env.keys()) {
    if (propertyEnvNames.has(name)) continue;
    if (name.startsWith('IM_')) report(`${name}: no matching key in ${service}'s application.properties or common's defaults`);
    else if (!KNOWN_ROOTS.test(name)) report(`${name}: neither a property of ${service} nor a QUARKUS_/KAFKA_/JAVA_ variable`);
  }
  if (API_CLIENTS.includes(service) && deployment.spec.replicas !== 1) report('replicas must be 1: its sessions live in memory');
  if (API_CLIENTS.includes(service) && objects.some((o) => o.spec?.scaleTargetRef?.name === service)) report('no autoscaler: its sessions live in memory');
  for (const name of [...(SERVICES.includes(service) ? REQUIRED_ENV.all : []), ...(REQUIRED_ENV[service] ?? [])]) {
    if (!env.has(name)) report(`${name} missing`);
  }
  for (const name of SECRET_ENV) {
    if (env.has(name) && env.get(name).from !== 'secret') report(`${name} must come from a secretKeyRef`);
  }
  for (const name of POD_NAME_ENV) {
    if (env.has(name) && env.get(name).from !== 'podName') report(`${name} must come from fieldRef metadata.name`);
  }
  if (env.get('QUARKUS_LOG_CONSOLE_JSON_ENABLED') && env.get('QUARKUS_LOG_CONSOLE_JSON_ENABLED').value !== 'true') report('QUARKUS_LOG_CONSOLE_JSON_ENABLED must be true');

  const database = (url) => /^jdbc:postgresql:\/\/[^/]+\/([^?]+)/.exec(url ?? '')?.[1];
  const wanted = database(properties.get('quarkus.datasource.jdbc.url'));
  const actual = database(env.get('QUARKUS_DATASOURCE_JDBC_URL')?.value);
  if (actual !== wanted) report(`QUARKUS_DATASOURCE_JDBC_URL names database ${actual}, the service's is ${wanted}`);

  // *_LOCATION files must be on a mounted Secret that holds them.
  for (const [name, { value }] of env) {
    if (!name.endsWith('_LOCATION')) continue;
    const mount = (container.volumeMounts ?? []).find((m) => m.mountPath === path.posix.dirname(value ?? ''));
    const volume = pod.volumes?.find((v) => v.name === mount?.name);
    const items = volume?.secret?.items;
    if (!volume?.secret || (items && !items.some((i) => i.path === path.posix.basename(value)))) {
      report(`${name}=${value} is not a file of a mounted Secret`);
    }
  }

  const podSecurity = pod.securityContext ?? {};
  const security = container.securityContext ?? {};
  if (podSecurity.runAsNonRoot !== true || podSecurity.runAsUser !== 185) report('pod must run as non-root user 185');
  if (security.readOnlyRootFilesystem !== true || security.allowPrivilegeEscalation !== false || !security.capabilities?.drop?.includes('ALL')) {
    report('container needs readOnlyRootFilesystem, no privilege escalation, capabilities drop ALL');
  }
  if (!(container.volumeMounts ?? []).some((m) => m.mountPath === '/tmp')) report('no writable /tmp (root filesystem is read-only)');
}

function checkReferences(objects, report) {
  const find = (kind, name) => objects.find((o) => o.kind === kind && o.metadata.name === name);
  const pods = objects.filter((o) => o.spec?.template?.metadata?.labels).map((o) => o.spec.template.metadata.labels);
  const selects = (selector) => pods.some((labels) => Object.entries(selector ?? {}).every(([k, v]) => labels[k] === v));
  for (const obj of objects) {
    if (obj.kind === 'Ingress') {
      const backends = [obj.spec.defaultBackend, ...(obj.spec.rules ?? []).flatMap((r) => r.http?.paths ?? []).map((p) => p.backend)];
      for (const backend of backends.filter(Boolean)) {
        const service = find('Service', backend.service?.name);
        if (!service?.spec.ports.some((p) => p.name === backend.service.port?.name || p.port === backend.service.port?.number)) {
          report(obj, `backend ${backend.service?.name}:${backend.service?.port?.name ?? backend.service?.port?.number} is no Service port`);
        }
      }
      const errorBackend = obj.metadata.annotations?.['nginx.ingress.kubernetes.io/default-backend'];
      if (errorBackend && !find('Service', errorBackend)) report(obj, `default-backend annotation: no Service ${errorBackend}`);
    }
    if (obj.kind === 'Service' && !selects(obj.spec.selector)) report(obj, 'selector matches no pod template');
    if (obj.kind === 'PodDisruptionBudget' && !selects(obj.spec.selector?.matchLabels)) report(obj, 'selector matches no pod template');
    if (['HorizontalPodAutoscaler', 'ScaledObject'].includes(obj.kind)) {
      const target = obj.spec.scaleTargetRef;
      if (!find(target.kind ?? 'Deployment', target.name)) report(obj, `scale target ${target.name} not in the overlay`);
    }
    if (obj.spec?.template?.spec?.volumes?.some((v) => v.secret?.secretName === 'imcore-jwt-private') && obj.metadata.name !== 'auth-service') {
      report(obj, 'only auth-service may mount the JWT private key');
    }
  }
}

// The channel topics push.<channel>: one per constant of push-contract's Channel enum, by its wire name.
// Other push.* topics (push.expansion: push-service's checkpoints) are no channels and push-worker reads none.
function readChannelTopics() {
  const text = readFileSync(path.join(repo, 'push-contract/src/main/java/io/imcore/pushcontract/Channel.java'), 'utf8');
  const body = text.slice(text.indexOf('enum Channel'));
  const constants = body.slice(body.indexOf('{') + 1, body.indexOf(';'));
  // each constant is NAME("wire_name", provider, ...): the topic is push.<wire name>
  return [...constants.matchAll(/[A-Z_]+\("([a-z_]+)"/g)].map((m) => `push.${m[1]}`);
}

// push-worker: one KEDA trigger per channel topic, consumer group push-worker.<channel>, no more replicas than
// partitions; in an overlay that declares KafkaTopics, every channel has one.
function checkPushChannels(objects, report) {
  const scaler = objects.find((o) => o.kind === 'ScaledObject' && o.spec.scaleTargetRef.name === 'push-worker');
  const channelTopics = readChannelTopics();
  const declared = objects.filter((o) => o.kind === 'KafkaTopic');
  const topics = declared.filter((o) => channelTopics.includes(o.spec.topicName ?? o.metadata.name));
  if (declared.length) {
    for (const name of channelTopics) {
      if (!topics.some((t) => (t.spec.topicName ?? t.metadata.name) === name)) report({ kind: 'KafkaTopic', metadata: { name: name.replace(/_/g, '-') } }, `channel topic ${name} not declared`);
    }
  }
  if (!scaler) return;
  const triggers = scaler.spec.triggers.filter((t) => t.type === 'kafka');
  for (const { metadata } of triggers) {
    const channel = metadata.topic?.replace(/^push\./, '');
    if (metadata.consumerGroup !== `push-worker.${channel}`) report(scaler, `topic ${metadata.topic}: consumer group must be push-worker.${channel}`);
    const topic = topics.find((t) => (t.spec.topicName ?? t.metadata.name) === metadata.topic);
    if (topics.length && !topic) report(scaler, `topic ${metadata.topic} is no KafkaTopic`);
    if (topic && topic.spec.partitions !== scaler.spec.maxReplicaCount) report(scaler, `maxReplicaCount ${scaler.spec.maxReplicaCount} differs from the ${topic.spec.partitions} partitions of ${metadata.topic}`);
  }
  for (const topic of topics) {
    const name = topic.spec.topicName ?? topic.metadata.name;
    if (!triggers.some((t) => t.metadata.topic === name)) report(scaler, `no trigger for topic ${name}`);
  }
}

// Connection budget (docs/operations.md "Connection budget"): on every PostgreSQL server, the pools of all the pods
// that may run at once must fit under max_connections with a reserve:
//   sum over the services on it of pool size x (max replicas + rolling-update surge) + reserve <= max_connections
// pool size: QUARKUS_DATASOURCE_JDBC_MAX_SIZE of the container (or the service's quarkus.datasource.jdbc.max-size);
// max replicas: the HPA's maxReplicas or KEDA's maxReplicaCount, else the Deployment's replicas; surge: the
// Deployment's maxSurge (default 25%, rounded up); max_connections: the CloudNativePG Cluster's parameter, or the
// server's `-c max_connections=` argument, else PostgreSQL's default 100.

function checkConnectionBudgets(objects, report, note) {
  const servers = new Map(); // database host name -> { name, limit, users: [] }, one object per PostgreSQL server
  for (const cluster of objects.filter((o) => o.kind === 'Cluster' && o.apiVersion?.startsWith('postgresql.cnpg.io/'))) {
    const limit = Number(cluster.spec.postgresql?.parameters?.max_connections ?? PG_DEFAULT_MAX_CONNECTIONS);
    servers.set(`${cluster.metadata.name}-rw`, { name: cluster.metadata.name, limit, users: [] });
  }
  for (const set of objects.filter((o) => o.kind === 'StatefulSet' || (o.kind === 'Deployment' && !SERVICES.includes(o.metadata.name)))) {
    const container = set.spec.template.spec.containers.find((c) => /(^|\/)postgres(:|$)/.test(c.image ?? ''));
    if (!container) continue;
    const args = [...(container.command ?? []), ...(container.args ?? [])].join(' ');
    const server = { name: set.metadata.name, limit: Number(/max_connections=(\d+)/.exec(args)?.[1] ?? PG_DEFAULT_MAX_CONNECTIONS), users: [] };
    for (const service of objects.filter((o) => o.kind === 'Service' && matches(o.spec?.selector, set.spec.template.metadata?.labels))) {
      servers.set(service.metadata.name, server);
    }
  }
  for (const name of SERVICES) {
    const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name);
    const container = deployment?.spec.template.spec.containers.find((c) => c.name === name);
    if (!container) continue;
    const env = environment(container, objects);
    const host = /^jdbc:postgresql:\/\/([^/:]+)/.exec(env.get('QUARKUS_DATASOURCE_JDBC_URL') ?? '')?.[1];
    const server = servers.get(host);
    if (!server) { report(`${name}: its database host ${host} is no PostgreSQL of the overlay`); continue; }
    const pool = Number(env.get('QUARKUS_DATASOURCE_JDBC_MAX_SIZE') ?? readProperties(name).get('quarkus.datasource.jdbc.max-size'));
    const scaler = objects.find((o) => (o.kind === 'HorizontalPodAutoscaler' || o.kind === 'ScaledObject') && o.spec.scaleTargetRef?.name === name);
    const replicas = scaler?.spec.maxReplicas ?? scaler?.spec.maxReplicaCount ?? deployment.spec.replicas ?? 1;
    const surgeSetting = deployment.spec.strategy?.rollingUpdate?.maxSurge ?? '25%';
    const surge = String(surgeSetting).endsWith('%') ? Math.ceil(replicas * parseInt(surgeSetting, 10) / 100) : Number(surgeSetting);
    server.users.push({ name, pool, pods: replicas + surge });
  }
  for (const { name: host, limit, users } of new Set(servers.values())) {
    if (!users.length) continue;
    const needed = users.reduce((sum, u) => sum + u.pool * u.pods, 0) + PG_RESERVED_CONNECTIONS;
    const terms = users.map((u) => `${u.name} ${u.pool} x ${u.pods}`).join(' + ');
    note(`${host}: ${terms} + ${PG_RESERVED_CONNECTIONS} reserved = ${needed} of max_connections ${limit}`);
    if (needed > limit) report(`${host}: ${needed} connections needed (${terms} + ${PG_RESERVED_CONNECTIONS} reserved), max_connections is ${limit}`);
  }
}

function matches(selector, labels) {
  return !!selector && !!labels && Object.entries(selector).every(([k, v]) => labels[k] === v);
}

// A container's plain (non-secret) environment: its ConfigMaps' data, then its own literal values.
function environment(container, objects) {
  const env = new Map();
  for (const source of container.envFrom ?? []) {
    const configMap = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === source.configMapRef?.name);
    for (const [name, value] of Object.entries(configMap?.data ?? {})) env.set(name, value);
  }
  for (const e of container.env ?? []) if (e.value !== undefined) env.set(e.name, e.value);
  return env;
}
