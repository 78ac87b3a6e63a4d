#!/usr/bin/env node
// One-time extraction of Google Compute Engine's predefined machine types (name, vCPUs, memory)
// from Cyclenerd/google-cloud-pricing-cost-calculator (Apache-2.0), whose tools/machinetypes.csv is
// the output of `gcloud compute machine-types list` (Google's machineTypes API) that its
// maintainer refreshes; used by generate.mjs for the GCP machine types no other source lists.
// Usage: node extract_gce_machine_types.mjs <git dir of Cyclenerd/google-cloud-pricing-cost-calculator> [commit]
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'

const [gitDir, commitArg] = process.argv.slice(2)
if (!gitDir) {
  console.error('usage: extract_gce_machine_types.mjs <git dir> [commit]')
  process.exit(2)
}
const FILE = 'tools/machinetypes.csv'
const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8' })
const commit = git('rev-parse', commitArg ?? 'HEAD').trim()
const commitDate = git('show', '-s', '--format=%cI', commit).trim()
const [header, ...rows] = git('show', `${commit}:${FILE}`).trim().split('\n')
if (header.trim() !== 'NAME;CPUS;SHARED_CPU;MEMORY_GB;DEPRECATED;ZONE') throw new Error(`unexpected header: ${header}`)
const types = {}
for (const row of rows) {
  const [name, cpus, shared, memGb, deprecated] = row.split(';').map((c) => c.trim())
  if (!name || types[name]) throw new Error(`bad or repeated row: ${row}`)
  types[name] = { vcpus: Number(cpus), memoryGb: Number(memGb), sharedCpu: shared === 'True', deprecated: deprecated || null }
}
const sorted = Object.fromEntries(Object.keys(types).sort().map((k) => [k, types[k]]))
const lines = Object.entries(sorted).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`)
const source = {
  name: 'Google Compute Engine machine types (gcloud compute machine-types list)',
  repository: 'https://github.com/Cyclenerd/google-cloud-pricing-cost-calculator',
  commit,
  commitDate,
  file: FILE,
  licence: 'Apache-2.0',
}
writeFileSync(
  new URL('./gce_machine_types.json', import.meta.url),
  `{\n "_comment": "Intermediate file: GCE predefined machine types (vCPUs, memory GB) as Google's machineTypes API lists them, extracted verbatim by extract_gce_machine_types.mjs. Do not edit by hand.",\n "source": ${JSON.stringify(source)},\n "types": {\n${lines.join(',\n')}\n }\n}\n`,
)
console.error(`gce_machine_types.json: ${lines.length} machine types from ${commit.slice(0, 12)} (${commitDate})`)
