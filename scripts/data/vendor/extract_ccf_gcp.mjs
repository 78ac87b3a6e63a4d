#!/usr/bin/env node
// One-time extraction of Cloud Carbon Footprint's GCP figures (the @cloud-carbon-footprint/gcp
// package is not on the npm registry) into ccf_gcp.json, which generate.mjs then reads.
//
// Usage: node extract_ccf_gcp.mjs <path to a git dir of cloud-carbon-footprint/cloud-carbon-footprint> [commit]
// Reads (with `git show`, no work tree needed):
//   packages/gcp/src/domain/GcpFootprintEstimationConstants.ts
//   packages/gcp/src/lib/MachineTypes.ts
//   packages/gcp/src/lib/GCPRegions.ts
// and the processor names from the pinned @cloud-carbon-footprint/core in ../node_modules.
// The output records repository, commit and files. Not run by CI (CI cannot fetch the repo).
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const [gitDir, commitArg] = process.argv.slice(2)
if (!gitDir) {
  console.error('usage: extract_ccf_gcp.mjs <git dir> [commit]')
  process.exit(2)
}
const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8' })
const commit = git('rev-parse', commitArg ?? 'HEAD').trim()
const commitDate = git('show', '-s', '--format=%cI', commit).trim()
const files = {
  constants: 'packages/gcp/src/domain/GcpFootprintEstimationConstants.ts',
  machineTypes: 'packages/gcp/src/lib/MachineTypes.ts',
  regions: 'packages/gcp/src/lib/GCPRegions.ts',
  gcpPackage: 'packages/gcp/package.json',
}
const src = Object.fromEntries(Object.entries(files).map(([k, p]) => [k, git('show', `${commit}:${p}`)]))

const core = require('@cloud-carbon-footprint/core/dist/compute/ComputeProcessorTypes.js')
const P = core.COMPUTE_PROCESSOR_TYPES

// enum GCP_REGIONS / GCP_DUAL_REGIONS / GCP_MULTI_REGIONS
const enums = {}
for (const m of src.regions.matchAll(/export enum (\w+) \{([^}]*)\}/g)) {
  enums[m[1]] = Object.fromEntries([...m[2].matchAll(/(\w+) = '([^']*)'/g)].map((x) => [x[1], x[2]]))
}
const enumsSc = {}
for (const m of src.machineTypes.matchAll(/export enum (\w+) \{([^}]*)\}/g)) {
  enumsSc[m[1]] = Object.fromEntries([...m[2].matchAll(/(\w+) = '([^']*)'/g)].map((x) => [x[1], x[2]]))
}

// Turn a TypeScript object literal into a JS value: substitute enum keys and named arrays.
function evalLiteral(text) {
  let t = text
    .replace(/\[COMPUTE_PROCESSOR_TYPES\.(\w+)\]:/g, (_, k) => JSON.stringify(P[k]) + ':')
    .replace(/COMPUTE_PROCESSOR_TYPES\.(\w+)/g, (_, k) => JSON.stringify(P[k]))
    .replace(/\[(GCP_REGIONS|GCP_DUAL_REGIONS|GCP_MULTI_REGIONS)\.(\w+)\]:/g, (_, e, k) => JSON.stringify(enums[e][k]) + ':')
    .replace(/\[(SHARED_CORE_PROCESSORS)\.(\w+)\]:/g, (_, e, k) => JSON.stringify(enumsSc[e][k]) + ':')
  for (const name of Object.keys(core)) {
    if (Array.isArray(core[name])) t = t.replace(new RegExp(`\\b${name}\\b`, 'g'), JSON.stringify(core[name]))
  }
  return Function(`"use strict"; return (${t})`)()
}
// The balanced {...} literal that follows `marker` in text.
function literalAfter(text, marker) {
  const at = text.indexOf(marker)
  if (at < 0) throw new Error(`marker not found: ${marker}`)
  let i = text.indexOf('{', at + marker.length)
  const start = i
  let depth = 0
  for (; i < text.length; i++) {
    if (text[i] === '{') depth++
    else if (text[i] === '}' && --depth === 0) break
  }
  return evalLiteral(text.slice(start, i + 1))
}
function numberAfter(text, key) {
  const m = text.match(new RegExp(`${key}: ([0-9.]+)`))
  if (!m) throw new Error(`number not found: ${key}`)
  return Number(m[1])
}

const c = src.constants
// The grid (non carbon-free-energy) emission factors are the second `return {` of getGCPEmissionsFactors.
const efFn = c.slice(c.indexOf('export const getGCPEmissionsFactors'))
const gridReturn = efFn.indexOf('return {', efFn.indexOf('return {') + 1)
const out = {
  _comment:
    'Intermediate file: figures extracted verbatim from Cloud Carbon Footprint\'s GCP package source by extract_ccf_gcp.mjs. Do not edit by hand; re-run the extractor.',
  source: {
    name: 'Cloud Carbon Footprint (@cloud-carbon-footprint/gcp, not published on npm)',
    repository: 'https://github.com/cloud-carbon-footprint/cloud-carbon-footprint',
    commit,
    commitDate,
    packageVersion: JSON.parse(src.gcpPackage).version,
    files: Object.values(files),
    licence: 'Apache-2.0',
  },
  SSDCOEFFICIENT: numberAfter(c, 'SSDCOEFFICIENT'),
  HDDCOEFFICIENT: numberAfter(c, 'HDDCOEFFICIENT'),
  MIN_WATTS_MEDIAN: numberAfter(c, 'MIN_WATTS_MEDIAN'),
  MAX_WATTS_MEDIAN: numberAfter(c, 'MAX_WATTS_MEDIAN'),
  MIN_WATTS_BY_COMPUTE_PROCESSOR: literalAfter(c, 'MIN_WATTS_BY_COMPUTE_PROCESSOR:'),
  MAX_WATTS_BY_COMPUTE_PROCESSOR: literalAfter(c, 'MAX_WATTS_BY_COMPUTE_PROCESSOR:'),
  NETWORKING_COEFFICIENT: numberAfter(c, 'NETWORKING_COEFFICIENT'),
  MEMORY_COEFFICIENT: numberAfter(c, 'MEMORY_COEFFICIENT'),
  PUE_AVG: numberAfter(c, 'PUE_AVG'),
  PUE_TRAILING_TWELVE_MONTH: literalAfter(c, 'PUE_TRAILING_TWELVE_MONTH:'),
  SERVER_EXPECTED_LIFESPAN: numberAfter(c, 'SERVER_EXPECTED_LIFESPAN'),
  EMISSIONS_FACTORS_METRIC_TON_PER_KWH: evalLiteral(
    (() => {
      const s = efFn.indexOf('{', gridReturn)
      let d = 0
      let i = s
      for (; i < efFn.length; i++) {
        if (efFn[i] === '{') d++
        else if (efFn[i] === '}' && --d === 0) break
      }
      return efFn.slice(s, i + 1)
    })(),
  ),
  REGIONS: enums.GCP_REGIONS,
  DUAL_REGIONS: enums.GCP_DUAL_REGIONS,
  MULTI_REGIONS: enums.GCP_MULTI_REGIONS,
  INSTANCE_TYPE_COMPUTE_PROCESSOR_MAPPING: literalAfter(src.machineTypes, 'INSTANCE_TYPE_COMPUTE_PROCESSOR_MAPPING: {\n  [instanceType: string]: string[]\n} ='),
  GPU_MACHINE_TYPES: evalLiteral(src.machineTypes.match(/GPU_MACHINE_TYPES: string\[\] = (\[[^\]]*\])/)[1]),
  SHARED_CORE_PROCESSORS_BASELINE_UTILIZATION: literalAfter(src.machineTypes, 'SHARED_CORE_PROCESSORS_BASELINE_UTILIZATION: {\n  [key: string]: number\n} ='),
  MACHINE_FAMILY_TO_MACHINE_TYPE_MAPPING: literalAfter(src.machineTypes, 'MACHINE_FAMILY_TO_MACHINE_TYPE_MAPPING: {\n  [instanceFamily: string]: { [instanceSize: string]: number[] } // [vcpus, scope3 emissions (mt CO2e)]\n} ='),
  MACHINE_FAMILY_SHARED_CORE_TO_MACHINE_TYPE_MAPPING: literalAfter(src.machineTypes, 'MACHINE_FAMILY_SHARED_CORE_TO_MACHINE_TYPE_MAPPING: {\n  [instanceFamily: string]: { [instanceSize: string]: number[] } // [vcpus, scope3 emissions]\n} ='),
  N1_SHARED_CORE_MACHINE_FAMILY_TO_MACHINE_TYPE_MAPPING: literalAfter(src.machineTypes, 'N1_SHARED_CORE_MACHINE_FAMILY_TO_MACHINE_TYPE_MAPPING: {\n  [instanceSize: string]: number[] // [vcpus, scope3 emissions]\n} ='),
}
writeFileSync(new URL('./ccf_gcp.json', import.meta.url), JSON.stringify(out, null, 2) + '\n')
console.error(`wrote ccf_gcp.json from ${commit}`)

// The grid emission factors' cited source per AWS and Azure region, from the methodology page
// (Appendix V) of the same commit. Region display names ("East US 2*") are turned into keys
// ("eastus2") by lower-casing and dropping spaces and footnote stars.
const methodologyPath = 'microsite/docs/HowItWorks/Methodology.md'
const md = git('show', `${commit}:${methodologyPath}`)
const appendix = md.slice(md.indexOf('### Appendix V'))
const sections = {}
let current = null
for (const line of appendix.split('\n')) {
  const h = line.match(/^#### (\w+)/)
  if (h) {
    current = h[1].toLowerCase()
    sections[current] = {}
    continue
  }
  if (!current || !line.startsWith('|')) continue
  const cells = line.split('|').slice(1, -1).map((c) => c.trim())
  const link = cells[cells.length - 1].match(/\[([^\]]+)\]\(([^)]+)\)/)
  if (!link) continue
  const key = cells[0].toLowerCase().replace(/[\s*]/g, '')
  sections[current][key] = { name: link[1], url: link[2] }
}
writeFileSync(
  new URL('./ccf_grid_sources.json', import.meta.url),
  JSON.stringify(
    {
      _comment:
        "Intermediate file: the source CCF's methodology page cites for each region's grid emission factor (Appendix V), extracted by extract_ccf_gcp.mjs. Do not edit by hand.",
      source: { repository: out.source.repository, commit, commitDate, file: methodologyPath, licence: 'Apache-2.0' },
      regions: sections,
    },
    null,
    2,
  ) + '\n',
)
console.error(`wrote ccf_grid_sources.json (${Object.entries(sections).map(([k, v]) => `${k}: ${Object.keys(v).length}`).join(', ')})`)
