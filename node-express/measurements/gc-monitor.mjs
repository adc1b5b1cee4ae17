// Preloaded with `node --import`: the event loop's delay histogram (perf_hooks) and the garbage
// collector's pauses by kind, printed to stderr and reset on each SIGUSR2, so that a load run
// between two signals reads as one window. README.md, "The avatar's tail latency", says what
// they showed.
import { monitorEventLoopDelay, PerformanceObserver, constants } from 'node:perf_hooks'

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
}

const delay = monitorEventLoopDelay({ resolution: 1 })
delay.enable()
let pauses = new Map()

new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = KINDS[entry.detail?.kind] ?? `kind ${entry.detail?.kind}`
    const seen = pauses.get(kind) ?? { count: 0, totalMs: 0, maxMs: 0 }
    seen.count += 1
    seen.totalMs += entry.duration
    seen.maxMs = Math.max(seen.maxMs, entry.duration)
    pauses.set(kind, seen)
  }
}).observe({ entryTypes: ['gc'] })

process.on('SIGUSR2', () => {
  const ms = (ns) => (ns / 1e6).toFixed(2)
  const gc = [...pauses.entries()]
    .map(([kind, s]) => `${kind} ${s.count}× ${s.totalMs.toFixed(0)} ms (max ${s.maxMs.toFixed(1)})`)
    .join(', ')
  console.error(
    `event-loop delay p50 ${ms(delay.percentile(50))} p99 ${ms(delay.percentile(99))} ` +
      `max ${ms(delay.max)} ms; gc: ${gc || 'none'}`,
  )
  delay.reset()
  pauses = new Map()
})
