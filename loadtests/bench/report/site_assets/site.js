// The results page: draws the summary table, one chart per scenario and two stacks side by side
// from window.BENCH_RESULTS (data.js, written by `./bench report` from the raw JSON files). Every
// figure links to the raw file it comes from. No build step, no library but Chart.js.
'use strict';

(function () {
  const DATA = window.BENCH_RESULTS;

  // What the summary's scenario columns show, and which figure of each ladder step the charts
  // draw with it (capacity is where the p99 line leaves the objective).
  const METRICS = {
    capacity: {label: 'capacity at objective', unit: 'req/s', digits: 0, higherIsBetter: true, step: 'p99'},
    p99: {label: 'p99 at the common rate', unit: 'ms', digits: 1, higherIsBetter: false, step: 'p99'},
    cores: {
      label: 'app cores per 1,000 req/s at the common rate', unit: 'cores', digits: 3,
      higherIsBetter: false, step: 'cores',
    },
    postgres: {
      label: 'PostgreSQL CPU per request at the common rate', unit: 'ms', digits: 3,
      higherIsBetter: false, step: 'postgres',
    },
  };
  const STEP_AXES = {
    p99: 'p99 latency, ms (log scale)',
    cores: 'app cores per 1,000 req/s (log scale)',
    postgres: 'PostgreSQL CPU ms per request (log scale)',
  };
  // Where the long one does not fit the axis (a phone, under a tall legend).
  const STEP_AXES_SHORT = {p99: 'p99, ms (log)', cores: 'cores per 1k req/s (log)', postgres: 'PostgreSQL ms/req (log)'};
  const PROCESS_COLUMNS = [
    {key: 'idle_mib', label: 'idle MiB', digits: 0, higherIsBetter: false},
    {key: 'peak_mib', label: 'peak MiB', digits: 0, higherIsBetter: false},
    {key: 'smallest_cap_mib', label: 'smallest cap MiB', digits: 0, higherIsBetter: false},
    {key: 'startup_s', label: 'start-up s', digits: 2, higherIsBetter: false},
    {key: 'steady_s', label: 'to steady state s', digits: 0, higherIsBetter: false},
  ];
  const DIALECTS = {api: 'API', hal: 'HAL'};
  const WARMUP_CLASSES = 'Its runs by the state they were measured in: steady (the warm-up settled, and a step ' +
    'of the ladder run again after it cost within 10% of the first), still warming (the repeat cheaper by more), ' +
    'slowing (dearer by more), not settled (the warm-up reached its cap)';
  const MEAN_TIER = 'the mean of its tiers over the scenarios shown (1 the highest); stacks whose capacity ranges ' +
    'over all runs overlap share a tier, so the order inside a tier means nothing';
  // Tableau 10: distinct for the eye and in grey print; ceilings are grey and dashed.
  const COLOURS = [
    '#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f',
    '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#2f4b7c',
  ];
  const CEILING_COLOUR = '#6b6b6b';

  const stacks = DATA.stacks.filter((s) => !s.ceiling);
  const ceilings = DATA.stacks.filter((s) => s.ceiling);
  const colourOf = new Map(stacks.map((s, i) => [s.label, COLOURS[i % COLOURS.length]]));
  ceilings.forEach((s) => colourOf.set(s.label, CEILING_COLOUR));

  const state = {
    scenarios: new Set(DATA.scenarios.map((s) => s.name)),
    stacks: new Set(DATA.stacks.map((s) => s.label)),
    languages: new Set(stacks.map((s) => s.language)),
    dialects: new Set(stacks.map((s) => s.dialect)),
    metric: 'capacity',
    sort: null, // {key, descending}; null: the mean tier (results.md's order), else the first scenario
  };
  const charts = new Map(); // scenario name -> Chart
  const firstMinuteCharts = []; // the first minute's, drawn again when the filters change

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
    }
    for (const child of children) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  function fmt(value, digits) {
    if (value === null || value === undefined) return '–';
    return value.toLocaleString('en-US', {minimumFractionDigits: digits, maximumFractionDigits: digits});
  }

  // A figure as a link to its raw file, with its min–max over runs where they differ.
  function figureLink(figure, digits) {
    if (!figure || figure.value === null) return null;
    const many = figure.count > 1;
    const link = el('a', {
      href: figure.href,
      title: many
        ? `median of ${figure.count} ${figure.of}s (${fmt(figure.low, digits)}–${fmt(figure.high, digits)}); ` +
          `opens the raw file of the ${figure.of} at the median`
        : 'opens the raw file',
    }, fmt(figure.value, digits));
    const range = many && figure.low !== figure.high
      ? el('span', {class: 'range'}, ` (${fmt(figure.low, digits)}–${fmt(figure.high, digits)})`)
      : null;
    return [link, range];
  }

  function figureCell(figure, digits, empty) {
    const parts = figureLink(figure, digits);
    const cell = el('td', {class: 'figure'});
    if (parts) cell.append(...parts.filter(Boolean));
    else cell.append(empty || '–');
    return cell;
  }

  // A process figure; a time to steady state says how many of its warm-ups reached the cap, as
  // results.md does: such a time is the cap, not a measurement.
  function processCell(stack, column) {
    const cell = figureCell(stack[column.key], column.digits);
    if (column.key === 'steady_s' && stack.steady_capped) {
      cell.append(el('span', {class: 'range'}, ` (${stack.steady_capped}/${stack[column.key].count} at cap)`));
    }
    return cell;
  }

  function scenarioCell(stack, scenario) {
    const figures = stack.scenarios[scenario.name];
    if (!figures) return el('td', {class: 'absent', title: 'not measured in this scenario'});
    const held = state.metric === 'capacity' && figures.held_no_rate;
    // A run that held no rate counts as 0 req/s (docs/method.md): every run's 0 is "none held".
    if (held && !figures.capacity.high) {
      return el('td', {class: 'figure'}, el('a', {href: figures.files[0], title: 'held no rate in any run'}, 'none held'));
    }
    const cell = figureCell(figures[state.metric], METRICS[state.metric].digits);
    if (state.metric === 'capacity' && figures.capacity_lower_bound) {
      cell.prepend(el('span', {title: 'a lower bound: every rate held, or the load generator used half its CPUs or more at the step not held'}, '≥ '));
    }
    if (held) {
      cell.append(el('span', {class: 'range'}, ` · held no rate in ${figures.held_no_rate} of ${figures.runs} runs`));
    }
    // A figure at the common rate is the runs' that held it: said where not every run did, and
    // marked where a probe's few seconds are among its steps.
    if (state.metric !== 'capacity' && figures[state.metric].value !== null) {
      const flag = el('span', {class: 'flag', title: 'a step at this rate is a short probe'}, ' †');
      if (figures.common_probe) cell.querySelector('a').after(flag);
      if (figures.common_held < figures.runs) {
        cell.append(el('span', {class: 'range'}, `${figures.common_held} of ${figures.runs} runs held it`));
      }
    }
    if (state.metric === 'capacity' && figures.tier !== null) {
      cell.append(el('span', {class: 'tier', title: `tier ${figures.tier} of ${scenario.name}`}, ` T${figures.tier}`));
    }
    return cell;
  }

  function visible(stack) {
    if (!state.stacks.has(stack.label)) return false;
    // A ceiling has no language or dialect of its own (pgbench, nginx): only the stack filter hides it.
    if (stack.ceiling) return true;
    return state.languages.has(stack.language) && state.dialects.has(stack.dialect);
  }

  function shownScenarios() {
    return DATA.scenarios.filter((s) => state.scenarios.has(s.name));
  }

  // Recomputed over the scenarios shown, so that unchecking one changes the order it decided.
  function meanTier(stack) {
    const numbers = shownScenarios()
      .map((s) => stack.scenarios[s.name])
      .filter((figures) => figures && figures.tier !== null)
      .map((figures) => figures.tier);
    return numbers.length ? numbers.reduce((sum, n) => sum + n, 0) / numbers.length : null;
  }

  function sortValue(stack, key) {
    if (key === 'stack') return stack.label;
    if (key === 'tier') return meanTier(stack);
    if (key.startsWith('scenario:')) {
      const figures = stack.scenarios[key.slice('scenario:'.length)];
      return figures ? figures[state.metric].value : null;
    }
    return stack[key].value;
  }

  function currentSort() {
    if (state.sort) return state.sort;
    if (state.metric === 'capacity' && stacks.filter(visible).some((s) => meanTier(s) !== null)) {
      return {key: 'tier', descending: false};
    }
    const first = shownScenarios()[0];
    if (!first) return {key: 'stack', descending: false};
    return {key: `scenario:${first.name}`, descending: METRICS[state.metric].higherIsBetter};
  }

  function sorted(rows) {
    const {key, descending} = currentSort();
    return rows.slice().sort((a, b) => {
      const x = sortValue(a, key);
      const y = sortValue(b, key);
      if (x === y) return a.label.localeCompare(b.label);
      if (x === null) return 1; // unmeasured last, whichever the direction
      if (y === null) return -1;
      const order = typeof x === 'string' ? x.localeCompare(y) : x - y;
      return descending ? -order : order;
    });
  }

  function sortHeader(text, key, higherIsBetter, title) {
    const {key: current, descending} = currentSort();
    const mark = key === current ? (descending ? ' ▼' : ' ▲') : '';
    const button = el('button', {type: 'button', title: title || 'sort by this column'}, text + mark);
    button.addEventListener('click', () => {
      state.sort = key === current ? {key, descending: !descending} : {key, descending: higherIsBetter};
      renderSummary();
    });
    return el('th', {scope: 'col', 'data-key': key}, button);
  }

  function renderSummary() {
    const metric = METRICS[state.metric];
    const scenarios = shownScenarios();
    const table = document.getElementById('summary');
    table.replaceChildren();
    table.append(el('caption', {}, `Scenario columns: ${metric.label}, ${metric.unit}.`));
    renderTiers(scenarios);
    const head = el('tr', {},
      sortHeader('stack', 'stack', false),
      el('th', {scope: 'col'}, 'language'),
      el('th', {scope: 'col'}, 'dialect'),
      ...scenarios.map((s) => sortHeader(s.name, `scenario:${s.name}`, metric.higherIsBetter, metric.label)),
      sortHeader('mean tier', 'tier', false, MEAN_TIER),
      ...PROCESS_COLUMNS.map((c) => sortHeader(c.label, c.key, c.higherIsBetter)),
      el('th', {scope: 'col', title: WARMUP_CLASSES}, 'warm-up classes'),
    );
    table.append(el('thead', {}, head));
    const body = el('tbody');
    const columns = scenarios.length + 1 + PROCESS_COLUMNS.length + 1;
    const row = (stack) => (stack.measured ? measuredRow(stack) : unmeasuredRow(stack, columns));
    const measuredRow = (stack) => el('tr', {'data-stack': stack.label, class: stack.ceiling ? 'ceiling' : null},
      el('th', {scope: 'row', title: `${stack.display}; ${stack.framework}; ${stack.data_access}`},
        el('span', {class: 'swatch', style: `background:${colourOf.get(stack.label)}`}), stack.label),
      el('td', {}, stack.ceiling ? '–' : stack.language),
      el('td', {}, stack.dialect ? DIALECTS[stack.dialect] || stack.dialect : '–'),
      ...scenarios.map((s) => scenarioCell(stack, s)),
      el('td', {class: 'derived', title: MEAN_TIER}, stack.ceiling ? 'ceiling' : fmt(meanTier(stack), 1)),
      // A ceiling is pgbench or nginx, not a stack's process: it has no start-up or memory to show.
      ...PROCESS_COLUMNS.map((c) => (stack.ceiling ? el('td', {class: 'figure'}, '–') : processCell(stack, c))),
      el('td', {title: WARMUP_CLASSES}, stack.warmup_classes),
    );
    // Ceilings are the machine's limits, not contenders: above the stacks, never ranked.
    for (const ceiling of ceilings.filter(visible)) body.append(row(ceiling));
    for (const stack of sorted(stacks.filter(visible))) body.append(row(stack));
    table.append(body);
    const nothing = !scenarios.length || !stacks.some(visible);
    document.getElementById('empty').hidden = !nothing;
    table.hidden = nothing;
  }

  // A stack of the repository that no raw file holds: there to be found, and said so.
  function unmeasuredRow(stack, columns) {
    return el('tr', {'data-stack': stack.label, class: 'unmeasured'},
      el('th', {scope: 'row', title: `${stack.display}; ${stack.framework}; ${stack.data_access}`}, stack.label),
      el('td', {}, stack.language),
      el('td', {}, DIALECTS[stack.dialect] || stack.dialect),
      el('td', {colspan: columns, class: 'absent'}, 'not measured yet'));
  }

  // Per scenario shown, its tiers as the raw files decided them over every stack measured, each
  // with the stacks the filters leave: its range is theirs, and a tier they leave empty goes.
  function renderTiers(scenarios) {
    const list = document.getElementById('tiers');
    list.replaceChildren();
    const shown = new Set(stacks.filter(visible).map((s) => s.label));
    for (const scenario of scenarios) {
      const said = [];
      for (const tier of scenario.tiers) {
        const members = tier.stacks.filter((label) => shown.has(label));
        if (!members.length) continue;
        const low = Math.min(...members.map((label) => tier.ranges[label][0]));
        const high = Math.max(...members.map((label) => tier.ranges[label][1]));
        said.push(`T${tier.number}: ${members.join(', ')} (${tierRange(low, high)})`);
      }
      if (!said.length) continue;
      const bound = scenario.bound ? `. Stopped by ${scenario.bound}.` : '';
      list.append(el('li', {'data-scenario': scenario.name}, el('strong', {}, scenario.name), ` ${said.join('; ')}${bound}`));
    }
  }

  // A run that held no rate counts as 0 req/s in a range; a range of such runs alone is said as
  // the summary says it.
  function tierRange(low, high) {
    if (high === 0) return 'none held';
    return low === high ? `${fmt(low, 0)} req/s` : `${fmt(low, 0)}–${fmt(high, 0)} req/s`;
  }

  function datasetsFor(scenario) {
    const key = METRICS[state.metric].step;
    const datasets = [];
    for (const stack of [...ceilings, ...stacks].filter(visible)) {
      const figures = stack.scenarios[scenario.name];
      if (!figures) continue;
      const steps = figures.steps.filter((s) => s[key] !== null && s[key] > 0);
      if (!steps.length) continue;
      const colour = colourOf.get(stack.label);
      datasets.push({
        label: stack.label,
        stackLabel: stack.label,
        data: steps.map((s) => ({x: s.offered, y: s[key], step: s})),
        borderColor: colour,
        backgroundColor: colour,
        borderDash: stack.ceiling ? [6, 4] : [],
        borderWidth: 2,
        // Held in every run: a dot; in some: a triangle; in none: a cross.
        pointStyle: steps.map((s) => (s.held === s.runs ? 'circle' : s.held ? 'triangle' : 'crossRot')),
        pointRadius: steps.map((s) => (s.held === s.runs ? 3.5 : 6)),
        pointHoverRadius: 7,
        // The point of the step not held often lies on the top edge: drawn whole, not cut by it.
        clip: false,
      });
    }
    if (key === 'p99' && scenario.objective_p99_ms && scenario.rates.length) {
      const objective = scenario.objective_p99_ms;
      datasets.push({
        label: `p99 objective, ${fmt(objective, 0)} ms`,
        data: [{x: scenario.rates[0], y: objective}, {x: scenario.rates[scenario.rates.length - 1], y: objective}],
        borderColor: '#999999',
        borderDash: [2, 3],
        borderWidth: 1.5,
        pointRadius: 0,
        pointHoverRadius: 0,
      });
    }
    return datasets;
  }

  // Log axes label only 1, 2 and 5 times a power of ten: Chart.js's own labels crowd each other.
  function logTick(value) {
    const power = 10 ** Math.floor(Math.log10(value));
    const mantissa = Math.round(value / power);
    if (![1, 2, 5].includes(mantissa) || Math.abs(value / power - mantissa) > 1e-6) return '';
    return value.toLocaleString('en-US', {maximumFractionDigits: 3});
  }

  function tooltipLabel(context) {
    const step = context.raw.step;
    if (!step) return context.dataset.label;
    const key = METRICS[state.metric].step;
    const held = step.runs > 1 ? `held in ${step.held} of ${step.runs} runs` : step.held ? 'held' : 'not held';
    return `${context.dataset.label}: ${fmt(step[key], 2)} at ${fmt(step.offered, 0)} req/s offered ` +
      `(${fmt(step.delivered, 0)} delivered), ${held}; click for the raw file`;
  }

  function openStep(event, elements, chart) {
    const hit = elements[0];
    if (!hit) return;
    const point = chart.data.datasets[hit.datasetIndex].data[hit.index];
    if (point.step) window.location.href = point.step.href;
  }

  function rawFiles(scenario) {
    const list = el('p', {class: 'files'}, 'Raw files: ');
    for (const stack of [...ceilings, ...stacks].filter(visible)) {
      const figures = stack.scenarios[scenario.name];
      if (!figures || !figures.files.length) continue;
      list.append(el('span', {class: 'file-group'}, `${stack.label} `,
        ...figures.files.map((href, i) => el('a', {href}, `run ${i + 1}`))
          .flatMap((link, i) => (i ? [' ', link] : [link]))));
    }
    return list;
  }

  function buildCharts() {
    const container = document.getElementById('charts');
    for (const scenario of DATA.scenarios) {
      const card = el('figure', {class: 'chart-card', 'data-scenario': scenario.name});
      // In the document before Chart.js sizes its canvas from the box around it.
      container.append(card);
      const rates = scenario.rates.map((r) => fmt(r, 0)).join(', ');
      const common = scenario.common_rate === null ? 'none (no stack held a rate)' : `${fmt(scenario.common_rate, 0)} req/s`;
      card.append(el('figcaption', {},
        el('h3', {}, scenario.name),
        scenario.ladder
          ? el('span', {class: 'note'},
            `p99 objective ${fmt(scenario.objective_p99_ms, 0)} ms; offered ${rates} req/s; common rate ${common}.`)
          : el('span', {class: 'note'}, 'No fixed-rate ladder in these records (measured before it existed).')));
      if (scenario.ladder) {
        const canvas = el('canvas', {'data-scenario': scenario.name, role: 'img',
          'aria-label': `${scenario.name}: latency against offered load`});
        card.append(el('div', {class: 'chart-box'}, canvas));
        charts.set(scenario.name, new Chart(canvas, {
          type: 'line',
          data: {datasets: datasetsFor(scenario)},
          options: {
            animation: false,
            layout: {padding: {top: 8, right: 8}},
            responsive: true,
            maintainAspectRatio: false,
            interaction: {mode: 'nearest', intersect: true},
            scales: {
              x: {
                type: 'logarithmic',
                title: {display: true, text: 'offered load, req/s (log scale)'},
                // A tick at each offered rate of the ladder, and only there.
                afterBuildTicks: (axis) => {
                  axis.ticks = scenario.rates.map((value) => ({value}));
                },
                ticks: {callback: (value) => fmt(value, 0), maxRotation: 0},
              },
              y: {
                type: 'logarithmic',
                title: {display: true, text: STEP_AXES[METRICS[state.metric].step]},
                ticks: {callback: logTick},
              },
            },
            plugins: {
              legend: {position: 'bottom', labels: {boxWidth: 14}},
              tooltip: {callbacks: {label: tooltipLabel}},
            },
            onClick: openStep,
          },
        }));
      }
      card.append(rawFiles(scenario));
    }
  }

  function updateCharts() {
    const key = METRICS[state.metric].step;
    document.getElementById('charts-title').textContent =
      key === 'p99' ? 'Latency against offered load' : `${METRICS[state.metric].label}: per offered load`;
    for (const card of document.querySelectorAll('#charts .chart-card')) {
      const scenario = DATA.scenarios.find((s) => s.name === card.dataset.scenario);
      card.hidden = !state.scenarios.has(scenario.name);
      card.querySelector('.files').replaceWith(rawFiles(scenario));
      const chart = charts.get(scenario.name);
      if (!chart) continue;
      chart.data.datasets = datasetsFor(scenario);
      chart.options.scales.y.title.text = STEP_AXES[key];
      chart.update();
      fitYTitle(chart);
    }
  }

  // The y-axis title as long as the axis leaves room for, measured after the layout: the title
  // is one line either way, so changing it does not move the axis.
  function fitYTitle(chart) {
    const key = METRICS[state.metric].step;
    const scale = chart.scales.y;
    if (!scale) return;
    chart.ctx.save();
    chart.ctx.font = Chart.helpers.toFont(scale.options.title.font).string;
    const room = scale.bottom - scale.top;
    const text = chart.ctx.measureText(STEP_AXES[key]).width <= room ? STEP_AXES[key] : STEP_AXES_SHORT[key];
    chart.ctx.restore();
    if (chart.options.scales.y.title.text !== text) {
      chart.options.scales.y.title.text = text;
      chart.update();
    }
  }

  function compareRows(a, b) {
    const rows = [];
    for (const scenario of shownScenarios()) {
      for (const [key, metric] of Object.entries(METRICS)) {
        rows.push({
          label: `${scenario.name}: ${metric.label}, ${metric.unit}`,
          a: a.scenarios[scenario.name] ? a.scenarios[scenario.name][key] : null,
          b: b.scenarios[scenario.name] ? b.scenarios[scenario.name][key] : null,
          digits: metric.digits,
          capacity: key === 'capacity',
          words: key === 'p99' ? 'has' : 'uses',
        });
      }
      for (const [key, words] of [['stopped', 'stopped by'], ['bound', 'bound at the step not held']]) {
        rows.push({
          label: `${scenario.name}: ${words}`,
          text: [a, b].map((s) => (s.scenarios[scenario.name] ? s.scenarios[scenario.name][key] : '')),
        });
      }
    }
    rows.push({label: 'mean tier', text: [a, b].map((s) => (s.ceiling ? '' : fmt(meanTier(s), 1)))});
    for (const column of PROCESS_COLUMNS) {
      rows.push({label: column.label, a: a[column.key], b: b[column.key], digits: column.digits, words: 'is'});
    }
    return rows;
  }

  function renderCompare() {
    const a = DATA.stacks.find((s) => s.label === document.getElementById('compare-a').value);
    const b = DATA.stacks.find((s) => s.label === document.getElementById('compare-b').value);
    const table = document.getElementById('compare');
    table.replaceChildren();
    if (!a || !b) return;
    table.append(el('thead', {}, el('tr', {},
      el('th', {scope: 'col'}, 'figure'),
      el('th', {scope: 'col', class: 'stack-a'}, a.label),
      el('th', {scope: 'col', class: 'stack-b'}, b.label),
      el('th', {scope: 'col'}, `${a.label} against ${b.label}`))));
    const body = el('tbody');
    for (const row of compareRows(a, b)) {
      if (row.text) {
        body.append(el('tr', {class: 'words'}, el('th', {scope: 'row'}, row.label),
          el('td', {}, row.text[0] || '–'), el('td', {}, row.text[1] || '–'), el('td')));
        continue;
      }
      body.append(el('tr', {class: differs(row) ? null : 'same'}, el('th', {scope: 'row'}, row.label),
        figureCell(row.a, row.digits), figureCell(row.b, row.digits),
        el('td', {class: 'ratio'}, inWords(row, a, b))));
    }
    table.append(body);
    document.getElementById('compare-note').textContent =
      'The last column says which way, as the ratio of A\'s figure to B\'s, or "no difference" where their ' +
      'ranges over all runs overlap. A pair you choose is kept in the address, so a comparison can be linked.';
  }

  // -- The first minute of a fresh process: p99 and CPU per request, window by window ----------

  // A line per stack or variant (a variant dashed, in its stack's colour), and its range over the
  // runs as a band under it: two datasets without a legend entry, the second filled to the first.
  function firstMinuteDatasets(scenario, key) {
    const datasets = [];
    for (const line of scenario.lines) {
      // A variant goes with its stack: hidden when the filters hide that stack.
      const stackLabel = line.variant ? line.label.split('@')[0] : line.label;
      if (DATA.stacks.some((s) => s.label === stackLabel) && !state.stacks.has(stackLabel)) continue;
      const colour = colourOf.get(line.label) || colourOf.get(line.label.split('@')[0]) || COLOURS[0];
      const points = line.points.filter((p) => p[key] !== null);
      const band = {
        band: true, showLine: false, pointRadius: 0, borderWidth: 0, fill: false, label: `${line.label} range`,
      };
      datasets.push({...band, data: points.map((p) => ({x: p.t, y: p[key][2]}))});
      datasets.push({
        ...band, fill: '-1', backgroundColor: `${colour}26`, showLine: true,
        data: points.map((p) => ({x: p.t, y: p[key][1]})),
      });
      datasets.push({
        label: line.label,
        data: points.map((p) => ({x: p.t, y: p[key][0], low: p[key][1], high: p[key][2], runs: line.runs})),
        borderColor: colour,
        backgroundColor: colour,
        borderDash: line.variant ? [6, 4] : [],
        pointRadius: 2,
        borderWidth: 2,
      });
    }
    return datasets;
  }

  function firstMinuteChart(scenario, key, axis, digits) {
    const canvas = el('canvas', {role: 'img', 'aria-label': `${scenario.scenario}: ${axis} over the first minute`});
    const box = el('div', {class: 'chart-box'}, canvas);
    const chart = () => new Chart(canvas, {
      type: 'line',
      data: {datasets: firstMinuteDatasets(scenario, key)},
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: {mode: 'nearest', intersect: true},
        scales: {
          x: {type: 'linear', min: 0, title: {display: true, text: 'seconds of load from the first request'}},
          y: {type: 'logarithmic', title: {display: true, text: axis}, ticks: {callback: logTick}},
        },
        plugins: {
          legend: {
            position: 'bottom',
            labels: {boxWidth: 14, filter: (item, data) => !data.datasets[item.datasetIndex].band},
          },
          tooltip: {
            filter: (item) => !item.dataset.band,
            callbacks: {
              label: (context) => {
                const p = context.raw;
                const range = p.low === p.high ? '' : ` (${fmt(p.low, digits)}–${fmt(p.high, digits)})`;
                return `${context.dataset.label}: ${fmt(p.y, digits)}${range} at ${fmt(p.x, 0)} s, ${p.runs} runs`;
              },
            },
          },
        },
      },
    });
    return [box, chart];
  }

  function renderFirstMinute() {
    const container = document.getElementById('first-minute-charts');
    const note = document.getElementById('first-minute-note');
    container.replaceChildren();
    for (const chart of firstMinuteCharts) chart.destroy();
    firstMinuteCharts.length = 0;
    if (!DATA.first_minute.length) {
      note.textContent = 'Not measured yet: no raw file here has a first minute. These were measured before the ' +
        'runner measured one (in join-filter and the avatar); the next publication\'s runs carry it.';
      return;
    }
    note.textContent = 'A new process of each stack, from its first request, at a rate every stack serves: the p99 ' +
      'and the app\'s CPU per request of each window, the median over runs with their range as a band. ' +
      'A variant is dashed, in its stack\'s colour. results.md gives start-up, the time to steady state and ' +
      'the CPU of the whole minute.';
    for (const scenario of DATA.first_minute) {
      if (!state.scenarios.has(scenario.scenario)) continue;
      const card = el('figure', {class: 'chart-card'});
      container.append(card);
      card.append(el('figcaption', {},
        el('h3', {}, scenario.scenario),
        el('span', {class: 'note'},
          `At ${fmt(scenario.rate, 0)} req/s, p99 objective ${fmt(scenario.objective_ms, 0)} ms; ` +
          `windows of ${fmt(scenario.window_s, 0)} s.`)));
      for (const [key, axis, digits] of [['p99', 'p99, ms (log scale)', 1],
        ['cpu', 'app CPU ms per request (log scale)', 3]]) {
        const [box, make] = firstMinuteChart(scenario, key, axis, digits);
        card.append(box);
        firstMinuteCharts.push(make());
      }
    }
  }

  // -- Claims and variants: the rows, ratios and verdicts of results.md's sections -------------

  const VERDICT_CLASSES = {
    'holds': 'verdict-holds',
    'does not hold': 'verdict-fails',
    'no difference within spread': 'verdict-open',
    'cannot be judged': 'verdict-none',
  };

  // A ratio over runs: of the medians, with the lowest and highest any two runs give (null: unbounded).
  function ratioText(ratio, digits) {
    if (!ratio) return '–';
    const end = (value) => (value === null ? '∞' : fmt(value, digits));
    const [low, high] = [end(ratio.low), end(ratio.high)];
    return low === high ? fmt(ratio.value, digits) : `${fmt(ratio.value, digits)} (${low}–${high})`;
  }

  // The raw files a ratio was computed from, numbered; each link's title is the file.
  function fileLinks(files) {
    const span = el('span', {class: 'range'}, 'raw files ');
    files.forEach((href, i) => {
      if (i) span.append(' ');
      span.append(el('a', {href, title: decodeURIComponent(href.split('/').pop())}, String(i + 1)));
    });
    return span;
  }

  // The claims counted by verdict, as results.md counts them, in its order.
  function renderClaimsTally() {
    const counts = new Map(Object.keys(VERDICT_CLASSES).map((v) => [v, 0]));
    for (const claim of DATA.claims) counts.set(claim.verdict, (counts.get(claim.verdict) || 0) + 1);
    const said = [...counts].filter(([, n]) => n).map(([verdict, n]) => `${verdict} ${n}`);
    document.getElementById('claims-tally').textContent = `Verdicts: ${said.join(', ')}.`;
  }

  function renderClaims() {
    renderClaimsTally();
    const table = document.getElementById('claims');
    table.replaceChildren();
    // What a reader scans for first (the claim, its verdict, the figure behind it) leads; what
    // the verdict rests on is folded into the last column.
    const headings = ['claim', 'verdict', 'measured here (A ÷ B)', 'published', 'why, metric and source'];
    table.append(el('thead', {}, el('tr', {}, ...headings.map((h) => el('th', {scope: 'col'}, h)))));
    const body = el('tbody');
    for (const claim of DATA.claims) {
      const measured = el('td', {class: 'measured'}, el('div', {class: 'range'}, claim.rows.join(' ÷ ')));
      const found = claim.measured.filter((m) => m.ratio);
      for (const one of found) {
        const at = one.rate === null ? '' : ` at ${fmt(one.rate, 0)} req/s`;
        const shown = ratioText(one.ratio, claim.expected === 'within' ? 1 : 2);
        measured.append(el('div', {}, `${one.scenario}: ${shown}${at}`, fileLinks(one.files)));
      }
      if (!found.length) measured.append(el('div', {}, '–'));
      const metric = `${claim.metric}${claim.expected === 'within' ? `, ${claim.unit}` : ''} on ${claim.scenarios.join(', ')}`;
      body.append(el('tr', {'data-claim': claim.id, 'data-verdict': claim.verdict},
        el('td', {class: 'statement'}, el('strong', {}, claim.id), `: ${claim.statement}`,
          claim.note ? el('span', {class: 'range'}, claim.note) : null),
        el('td', {class: `verdict ${VERDICT_CLASSES[claim.verdict] || ''}`}, claim.said),
        measured,
        el('td', {class: 'published'}, claim.published),
        el('td', {class: 'why'}, el('details', {},
          el('summary', {}, 'why'),
          el('p', {}, claim.reason),
          el('p', {}, `Metric: ${metric}.`),
          el('p', {class: 'source'}, 'Source: ', ...withDocLinks(claim.source))))));
    }
    table.append(body);
  }

  // What a variant's row shows: the stack's figure → the variant's, and two ratios with their spread.
  const VARIANT_COLUMNS = [
    {key: 'capacity', label: 'capacity req/s', digits: 0, ratio: 'capacity ÷ stack'},
    {key: 'app-cpu', label: 'app CPU ms/req', digits: 3, ratio: 'cost ÷ stack'},
    {key: 'postgres-cpu', label: 'PostgreSQL CPU ms/req', digits: 3},
    {key: 'sql', label: 'SQL/req', digits: 2},
    {key: 'bytes', label: 'bytes/resp', digits: 0},
    {key: 'threads', label: 'peak threads', digits: 0},
    {key: 'connections-in-use', label: 'DB connections in use', digits: 0},
    {key: 'connections-held', label: 'DB connections held', digits: 0},
    {key: 'gc', label: 'GC ms/s', digits: 1},
    {key: 'heap', label: 'heap MiB', digits: 0},
  ];

  function pairCell(pair, digits) {
    const cell = el('td', {class: 'figure'});
    const side = (found) => {
      const parts = figureLink(found, digits);
      return parts ? parts[0] : '–';
    };
    if (pair.every((found) => !found || found.value === null)) cell.append('–');
    else cell.append(side(pair[0]), ' → ', side(pair[1]));
    return cell;
  }

  function renderVariants() {
    const rows = DATA.variants.filter((v) => state.scenarios.has(v.scenario));
    document.getElementById('variants-section').hidden = !DATA.variants.length;
    const table = document.getElementById('variants');
    table.replaceChildren();
    const headings = ['variant', 'scenario'];
    for (const column of VARIANT_COLUMNS) {
      headings.push(column.label);
      if (column.ratio) headings.push(column.ratio);
      if (column.key === 'capacity') headings.push('compared at req/s');
    }
    table.append(el('thead', {}, el('tr', {}, ...headings.map((h) => el('th', {scope: 'col'}, h)))));
    const body = el('tbody');
    let stack = null;
    for (const row of rows) {
      if (row.stack !== stack) {
        stack = row.stack;
        body.append(el('tr', {class: 'group'}, el('th', {scope: 'rowgroup', colspan: headings.length}, stack)));
      }
      const cells = [];
      for (const column of VARIANT_COLUMNS) {
        cells.push(pairCell(row.figures[column.key], column.digits));
        if (column.ratio) cells.push(el('td', {class: 'ratio'}, ratioText(row.ratios[column.key], 2)));
        if (column.key === 'capacity') {
          cells.push(el('td', {class: 'figure'}, row.rate === null ? 'none both held' : fmt(row.rate, 0)));
        }
      }
      const failed = row.failures.length ? ` (${row.failures.length} run(s) failed)` : '';
      body.append(el('tr', {'data-variant': row.variant, 'data-scenario': row.scenario},
        el('td', {class: 'variant'}, `@${row.variant.split('@')[1]}${failed}`,
          row.description ? el('span', {class: 'description'}, row.description) : null, fileLinks(row.files)),
        el('td', {}, row.scenario),
        ...cells));
    }
    table.append(body);
  }

  // -- At your load: what bench.report.at_rate decided at every rate, as results.md says it ----

  // The piece of a stack's readings that `rate` falls in: one of its own rates, or a stretch
  // between two. Python cut them (bench.report.site_load) so that nothing changes inside one.
  function pieceAt(load, rate) {
    return load.pieces.find((p) => (p.point ? rate === p.start : rate > p.start && (p.end === null || rate < p.end)));
  }

  // A stack at `rate`: Python's answer, and its figures on the straight line between the piece's
  // two steps (one step: the figures measured at the rate). Cores are CPU ms per request × rate.
  function atRate(figures, rate) {
    const load = figures.load;
    const piece = pieceAt(load, rate);
    const low = piece.low === null ? null : load.anchors[piece.low];
    const high = piece.high === null ? null : load.anchors[piece.high];
    const at = (key) => {
      if (!low || low[key] === null) return null;
      if (!high) return low[key];
      if (high[key] === null) return null;
      return low[key] + ((rate - low.rate) / (high.rate - low.rate)) * (high[key] - low[key]);
    };
    const cores = (key) => (at(key) === null ? null : (at(key) * rate) / 1000);
    const values = low
      ? {app_cores: cores('app_ms'), postgres_cores: cores('postgres_ms'), p99: at('p99'), memory_mib: at('memory_mib')}
      : null;
    return {piece, low, high, values, runs: load.runs, objective: load.objective_p99_ms};
  }

  const LOAD_COLUMNS = [
    {key: 'app_cores', label: 'app cores', digits: 2},
    {key: 'postgres_cores', label: 'PostgreSQL cores', digits: 2},
    {key: 'p99', label: 'p99 ms', digits: 1},
    {key: 'memory_mib', label: 'app memory MiB', digits: 0},
  ];

  // -- What it costs a month: bench.report.money's sum, with the reader's offer and utilisation --

  const PRICES = DATA.prices;

  function chosenOffer() {
    return PRICES.offers.find((offer) => offer.id === document.getElementById('load-offer').value) || null;
  }

  // The target utilisation as a share of a core; null where the box holds no percentage above 0
  // and at most 100.
  function chosenUtilisation() {
    const typed = document.getElementById('load-utilisation').value.trim().replace(/%$/, '').trim();
    const percent = typed === '' ? NaN : Number(typed);
    return percent > 0 && percent <= 100 ? percent / 100 : null;
  }

  // bench.report.money.price_of: exactly the size on a per-resource offer; on a VM family the
  // cheapest instance with as many vCPUs and as much memory (monthly null: none is that large).
  function priceOf(offer, vcpus, memoryGib) {
    if (offer.kind === 'per-resource') {
      const hourly = vcpus * offer.per_vcpu_hour + memoryGib * offer.per_gib_hour;
      return {monthly: PRICES.hours_per_month * hourly, instance: null};
    }
    const fitting = offer.instances.filter((i) => i.vcpus >= vcpus && i.memory_gib >= memoryGib)
      .sort((a, b) => a.per_hour - b.per_hour || a.vcpus - b.vcpus || a.memory_gib - b.memory_gib);
    return fitting.length
      ? {monthly: PRICES.hours_per_month * fitting[0].per_hour, instance: fitting[0].name}
      : {monthly: null, instance: null};
  }

  // bench.report.money.bill_at: no price where the stack does not hold the rate in every run;
  // PostgreSQL's cores alone, beside the app's.
  function billOf(found, offer, utilisation) {
    const values = found.values;
    if (!offer || utilisation === null || !found.piece.holds || !values) return null;
    if (values.app_cores === null || values.memory_mib === null) return null;
    return {
      app: priceOf(offer, values.app_cores / utilisation, values.memory_mib / 1024 / utilisation),
      postgres: values.postgres_cores === null ? null : priceOf(offer, values.postgres_cores / utilisation, 0),
    };
  }

  function money(value, currency) {
    const amount = fmt(value, 2);
    return currency === 'USD' ? `$${amount}` : `${amount} ${currency}`;
  }

  const MONEY_COLUMNS = [
    {key: 'app_month', part: 'app', label: 'app'},
    {key: 'postgres_month', part: 'postgres', label: 'PostgreSQL'},
  ];

  function moneyHeading(column, offer) {
    const unit = !offer ? '' : offer.currency === 'USD' ? ' $' : ` ${offer.currency}`;
    return el('th', {scope: 'col'}, `${column.label}${unit} a month`);
  }

  // A price links to the raw file of the step its figures come from, as those figures do.
  function moneyCell(found, bill, column, offer) {
    const priced = bill ? bill[column.part] : null;
    if (!priced) return el('td', {class: 'figure no-figure', 'data-key': column.key}, '–');
    if (priced.monthly === null) {
      const largest = offer.instances.reduce((a, b) => (b.vcpus > a.vcpus || (b.vcpus === a.vcpus &&
        b.memory_gib > a.memory_gib) ? b : a));
      return el('td', {class: 'figure no-figure', 'data-key': column.key,
        title: `more vCPUs or memory than ${largest.name}, the family's largest here`}, `over ${largest.name}`);
    }
    return el('td', {class: 'figure money', 'data-key': column.key, 'data-value': String(priced.monthly),
      'data-instance': priced.instance || ''},
    el('a', {href: found.low.href}, money(priced.monthly, offer.currency)),
    priced.instance ? el('span', {class: 'source'}, priced.instance) : null);
  }

  // Under the form: the offer the prices come from, with its date and source, and how a price is made.
  function renderPriceNote(offer, utilisation) {
    const note = document.getElementById('load-prices');
    const typed = document.getElementById('load-utilisation').value.trim();
    const problem = utilisation === null
      ? `"${typed}" is not a utilisation: type a percentage above 0 and at most 100, such as 60. `
      : '';
    if (!offer) {
      note.replaceChildren(problem);
      return;
    }
    const percent = utilisation === null ? '' : ` at ${fmt(utilisation * 100, 0)}%`;
    const sized = offer.kind === 'per-resource'
      ? 'priced at exactly that size'
      : 'priced as the cheapest instance of the family with as many vCPUs and as much memory';
    note.replaceChildren(
      problem,
      `Prices a month on ${offer.label} (`, el('a', {href: offer.source, class: 'external'}, 'source'), '; the list: ',
      docLink('prices', 'docs/prices.toml'), `). The app: its cores and its memory at the rate, each ` +
      `divided by the target utilisation${percent}, ${sized}; PostgreSQL: its cores alone on the same terms, ` +
      `beside the app's and not added to them. ${fmt(PRICES.hours_per_month, 0)} hours a month. A stack that ` +
      'does not hold the rate in every run gets no price. Not priced: network, storage, the database\'s ' +
      'memory and instance, discounts for commitment (', docLink('reading', 'reading the results'), ').');
  }

  const SOURCE = 'where the figures come from: the step at the rate, or the two around it (req/s), and whether ' +
    'a short probe is among the steps; hover over a figure for how many runs';

  // Under an answer, the steps its figures come from; how many runs' steps they are the median of
  // goes in the figures' own title, so that the answer's cell carries one count of runs: its own.
  function stepsOf(found) {
    const where = found.high
      ? `steps at ${fmt(found.low.rate, 0)} and ${fmt(found.high.rate, 0)}`
      : `its step at ${fmt(found.low.rate, 0)}`;
    return `${where}${found.piece.probe ? ' · probe' : ''}`;
  }

  function sourceOf(found) {
    return `${stepsOf(found)} · ${found.piece.of_runs} of ${found.runs} run${found.runs > 1 ? 's' : ''}`;
  }

  function byTier(a, b) {
    const x = meanTier(a);
    const y = meanTier(b);
    if (x === y) return a.label.localeCompare(b.label);
    if (x === null) return 1;
    if (y === null) return -1;
    return x - y;
  }

  function loadCell(found, column) {
    if (!found.values) return el('td', {class: 'figure no-figure', 'data-key': column.key}, '–');
    const value = found.values[column.key];
    const kind = found.high ? 'interpolated' : 'measured';
    const cell = el('td', {class: `figure ${kind}`, title: sourceOf(found), 'data-key': column.key});
    if (value === null) {
      cell.append('–');
      return cell;
    }
    cell.append(el('a', {href: found.low.href}, (found.high ? '≈ ' : '') + fmt(value, column.digits)));
    if (column.key === 'p99' && found.objective !== null && value > found.objective) {
      cell.classList.add('over');
      cell.append(el('span', {class: 'flag'}, ` over ${fmt(found.objective, 0)}`));
    }
    return cell;
  }

  function loadRows(scenario, rate) {
    return stacks.filter((stack) => visible(stack) && stack.scenarios[scenario.name])
      .sort(byTier)
      .map((stack) => ({stack, found: atRate(stack.scenarios[scenario.name], rate)}));
  }

  function renderLoad() {
    const scenario = DATA.scenarios.find((s) => s.name === document.getElementById('load-scenario').value);
    // A comma groups thousands, as the page prints rates: "1,200" is 1200.
    const typed = document.getElementById('load-rate').value.trim().replace(/,/g, '');
    const rate = typed === '' ? NaN : Number(typed);
    const table = document.getElementById('load');
    table.replaceChildren();
    const offer = chosenOffer();
    const utilisation = chosenUtilisation();
    renderPriceNote(offer, utilisation);
    const objective = document.getElementById('load-objective');
    objective.textContent = scenario && scenario.objective_p99_ms !== null
      ? `p99 objective: ${fmt(scenario.objective_p99_ms, 0)} ms`
      : '';
    if (!scenario || !(rate > 0) || !Number.isFinite(rate)) {
      const typed = document.getElementById('load-rate').value.trim();
      document.getElementById('load-note').textContent = scenario && typed
        ? `"${typed}" is not a rate: type requests per second, a number above 0, such as 500.`
        : 'Pick a scenario and a rate above 0.';
      renderLoadCharts(null, rate, []);
      return;
    }
    const goal = scenario.objective_p99_ms === null ? '' : ` at p99 ≤ ${fmt(scenario.objective_p99_ms, 0)} ms`;
    table.append(el('thead', {}, el('tr', {},
      el('th', {scope: 'col'}, 'stack'),
      el('th', {scope: 'col', class: 'answer'}, `holds ${fmt(rate, 0)} req/s${goal}?`),
      ...LOAD_COLUMNS.map((c) => el('th', {scope: 'col'}, c.label)),
      ...MONEY_COLUMNS.map((c) => moneyHeading(c, offer)))));
    const body = el('tbody');
    const rows = loadRows(scenario, rate);
    for (const {stack, found} of rows) {
      const piece = found.piece;
      body.append(el('tr', {
        'data-stack': stack.label,
        'data-holds': String(piece.holds),
        'data-held': String(piece.held),
        'data-runs': String(found.runs),
        'data-of-runs': String(piece.of_runs),
        'data-probe': String(piece.probe),
      },
      el('th', {scope: 'row'}, stack.label),
      el('td', {class: piece.holds ? 'holds' : 'no-hold'}, piece.answer,
        found.values ? el('span', {class: 'source', title: SOURCE}, stepsOf(found)) : null),
      ...LOAD_COLUMNS.map((c) => loadCell(found, c)),
      ...MONEY_COLUMNS.map((c) => moneyCell(found, billOf(found, offer, utilisation), c, offer))));
    }
    for (const stack of stacks.filter((one) => visible(one) && !one.measured)) {
      body.append(el('tr', {'data-stack': stack.label, class: 'unmeasured'}, el('th', {scope: 'row'}, stack.label),
        el('td', {colspan: 1 + LOAD_COLUMNS.length + MONEY_COLUMNS.length, class: 'absent'}, 'not measured yet')));
    }
    table.append(body);
    const note = document.getElementById('load-note');
    note.replaceChildren(
      `Each stack at ${fmt(rate, 0)} req/s of ${scenario.name}. It holds the rate when every run held it: a run ` +
      'holds every rate up to its capacity, which its full-length steps decide; otherwise the row says how many ' +
      'runs did. The figures come from the runs that held it, from the steps each held: the median over them at a ' +
      'rate where every one of them has a step (≈: on the straight line between two such rates, never past them); ' +
      'where those do not reach the rate, from steps only some runs held. Under each answer: the step or steps, ' +
      'and "probe" where a short probe is among them; hover over a figure for how many runs\' steps it comes from. Cores ' +
      'are CPU time per request × the rate. Full-length steps run only from the highest rate a ' +
      'stack\'s probes held, so most figures well below its capacity rest on a probe\'s few seconds of requests. Rows in order of mean tier; the chart puts the cheapest ' +
      'first. results.md quotes its rates by the same rule (',
      docLink('method', 'method'), ').');
    renderLoadCharts(scenario, rate, rows);
  }

  // The answer as a picture: what each stack that holds the rate costs there, cheapest first, app
  // and PostgreSQL cores stacked, memory beside; the stacks that do not hold it are named under
  // the bars, with how many runs did.
  const loadCharts = {};

  // Each bar's total at its end, so that the figures read without hovering.
  const BAR_TOTALS = {
    id: 'barTotals',
    afterDatasetsDraw(chart, args, options) {
      const {ctx} = chart;
      const last = chart.data.datasets.length - 1;
      const digits = options.digits;
      ctx.save();
      ctx.font = '12px system-ui, sans-serif';
      ctx.textBaseline = 'middle';
      chart.getDatasetMeta(last).data.forEach((bar, index) => {
        if (chart.data.datasets.every((d) => d.data[index] === null)) {
          // A stack that does not hold the rate: no bar, and why in its place.
          ctx.fillStyle = '#5f6b76';
          ctx.fillText((chart.$why || [])[index] || '', chart.scales.x.left + 4, bar.y);
          return;
        }
        const total = chart.data.datasets.reduce((sum, d) => (d.data[index] === null ? sum : sum + d.data[index]), 0);
        ctx.fillStyle = '#1d2329';
        ctx.fillText(fmt(total, digits), bar.x + 4, bar.y);
      });
      ctx.restore();
    },
  };

  function loadChart(id, axis, digits, datasets) {
    const canvas = document.getElementById(id);
    return new Chart(canvas, {
      type: 'bar',
      data: {labels: [], datasets},
      options: {
        indexAxis: 'y',
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        layout: {padding: {right: 44}},
        scales: {
          x: {stacked: true, beginAtZero: true, title: {display: true, text: axis}},
          y: {stacked: true, ticks: {autoSkip: false}},
        },
        plugins: {
          legend: {display: datasets.length > 1, position: 'bottom', labels: {boxWidth: 14}},
          title: {display: true, align: 'start', text: ''},
          barTotals: {digits},
          tooltip: {callbacks: {label: (context) => `${context.dataset.label}: ${fmt(context.raw, digits)}`}},
        },
      },
      plugins: [BAR_TOTALS],
    });
  }

  function whyNoBar(found, rate) {
    // results.md's words (bench/report/at_rate.py): "not offered" where no run was sent this rate.
    if (!found.piece.holds) return found.piece.answer;
    return found.values ? 'no CPU figure' : `no step at or below ${fmt(rate, 0)}`;
  }

  function renderLoadCharts(scenario, rate, rows) {
    const figure = document.getElementById('load-charts');
    figure.hidden = !scenario;
    if (!scenario) return;
    const shown = rows.filter((row) => row.found.piece.holds && row.found.values && row.found.values.app_cores !== null);
    const total = (row) => row.found.values.app_cores + (row.found.values.postgres_cores || 0);
    shown.sort((a, b) => total(a) - total(b) || a.stack.label.localeCompare(b.stack.label));
    const others = rows.filter((row) => !shown.includes(row));
    const labels = [...shown, ...others].map((row) => row.stack.label);
    const why = [...shown.map(() => ''), ...others.map((row) => whyNoBar(row.found, rate))];
    const title = `${scenario.name} at ${fmt(rate, 0)} req/s: the stacks that hold it, cheapest first`;
    const updates = [
      [loadCharts.cores, [(row) => row.found.values.app_cores, (row) => row.found.values.postgres_cores]],
      [loadCharts.memory, [(row) => row.found.values.memory_mib]],
    ];
    for (const [chart, values] of updates) {
      chart.data.labels = labels;
      chart.data.datasets.forEach((dataset, i) => {
        dataset.data = [...shown.map(values[i]), ...others.map(() => null)];
      });
      chart.$why = why;
      chart.options.plugins.title.text = chart === loadCharts.cores ? title : `app memory at ${fmt(rate, 0)} req/s`;
      // The rows without a bar in grey, under the others.
      chart.options.scales.y.ticks.color = (context) => (context.index < shown.length ? '#1d2329' : '#8a949e');
      // A bar a row, whatever the number of stacks the filters leave.
      chart.canvas.parentNode.style.height = `${Math.max(120, 26 * labels.length + 96)}px`;
      chart.resize();
      chart.update();
    }
  }

  function setUpLoad() {
    const select = document.getElementById('load-scenario');
    for (const scenario of DATA.scenarios.filter((s) => s.ladder)) {
      select.append(el('option', {value: scenario.name}, scenario.name));
    }
    const input = document.getElementById('load-rate');
    const pickDefault = () => {
      const scenario = DATA.scenarios.find((s) => s.name === select.value);
      if (!scenario) return;
      input.value = scenario.common_rate !== null ? scenario.common_rate : scenario.rates[0];
    };
    pickDefault();
    select.addEventListener('change', () => {
      pickDefault();
      renderLoad();
    });
    input.addEventListener('input', renderLoad);
    const offers = document.getElementById('load-offer');
    for (const offer of PRICES.offers) {
      offers.append(el('option', {value: offer.id, selected: offer.id === PRICES.default ? '' : null}, offer.label));
    }
    offers.addEventListener('change', renderLoad);
    const utilisation = document.getElementById('load-utilisation');
    utilisation.value = fmt(PRICES.utilisation * 100, 0);
    utilisation.addEventListener('input', renderLoad);
    loadCharts.cores = loadChart('load-cores', 'cores: the app\'s, then PostgreSQL\'s', 2, [
      {label: 'app cores', data: [], backgroundColor: '#4e79a7'},
      {label: 'PostgreSQL cores', data: [], backgroundColor: '#f28e2b'},
    ]);
    loadCharts.memory = loadChart('load-memory', 'app memory, MiB', 0, [
      {label: 'app memory MiB', data: [], backgroundColor: '#59a14f'},
    ]);
  }

  // -- The comparison: which way, and whether the runs tell the two apart -----------------------

  function overlaps(a, b) {
    if (!a || !b || a.value === null || b.value === null) return false;
    return a.low <= b.high && b.low <= a.high;
  }

  function differs(row) {
    return !(overlaps(row.a, row.b) && (row.a.count > 1 || row.b.count > 1));
  }

  function inWords(row, a, b) {
    if (!row.a || !row.b || row.a.value === null || !row.b.value) return '–';
    if (!differs(row)) return 'no difference: the runs overlap';
    const ratio = fmt(row.a.value / row.b.value, 2);
    if (row.capacity) return `${a.label} holds ${ratio}× ${b.label}'s rate`;
    return `${a.label} ${row.words} ${ratio}× ${b.label}'s`;
  }

  function compareDefaults() {
    const wanted = new URLSearchParams(window.location.hash.slice(1)).get('compare');
    const labels = DATA.stacks.map((s) => s.label);
    if (wanted) {
      const [a, b] = wanted.split(',');
      if (labels.includes(a) && labels.includes(b)) return [a, b];
    }
    // Two stacks of one language, the language with the most stacks; else the first two.
    const byLanguage = {};
    for (const stack of stacks.filter((one) => one.measured)) {
      (byLanguage[stack.language] = byLanguage[stack.language] || []).push(stack.label);
    }
    const family = Object.values(byLanguage).sort((x, y) => y.length - x.length)[0] || [];
    return family.length >= 2 ? family.slice(0, 2) : labels.slice(0, 2);
  }

  function checkboxes(fieldsetId, values, set, labelOf) {
    const fieldset = document.getElementById(fieldsetId);
    for (const value of values) {
      const input = el('input', {type: 'checkbox', value, checked: ''});
      input.addEventListener('change', () => {
        if (input.checked) set.add(value);
        else set.delete(value);
        renderAll();
      });
      fieldset.append(el('label', {}, input, ` ${labelOf(value)}`));
    }
  }

  function renderAll() {
    renderSummary();
    renderVariants();
    renderLoad();
    updateCharts();
    renderFirstMinute();
    compareOptions();
    renderCompare();
    markScrolling();
  }

  // The comparison offers the measured stacks the filters leave; a stack a filter removes gives its
  // place to the first one left that is not already on the other side, and comes back with it.
  function compareOptions() {
    const offered = [...stacks.filter((s) => s.measured), ...ceilings].filter(visible).map((s) => s.label);
    const [a, b] = ['compare-a', 'compare-b'].map((id) => document.getElementById(id));
    const pick = (wanted, avoid) => (offered.includes(wanted) ? wanted : offered.find((l) => l !== avoid) || offered[0] || '');
    const first = pick(a.dataset.wanted, offered.includes(b.dataset.wanted) ? b.dataset.wanted : null);
    const second = pick(b.dataset.wanted, first);
    for (const [select, value] of [[a, first], [b, second]]) {
      select.replaceChildren(...offered.map((label) => el('option', {value: label}, label)));
      select.value = value;
    }
  }

  function memLadderScenarios() {
    const names = DATA.mem_ladder_scenarios || [];
    if (!names.length) return 'its scenarios';
    return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  }

  // A document the page names, linked as the raw files are: relative, into the repository.
  function docLink(name, text) {
    return el('a', {href: DATA.docs[name], class: 'doc'}, text);
  }

  // `text` with each document it names (docs/study.md, …) linked.
  function withDocLinks(text) {
    const paths = Object.keys(DATA.docs).map((name) => [name, `docs/${DATA.docs[name].split('/').pop()}`]);
    let parts = [text];
    for (const [name, path] of paths) {
      parts = parts.flatMap((part) => (typeof part !== 'string' ? [part] : part.split(path)
        .flatMap((piece, i) => (i ? [docLink(name, path), piece] : [piece]))));
    }
    return parts.filter((part) => part !== '');
  }

  // A wide table scrolls inside its box: the cue above it says so, and the box fades at the side
  // that has more, until the reader reaches the end.
  function markScrolling() {
    for (const box of document.querySelectorAll('.scroll')) {
      const wide = box.scrollWidth > box.clientWidth + 1;
      box.classList.toggle('scrolls', wide);
      box.classList.toggle('scrolled', wide && box.scrollLeft > 0);
      box.classList.toggle('at-end', !wide || box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
      const cue = box.previousElementSibling;
      if (cue && cue.classList.contains('scroll-cue')) cue.hidden = !wide;
    }
  }

  function setUpScrolling() {
    for (const box of document.querySelectorAll('.scroll')) {
      box.before(el('p', {class: 'scroll-cue', hidden: ''}, 'Scroll sideways for more columns →'));
      box.addEventListener('scroll', markScrolling, {passive: true});
    }
    window.addEventListener('resize', () => {
      markScrolling();
      for (const chart of charts.values()) fitYTitle(chart);
    });
  }

  // The contents name only the sections the page shows.
  function fitContents() {
    for (const link of document.querySelectorAll('#contents a')) {
      link.hidden = document.getElementById(link.getAttribute('href').slice(1)).hidden;
    }
  }

  // A link to a section (index.html#summary-section) opens at it: the sections above it are drawn
  // by this script, after the browser looked for it. A linked comparison opens at the comparison.
  function openLinkedSection() {
    const fragment = window.location.hash.slice(1);
    if (!fragment) return;
    const target = fragment.startsWith('compare=')
      ? document.getElementById('compare-section')
      : document.getElementById(fragment);
    if (target) target.scrollIntoView();
  }

  function describe() {
    const runs = DATA.runs > 1
      ? `Each figure is the median of ${DATA.runs} runs, its min–max under it where they differ.`
      : 'One run per stack × scenario.';
    // Idle memory and start-up are per start of the process, which can be several per run.
    const starts = ' Memory and start-up figures with a min–max under them are medians over the starts of ' +
      'the stack\'s process; hover over a figure for what it is the median of.';
    document.getElementById('lede').replaceChildren(
      `Measured by ${DATA.method}. What every column and mark means, with one row worked through: `,
      docLink('reading', 'reading the results'), '; how it is measured: ', docLink('method', 'the method'), '.');
    document.getElementById('provenance').replaceChildren(
      `Generated by ./bench report from the ${DATA.files} raw JSON files in ${DATA.raw_dir}, measured by ` +
      `${DATA.method} (`, docLink('method', 'the method'), `; profile ${DATA.profile}; commit ` +
      `${DATA.commits.join(', ')}; ${DATA.dates.join(', ') || 'no date'}; ${DATA.machine}). ${runs}${starts} ` +
      'Every figure links to the raw file it comes from. What every column and mark means: ',
      docLink('reading', 'reading the results'), '.');
    const commons = DATA.scenarios.filter((s) => s.ladder)
      .map((s) => `${s.name} ${s.common_rate === null ? 'none' : fmt(s.common_rate, 0) + ' req/s'}`);
    document.getElementById('summary-note').replaceChildren(
      'Capacity at objective: the highest offered rate a stack held (at least 97% delivered, at most 1% dropped, ' +
      'no unexpected status, p99 within the objective). The figures at the common rate are at the highest rate ' +
      `every stack held in every run (${commons.join('; ') || 'no ladder'}). Memory, start-up and time to steady ` +
      'state are per stack over its scenarios: idle memory and start-up when its process started, peak ' +
      'the median of each run\'s highest; smallest cap: the smallest memory cap under which the memory ladder ' +
      `served ${memLadderScenarios()} without an error. ` +
      'Tiers (T1 the highest): stacks whose capacity ranges over all runs overlap show no ' +
      'difference, and stacks linked by such overlaps share a tier; the rows are in order of their mean tier over ' +
      'the scenarios shown, as results.md orders them. Rows marked ceiling (ceiling-…) are ' +
      'the limits of the database or of HTTP on this machine, measured alike and never ranked. The figures at the ' +
      'common rate are the runs\' that held it, said where not every run did; † marks one a short probe gave. ' +
      'Click a column heading to sort by it. How it is all measured: ', docLink('method', 'the method'), '.');
    document.getElementById('tiers-note').replaceChildren(
      'Per scenario, stacks whose capacity ranges over all runs overlap show no difference, and stacks linked by ' +
      'such overlaps share a tier (T1 holds the highest rates); the order inside a tier means nothing. Capacity: ' +
      'the highest offered rate held at the p99 objective (', docLink('method', 'method'), '). The filters ' +
      'leave out stacks, not tiers: each tier keeps the number the runs gave it.');
    document.getElementById('claims-note').replaceChildren(
      'Every published claim this benchmark answers (', docLink('study', 'docs/study.md'), '; the claims are data, ',
      docLink('claims', 'docs/claims.toml'), '). ' +
      'Measured here: A\'s figure divided by B\'s, the ratio of their medians over the runs, with the lowest and ' +
      'highest ratio any run of the one and any run of the other give; it includes 1 exactly when their ranges ' +
      'overlap. Figures per request are compared at the highest ladder rate both held in every run. A claim that one ' +
      'is higher or lower holds when the whole spread is on its side of 1, does not hold when it is wholly on ' +
      'the other, and shows no difference within spread when it includes 1; a claim of no difference holds when ' +
      'the spread includes 1 or lies within its stated tolerance (', docLink('method', 'docs/method.md'),
      ', Claims). The filters do not apply here.');
    document.getElementById('variants-note').textContent =
      'Each variant is its stack with one knob changed, measured in the scenarios its impl.toml names; its rows ' +
      'are under its stack. a → b is the stack\'s figure, then the variant\'s (medians over runs, each linked to ' +
      'the run at its median). ÷ stack: the variant\'s figure over the stack\'s, with its spread over the runs. ' +
      'The figures after capacity are at the highest ladder rate both held in every run; threads and connections are ' +
      'the peaks of samples every 0.5 s. The scenario filter applies.';
    document.getElementById('charts-note').textContent =
      'Every stack a line over its ladder steps: a dot where every run held the step, a triangle where some did, ' +
      'a cross where none did (the step the ladder stopped at). App cores per 1,000 req/s are its CPU ms per ' +
      'request. Click a point for its raw file.';
  }

  function setUp() {
    describe();
    checkboxes('filter-scenario', DATA.scenarios.map((s) => s.name), state.scenarios, (v) => v);
    checkboxes('filter-stack', DATA.stacks.map((s) => s.label), state.stacks, (v) => v);
    checkboxes('filter-language', [...state.languages].sort(), state.languages, (v) => v);
    checkboxes('filter-dialect', [...state.dialects].sort(), state.dialects, (v) => DIALECTS[v] || v);
    const metric = document.getElementById('metric');
    for (const [key, m] of Object.entries(METRICS)) metric.append(el('option', {value: key}, `${m.label} (${m.unit})`));
    metric.addEventListener('change', () => {
      state.metric = metric.value;
      state.sort = null;
      renderAll();
    });
    const pair = compareDefaults();
    for (const [id, index] of [['compare-a', 0], ['compare-b', 1]]) {
      const select = document.getElementById(id);
      select.dataset.wanted = pair[index] || '';
      // Only the reader's choice goes into the address: loading the page or changing a filter
      // leaves it as it was, so that a link to a section still leads there.
      select.addEventListener('change', () => {
        select.dataset.wanted = select.value;
        renderCompare();
        const [a, b] = ['compare-a', 'compare-b'].map((other) => document.getElementById(other).value);
        window.history.replaceState(null, '', `#compare=${encodeURIComponent(a)},${encodeURIComponent(b)}`);
      });
    }
    // On a phone the filters start folded, so that the first screen shows figures.
    if (window.matchMedia('(max-width: 600px)').matches) document.getElementById('filters-box').open = false;
    setUpLoad();
    setUpScrolling();
    renderClaims();
    buildCharts();
    renderAll();
    for (const chart of charts.values()) fitYTitle(chart);
    fitContents();
    openLinkedSection();
  }

  setUp();
})();
