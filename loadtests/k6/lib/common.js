// Shared by every k6 scenario: profiles and stages, request helpers that check and tag every
// response, and a handleSummary that writes per-stage, per-endpoint figures as JSON.
//
// Environment: BASE_URL (default http://127.0.0.1:8080), PROFILE (smoke | quick | full, default
// quick; soak), STAGE (run one stage only: its VU count, or "warmup"), SUMMARY (the JSON file to write,
// default .bench/k6-<scenario>.json, see summaryFile), RECORD_WRITES=1 (log the id of every write,
// see recordWrite), DIALECT (api | hal, default api: the paths and bodies the stack speaks, lib/dialects.js).
// The open model (the fixed-rate ladder): RATE (requests/s offered, one request per iteration),
// DURATION (seconds), VUS (pre-allocated VUs) and MAX_VUS run one constant-arrival-rate step
// instead of the stages; the summary then has one stage named "rate" with the dropped iterations.
import http from 'k6/http';
import { Counter, Trend } from 'k6/metrics';
import { EXTRA_ENDPOINTS, paths } from './dialects.js';

export const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
export const PROFILE = __ENV.PROFILE || 'quick';

// Seconds. The full profile is the original study's: 60 s ramps, 10-minute stages.
const PROFILES = {
  smoke: { warmup: 3, ramp: 1, stage: 4 },
  quick: { warmup: 10, ramp: 2, stage: 12 },
  full: { warmup: 60, ramp: 60, stage: 600 },
  // One long steady stage (the runner runs only the first), to see whether memory keeps growing.
  soak: { warmup: 30, ramp: 1, stage: 600 },
};

// STAGE_SECONDS and RAMP_SECONDS override the profile's (the runner shortens the closed-model
// stages after a fixed-rate ladder, which already says what they would).
function profileTiming() {
  const timing = PROFILES[PROFILE];
  if (!timing) throw new Error(`PROFILE must be one of ${Object.keys(PROFILES).join(', ')}, not ${PROFILE}`);
  const override = (name, value) => (__ENV[name] !== undefined && __ENV[name] !== '' ? Number(__ENV[name]) : value);
  return { ...timing, stage: override('STAGE_SECONDS', timing.stage), ramp: override('RAMP_SECONDS', timing.ramp) };
}

// Statuses counted one by one when a request did not get the one it expects; 0 is a transport error.
const KNOWN_ERRORS = ['0', '400', '404', '405', '409', '413', '415', '422', '429', '500', '502', '503', '504'];
const unexpected = new Counter('unexpected_status');
const counters = {
  item_created: new Counter('items_created'),
  item_deleted: new Counter('items_deleted'),
  category_created: new Counter('categories_created'),
};
const RECORD_WRITES = __ENV.RECORD_WRITES === '1';
// One sample per operation (lib/dialects.js): its requests' durations added up. Requests/s,
// latency and the per-endpoint figures of a stage are operations', so a dialect that needs two
// requests for one operation is measured on the same work as one that needs one.
const operations = new Trend('operation_duration', true);

// Counts a write that got a 2xx (item_created, item_deleted, category_created) and, with
// RECORD_WRITES=1, logs its id: the runner runs k6 with its log in a file and looks every id up
// after the run, so a write lost after its 2xx is told apart from a commit whose answer was lost.
// item_delete_sent is logged before a delete is sent: without an item_deleted after it, the delete
// was answered otherwise or not at all, and the row may or may not be gone.
export function recordWrite(kind, id) {
  if (counters[kind]) counters[kind].add(1);
  if (RECORD_WRITES) console.log(`bench-write ${kind} ${id}`);
}

export const SEEDED_ITEMS = 100000;
export const SEEDED_CATEGORIES = 2000;

export function uniform(min, max) {
  return min + Math.floor(Math.random() * (max - min + 1));
}

// Picks one entry of [[weight, value], …] with probability weight / sum of weights.
export function pick(weighted) {
  const total = weighted.reduce((sum, [w]) => sum + w, 0);
  let r = Math.random() * total;
  for (const [w, value] of weighted) {
    if ((r -= w) < 0) return value;
  }
  return weighted[weighted.length - 1][1];
}

// Every response is checked: an unexpected status is counted per response, not per operation.
function record(res, endpoint, expected) {
  if (res.status !== expected) {
    const status = KNOWN_ERRORS.includes(String(res.status)) ? String(res.status) : 'other';
    unexpected.add(1, { endpoint, status });
  }
  return res;
}

// One operation of `endpoint`, done: the responses it took, in the dialect.
function operation(endpoint, ...responses) {
  operations.add(responses.reduce((sum, res) => sum + res.timings.duration, 0), { endpoint });
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };

function one(res, endpoint, expected) {
  record(res, endpoint, expected);
  operation(endpoint, res);
  return res;
}

export function get(path, endpoint, expected = paths.status.read) {
  return one(http.get(BASE_URL + path, { tags: { endpoint } }), endpoint, expected);
}

// Creates keep their response body (the API's new id); every other body is discarded unread.
export function post(path, body, endpoint, expected = paths.status.create) {
  return one(http.post(BASE_URL + path, body, { headers: JSON_HEADERS, tags: { endpoint }, responseType: 'text' }),
    endpoint, expected);
}

export function put(path, body, endpoint, expected = paths.status.replace) {
  return one(http.put(BASE_URL + path, body, { headers: JSON_HEADERS, tags: { endpoint } }), endpoint, expected);
}

export function del(path, endpoint, expected = paths.status.delete) {
  return one(http.del(BASE_URL + path, null, { tags: { endpoint } }), endpoint, expected);
}

// The writes of the scenarios, in the stack's dialect. `item` is {sku, name, price, stock,
// description, category}: the same values whatever the dialect.

// The new item's id, or null when the create got another status than its dialect's.
export function createItem(item, endpoint = 'item_create') {
  const res = post(paths.items, paths.itemBody(item), endpoint);
  return res.status === paths.status.create ? paths.createdId(res) : null;
}

export function createCategory(category, endpoint = 'category_create') {
  const res = post(paths.categories, paths.categoryBody(category), endpoint);
  return res.status === paths.status.create ? paths.createdId(res) : null;
}

export function deleteItem(id, endpoint = 'item_delete') {
  return del(`${paths.items}/${id}`, endpoint).status === paths.status.delete;
}

// Replaces every field of item `id` and puts it in `item.category`. Where a PUT ignores the
// category (HAL), the move is a second request, shown as its own endpoint (EXTRA_ENDPOINTS) and
// counted with the first as one operation; it is not sent when the first failed.
export function replaceItem(id, item, endpoint = 'item_replace') {
  const res = http.put(`${BASE_URL}${paths.items}/${id}`, paths.itemBody(item),
    { headers: JSON_HEADERS, tags: { endpoint } });
  record(res, endpoint, paths.status.replace);
  const move = paths.categoryMove;
  if (!move || res.status !== paths.status.replace) {
    operation(endpoint, res);
    return res;
  }
  const [extra] = EXTRA_ENDPOINTS[endpoint];
  const moved = http.put(BASE_URL + move.path(id), move.body(item.category),
    { headers: { 'Content-Type': move.contentType }, tags: { endpoint: extra } });
  record(moved, extra, move.status);
  operation(endpoint, res, moved);
  return moved;
}

// A description of exactly `bytes` ASCII characters.
export function text(bytes) {
  const unit = 'The quick brown fox jumps over the lazy dog. ';
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

// Unique across k6 runs (the start time) and VUs, so creates never collide on sku or code.
const RUN_ID = Date.now().toString(36);
export function uniqueKey(prefix) {
  return `${prefix}${RUN_ID}-${__VU}-${__ITER}`;
}

// `metric` restricted to samples with `tags` ('stage:50', 'endpoint:item_create'), as k6 names
// a sub-metric; the metric itself without tags.
function sub(metric, ...tags) {
  const set = tags.filter(Boolean);
  return set.length ? `${metric}{${set.join(',')}}` : metric;
}

// Thresholds that always pass make k6 keep the sub-metrics the summary reads (stageFigures) for
// `stage` (null: every sample of the run). Only those: k6 matches every sample of a metric
// against each of its sub-metrics, so one kept and never read costs CPU on every request.
function summaryThresholds(stage, operationEndpoints) {
  const thresholds = {};
  const keep = (metric, condition) => { thresholds[metric] = [condition]; };
  if (stage) {
    keep(sub('operation_duration', stage), 'max>=0');
    keep(sub('data_received', stage), 'count>=0');
  }
  for (const endpoint of operationEndpoints) {
    keep(sub('operation_duration', stage, `endpoint:${endpoint}`), 'max>=0');
    for (const extra of EXTRA_ENDPOINTS[endpoint] || []) {
      keep(sub('http_req_duration', stage, `endpoint:${extra}`), 'max>=0');
      keep(sub('http_reqs', stage, `endpoint:${extra}`), 'count>=0');
    }
  }
  for (const status of [...KNOWN_ERRORS, 'other']) {
    keep(sub('unexpected_status', stage, `status:${status}`), 'count>=0');
  }
  return thresholds;
}

/**
 * k6 options for a scenario: stages of VUs (e.g. [50, 100, 200]), each a ramp (not counted)
 * then a steady phase tagged with its stage; a warm-up at the first stage's VUs comes first.
 */
export function options(stages, operationEndpoints) {
  const timing = profileTiming();
  if (__ENV.RATE) return rateOptions(operationEndpoints);
  const only = __ENV.STAGE;
  if (only && only !== 'warmup' && !stages.includes(Number(only))) {
    throw new Error(`STAGE must be warmup or one of ${stages.join(', ')}, not ${only}`);
  }
  const scenarios = {};
  let start = 0;
  const add = (name, spec, seconds) => {
    scenarios[name] = { ...spec, startTime: `${start}s`, gracefulStop: '5s' };
    start += seconds;
  };
  if (!only || only === 'warmup') {
    add('warmup', { executor: 'constant-vus', vus: stages[0], duration: `${timing.warmup}s`, tags: { phase: 'warmup' } },
      timing.warmup);
  }
  let previous = only && only !== 'warmup' ? 1 : stages[0];
  for (const vus of stages) {
    if (only && String(vus) !== only) continue;
    if (timing.ramp > 0 && vus !== previous) {
      add(`ramp_${vus}`, {
        executor: 'ramping-vus', startVUs: previous, stages: [{ duration: `${timing.ramp}s`, target: vus }],
        gracefulRampDown: '5s', tags: { phase: 'ramp' },
      }, timing.ramp);
    }
    add(`stage_${vus}`, { executor: 'constant-vus', vus, duration: `${timing.stage}s`,
      tags: { phase: 'steady', stage: String(vus) } }, timing.stage);
    previous = vus;
  }
  const thresholds = {};
  for (const vus of stages) {
    if (!only || String(vus) === only) Object.assign(thresholds, summaryThresholds(`stage:${vus}`, operationEndpoints));
  }
  return {
    scenarios,
    thresholds,
    maxRedirects: 0,
    discardResponseBodies: true,
    summaryTrendStats: TREND_STATS,
  };
}

const TREND_STATS = ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'p(99.9)', 'max', 'count'];

// One step of the fixed-rate ladder: RATE iterations (requests) per second for DURATION seconds,
// whatever the answers' latency (the open model: a slow answer does not delay the next arrival).
// The run is that one step, so its figures are every sample's: no sub-metric per stage.
function rateOptions(operationEndpoints) {
  const rate = Number(__ENV.RATE);
  const duration = Number(__ENV.DURATION || 10);
  const preAllocatedVUs = Number(__ENV.VUS || Math.max(10, Math.ceil(rate / 10)));
  const maxVUs = Math.max(preAllocatedVUs, Number(__ENV.MAX_VUS || preAllocatedVUs * 2));
  if (!(rate > 0) || !(duration > 0)) throw new Error(`RATE and DURATION must be positive, not ${rate}, ${duration}`);
  const thresholds = summaryThresholds(null, operationEndpoints);
  return {
    scenarios: {
      rate: {
        executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration: `${duration}s`, preAllocatedVUs, maxVUs,
        gracefulStop: '5s', tags: { phase: 'steady', stage: 'rate' },
      },
    },
    thresholds,
    maxRedirects: 0,
    discardResponseBodies: true,
    summaryTrendStats: TREND_STATS,
  };
}

function trend(metric) {
  if (!metric) return null;
  const v = metric.values;
  return {
    avg: v.avg, p50: v.med, p90: v['p(90)'], p95: v['p(95)'], p99: v['p(99)'], p999: v['p(99.9)'], max: v.max,
    min: v.min,
  };
}

function count(data, name) {
  const metric = data.metrics[name];
  return metric ? metric.values.count : 0;
}

// Operations (lib/dialects.js), not HTTP requests: `requests`, `rps`, `latency_ms` and each
// endpoint's figures; an extra request of an operation (EXTRA_ENDPOINTS) is shown as an endpoint
// of its own with its HTTP figures. Unexpected statuses are counted per response.
// `stage`: the stage's tag ('stage:50'), or null for every sample of the run (a fixed-rate step).
function stageFigures(data, stage, operationEndpoints, seconds) {
  const requests = count(data, sub('operation_duration', stage));
  const errors = {};
  for (const status of [...KNOWN_ERRORS, 'other']) {
    const n = count(data, sub('unexpected_status', stage, `status:${status}`));
    if (n > 0) errors[status] = n;
  }
  const perEndpoint = {};
  for (const endpoint of operationEndpoints) {
    const operation = sub('operation_duration', stage, `endpoint:${endpoint}`);
    perEndpoint[endpoint] = { requests: count(data, operation), latency_ms: trend(data.metrics[operation]) };
    for (const extra of EXTRA_ENDPOINTS[endpoint] || []) {
      perEndpoint[extra] = {
        requests: count(data, sub('http_reqs', stage, `endpoint:${extra}`)),
        latency_ms: trend(data.metrics[sub('http_req_duration', stage, `endpoint:${extra}`)]),
      };
    }
  }
  return {
    requests,
    rps: requests / seconds,
    latency_ms: trend(data.metrics[sub('operation_duration', stage)]),
    errors,
    error_count: Object.values(errors).reduce((a, b) => a + b, 0),
    bytes_received: count(data, sub('data_received', stage)),
    endpoints: perEndpoint,
  };
}

function writesCounted(data) {
  return {
    items_created: count(data, 'items_created'),
    items_deleted: count(data, 'items_deleted'),
    categories_created: count(data, 'categories_created'),
  };
}

// How long the scenarios ran, graceful stop included, without k6's start-up and summary: the
// runner divides the roles' CPU by it, which the wall time of the whole process would dilute.
function runSeconds(data) {
  return data.state && data.state.testRunDurationMs ? data.state.testRunDurationMs / 1000 : null;
}

// Where the runner keeps its state ($BENCH_HOME, else .bench/ from the checkout's root, where the
// README runs .bench/bin/k6), not the checkout itself, where the file would lie untracked. k6
// makes no directory for it: compose.yaml's k6 service names one its container has.
function summaryFile(scenario) {
  return __ENV.SUMMARY || `${(__ENV.BENCH_HOME || '.bench').replace(/\/$/, '')}/k6-${scenario}.json`;
}

function rateSummary(scenario, endpoints, data) {
  const duration = Number(__ENV.DURATION || 10);
  const rate = Number(__ENV.RATE);
  const figures = stageFigures(data, null, endpoints, duration);
  const vusMax = data.metrics.vus_max ? data.metrics.vus_max.values.max : null;
  const result = {
    scenario,
    profile: PROFILE,
    base_url: BASE_URL,
    stage_seconds: duration,
    stages: [{ vus: vusMax || 1, offered_rps: rate, dropped_iterations: count(data, 'dropped_iterations'), ...figures }],
    writes: writesCounted(data),
    total_requests: count(data, 'operation_duration'),
    run_seconds: runSeconds(data),
  };
  const file = summaryFile(scenario);
  const s = result.stages[0];
  const line = `${scenario} @ ${rate} req/s offered: ${s.rps.toFixed(0)} req/s, p99 `
    + `${s.latency_ms ? s.latency_ms.p99.toFixed(1) : '-'} ms, ${s.error_count} unexpected statuses, `
    + `${s.dropped_iterations} dropped iterations`;
  return { [file]: JSON.stringify(result, null, 2), stdout: `${line}\nsummary written to ${file}\n` };
}

export function summary(scenario, stages, endpoints, data) {
  if (__ENV.RATE) return rateSummary(scenario, endpoints, data);
  const timing = profileTiming();
  const only = __ENV.STAGE;
  const ran = stages.filter((vus) => !only || String(vus) === only);
  const result = {
    scenario,
    profile: PROFILE,
    base_url: BASE_URL,
    stage_seconds: timing.stage,
    stages: (only === 'warmup' ? [] : ran).map((vus) => ({
      vus, ...stageFigures(data, `stage:${vus}`, endpoints, timing.stage),
    })),
    writes: writesCounted(data),
    total_requests: count(data, 'operation_duration'),
    run_seconds: runSeconds(data),
  };
  const file = summaryFile(scenario);
  const lines = result.stages.map((s) => `${scenario} @ ${s.vus} VUs: ${s.rps.toFixed(0)} req/s, `
    + `p99 ${s.latency_ms ? s.latency_ms.p99.toFixed(1) : '-'} ms, ${s.error_count} unexpected statuses`);
  return { [file]: JSON.stringify(result, null, 2), stdout: `${lines.join('\n')}\nsummary written to ${file}\n` };
}
