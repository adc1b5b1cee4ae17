// k6 with the per-iteration work moved out of the iteration: the step's requests, drawn ahead by
// the runner (bench.measure.load.step_requests's RequestMix, bodies included) and written as vegeta's JSON
// targets, are read once at start-up; an iteration sends the next one and does nothing else (no
// body built, no custom metric, no tag, no check). The candidate k6 was measured as against vegeta;
// compare.py runs it.
//
// Environment: TARGETS (the targets file), RATE (requests/s), DURATION (seconds), VUS
// (pre-allocated; twice as many at most), SUMMARY (the JSON file to write).
import http from 'k6/http';
import exec from 'k6/execution';
import encoding from 'k6/encoding';
import { SharedArray } from 'k6/data';

const targets = new SharedArray('targets', () => open(__ENV.TARGETS).split('\n').filter(Boolean).map((line) => {
  const target = JSON.parse(line);
  return {
    method: target.method,
    url: target.url.split('#')[0],
    body: target.body ? encoding.b64decode(target.body, 'std', 's') : null,
    params: target.header ? { headers: { 'Content-Type': target.header['Content-Type'][0] } } : {},
  };
}));

const vus = Number(__ENV.VUS || 20);

export const options = {
  scenarios: {
    rate: {
      executor: 'constant-arrival-rate', rate: Number(__ENV.RATE), timeUnit: '1s', duration: `${__ENV.DURATION}s`,
      preAllocatedVUs: vus, maxVUs: 2 * vus, gracefulStop: '5s',
    },
  },
  discardResponseBodies: true,
  maxRedirects: 0,
  summaryTrendStats: ['p(99)', 'count'],
};

export default function () {
  const target = targets[exec.scenario.iterationInTest % targets.length];
  http.request(target.method, target.url, target.body, target.params);
}

export function handleSummary(data) {
  const metric = (name) => data.metrics[name];
  return {
    [__ENV.SUMMARY]: JSON.stringify({
      requests: metric('http_reqs').values.count,
      p99_ms: metric('http_req_duration').values['p(99)'],
      failed: metric('http_req_failed') ? metric('http_req_failed').values.passes : 0,
      dropped_iterations: metric('dropped_iterations') ? metric('dropped_iterations').values.count : 0,
    }),
  };
}
