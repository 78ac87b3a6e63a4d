#!/usr/bin/env node
// One-time extraction of Google's published grid carbon intensity per GCP region and year
// (GoogleCloudPlatform/region-carbon-info, data/yearly/*.csv) into region_carbon_info.json,
// used by generate.mjs only for GCP regions that Cloud Carbon Footprint does not list.
// Usage: node extract_region_carbon_info.mjs <git dir of GoogleCloudPlatform/region-carbon-info> [commit]
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'

const [gitDir, commitArg] = process.argv.slice(2)
if (!gitDir) {
  console.error('usage: extract_region_carbon_info.mjs <git dir> [commit]')
  process.exit(2)
}
const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8' })
const commit = git('rev-parse', commitArg ?? 'HEAD').trim()
const commitDate = git('show', '-s', '--format=%cI', commit).trim()
const files = git('ls-tree', '-r', '--name-only', commit, 'data/yearly').trim().split('\n').filter((f) => f.endsWith('.csv'))
const years = {}
for (const f of files) {
  const year = f.match(/(\d{4})\.csv$/)[1]
  const rows = git('show', `${commit}:${f}`).trim().split('\n').slice(1)
  years[year] = {}
  for (const row of rows) {
    const [region, location, cfe, intensity] = row.split(',').map((c) => c.trim())
    if (!region) continue
    years[year][region] = { location, googleCfe: Number(cfe), gCO2eqPerKWh: Number(intensity) }
  }
}
writeFileSync(
  new URL('./region_carbon_info.json', import.meta.url),
  JSON.stringify(
    {
      _comment: 'Intermediate file: Google Cloud region grid carbon intensity by year, extracted verbatim by extract_region_carbon_info.mjs. Do not edit by hand.',
      source: {
        name: 'Google Cloud region carbon info',
        repository: 'https://github.com/GoogleCloudPlatform/region-carbon-info',
        commit,
        commitDate,
        files,
        licence: 'Apache-2.0',
      },
      years,
    },
    null,
    2,
  ) + '\n',
)
console.error(`wrote region_carbon_info.json from ${commit}: years ${Object.keys(years).join(', ')}`)
