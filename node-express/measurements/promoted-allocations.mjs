// Preloaded with `node --import` instead of gc-monitor.mjs: V8's sampling heap profiler, counting
// only the objects that outlived the young generation (collected by a mark-compact, not by a
// scavenge). The first SIGUSR2 starts it; the second writes the allocating frames that account
// for the most bytes, with their two callers, to $PROMOTED_OUT (default promoted.txt).
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'

const TOP = 12
const session = new Session()
session.connect()
let sampling = false

function frame({ functionName, url, lineNumber }) {
  return `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '')}:${lineNumber + 1}`
}

function bytesBySite(node, callers, sites) {
  const stack = [...callers, frame(node.callFrame)]
  if (node.selfSize > 0) {
    const site = stack.slice(-3).reverse().join(' ← ')
    sites.set(site, (sites.get(site) ?? 0) + node.selfSize)
  }
  for (const child of node.children) bytesBySite(child, stack, sites)
  return sites
}

process.on('SIGUSR2', async () => {
  if (!sampling) {
    sampling = true
    await session.post('HeapProfiler.enable')
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: false,
    })
    return
  }
  const { profile } = await session.post('HeapProfiler.stopSampling')
  const sites = bytesBySite(profile.head, [], new Map())
  const total = [...sites.values()].reduce((sum, bytes) => sum + bytes, 0)
  const lines = [...sites.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([site, bytes]) => `${(bytes / 1e6).toFixed(1)} MB ${site}`)
  writeFileSync(
    process.env.PROMOTED_OUT ?? 'promoted.txt',
    [`${(total / 1e6).toFixed(1)} MB promoted in all`, ...lines].join('\n') + '\n',
  )
})
