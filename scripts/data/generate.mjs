#!/usr/bin/env node
// Generates carbon-show's reference tables in data/ from pinned sources:
//   - npm @cloud-carbon-footprint/{aws,azure,core,common} (versions pinned in package.json and
//     package-lock.json, installed into scripts/data/node_modules with `npm ci`),
//   - vendor/ccf_gcp.json, vendor/ccf_grid_sources.json (extracted once from CCF's repository,
//     whose GCP package is not on npm), vendor/region_carbon_info.json (Google's published
//     per-region grid intensity), vendor/carbonifer/ (Carbonifer v0.4.0 data files),
//   - vendor/libcloud_ec2.json, vendor/moto_ec2.json (EC2 specifications extracted from the
//     pinned PyPI packages apache-libcloud and moto),
//   - vendor/curated.json (hand-curated names and classifications, documented).
//
// Usage: node scripts/data/generate.mjs           writes data/*
//        node scripts/data/generate.mjs --check   writes nothing; exits 1 if data/ differs
// Exit codes: 0 ok, 1 data/ out of date (--check) or a source inconsistency, 3 npm sources absent.
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { assertNoPlaceholder, boaviztaParts, ccfParts, placeholder, share, socketsFromCcf, total } from './host_model.mjs'

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = join(HERE, '..', '..')
const DATA = join(ROOT, 'data')
const VENDOR = join(HERE, 'vendor')
const CHECK = process.argv.includes('--check')

const PACKAGES = ['aws', 'azure', 'core', 'common'].map((p) => `@cloud-carbon-footprint/${p}`)
if (!existsSync(join(HERE, 'node_modules', '@cloud-carbon-footprint', 'core'))) {
  console.error('generate.mjs: the pinned npm sources are not installed (run `npm ci` in scripts/data, or scripts/data/check.sh)')
  process.exit(3)
}
process.noDeprecation = true
const require = createRequire(import.meta.url)
const pkg = JSON.parse(readFileSync(join(HERE, 'package.json'), 'utf8'))
const pins = pkg.dependencies
const versions = {}
for (const p of PACKAGES) {
  const v = JSON.parse(readFileSync(join(HERE, 'node_modules', p, 'package.json'), 'utf8')).version
  if (v !== pins[p]) fail(`${p}: installed ${v} but package.json pins ${pins[p]} (run npm ci)`)
  versions[p] = v
}

const awsTypes = require('@cloud-carbon-footprint/aws/dist/lib/AWSInstanceTypes.js')
const { AWS_CLOUD_CONSTANTS, AWS_EMISSIONS_FACTORS_METRIC_TON_PER_KWH } = require('@cloud-carbon-footprint/aws/dist/domain/AwsFootprintEstimationConstants.js')
const azureTypes = require('@cloud-carbon-footprint/azure/dist/lib/VirtualMachineTypes.js')
const { AZURE_CLOUD_CONSTANTS, AZURE_EMISSIONS_FACTORS_METRIC_TON_PER_KWH } = require('@cloud-carbon-footprint/azure/dist/domain/AzureFootprintEstimationConstants.js')
const { COMPUTE_PROCESSOR_TYPES } = require('@cloud-carbon-footprint/core/dist/compute/ComputeProcessorTypes.js')

const readJson = (p) => JSON.parse(readFileSync(p, 'utf8'))
const ccfGcp = readJson(join(VENDOR, 'ccf_gcp.json'))
const ccfGridSources = readJson(join(VENDOR, 'ccf_grid_sources.json'))
const regionCarbonInfo = readJson(join(VENDOR, 'region_carbon_info.json'))
const curated = readJson(join(VENDOR, 'curated.json'))
const libcloudEc2 = readJson(join(VENDOR, 'libcloud_ec2.json'))
const motoEc2 = readJson(join(VENDOR, 'moto_ec2.json'))
const gceTypes = readJson(join(VENDOR, 'gce_machine_types.json'))
const hostsIn = readJson(join(VENDOR, 'hosts.json'))
const gpusIn = readJson(join(VENDOR, 'gpus.json'))
const CB = join(VENDOR, 'carbonifer')
const cbAws = readJson(join(CB, 'aws_instances.json'))
const cbGcp = readJson(join(CB, 'gcp_instances.json'))
const cbSql = readJson(join(CB, 'gcp_sql_tiers.json'))
const cbGpuWatt = readFileSync(join(CB, 'gpu_watt.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','))

function fail(msg) {
  console.error(`generate.mjs: ${msg}`)
  process.exit(1)
}
const notes = [] // printed at the end: every judgement call the generator made on the data
const note = (m) => notes.push(m)
const round = (x, digits = 6) => Number(x.toFixed(digits))
const byKey = (a, b) => (a < b ? -1 : a > b ? 1 : 0)
const sortObject = (o) => Object.fromEntries(Object.keys(o).sort(byKey).map((k) => [k, o[k]]))
const withoutMeta = (o) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('_')))
// Insert into a table, asserting no key is produced twice.
function put(table, key, value, what) {
  if (Object.prototype.hasOwnProperty.call(table, key)) fail(`duplicate key ${key} in ${what}`)
  table[key] = value
}

// ---------------------------------------------------------------- sources
const CCF_NPM = (p, what) => ({
  name: p,
  version: versions[p],
  year: pkg.sourceYears[p],
  licence: 'Apache-2.0',
  url: `npm:${p}@${versions[p]}`,
  used: what,
})
const SOURCES = {
  ccfAws: CCF_NPM('@cloud-carbon-footprint/aws', 'EC2 and RDS instance tables, processor and GPU mappings, embodied totals, AWS coefficients and emission factors'),
  ccfAzure: CCF_NPM('@cloud-carbon-footprint/azure', 'Azure VM sizes, processor and GPU mappings, embodied totals, Azure coefficients and emission factors'),
  ccfCore: CCF_NPM('@cloud-carbon-footprint/core', 'processor names, the average-or-median rule, the 35,040 h server lifespan'),
  ccfCommon: CCF_NPM('@cloud-carbon-footprint/common', 'dependency of the above (configuration)'),
  ccfGcp: {
    name: '@cloud-carbon-footprint/gcp (from the repository; not published on npm)',
    version: `${ccfGcp.source.packageVersion} (commit ${ccfGcp.source.commit.slice(0, 12)})`,
    year: Number(ccfGcp.source.commitDate.slice(0, 4)),
    licence: 'Apache-2.0',
    url: `${ccfGcp.source.repository}/tree/${ccfGcp.source.commit}/packages/gcp`,
    used: `GCP coefficients, processor mapping, embodied totals, emission factors; extracted into scripts/data/vendor/ccf_gcp.json from ${ccfGcp.source.files.join(', ')}`,
  },
  ccfMethodology: {
    name: 'Cloud Carbon Footprint methodology page (Appendix V, grid emission factors)',
    version: `commit ${ccfGridSources.source.commit.slice(0, 12)}`,
    year: Number(ccfGridSources.source.commitDate.slice(0, 4)),
    licence: 'Apache-2.0',
    url: `${ccfGridSources.source.repository}/blob/${ccfGridSources.source.commit}/${ccfGridSources.source.file}`,
    used: 'the dataset each AWS/Azure/GCP emission factor comes from; extracted into scripts/data/vendor/ccf_grid_sources.json',
  },
  carbonifer: {
    name: 'Carbonifer data files',
    version: 'v0.4.0 (commit 502052c)',
    year: 2023,
    licence: 'Apache-2.0',
    url: 'https://github.com/carboniferio/carbonifer/tree/502052c/data',
    used: 'EC2 vCPU/memory/GPU/instance storage (from the AWS API), GCP machine types with memory and GPUs, Cloud SQL tiers; copied into scripts/data/vendor/carbonifer/',
  },
  regionCarbonInfo: {
    name: 'Google Cloud region carbon info',
    version: `commit ${regionCarbonInfo.source.commit.slice(0, 12)}`,
    year: Number(regionCarbonInfo.source.commitDate.slice(0, 4)),
    licence: 'Apache-2.0',
    url: `${regionCarbonInfo.source.repository}/tree/${regionCarbonInfo.source.commit}/data/yearly`,
    used: 'grid intensity of GCP regions that CCF does not list; extracted into scripts/data/vendor/region_carbon_info.json',
  },
  libcloud: {
    name: 'apache-libcloud EC2 instance types',
    version: `${libcloudEc2.source.version} (${libcloudEc2.source.file}, sha256 ${libcloudEc2.source.sha256.slice(0, 12)})`,
    year: 2026,
    licence: 'Apache-2.0',
    url: `pypi:apache-libcloud==${libcloudEc2.source.version}`,
    used: 'EC2 vCPU/memory/GPU count/instance storage of the types CCF and Carbonifer lack (generated upstream from the AWS Price List API); extracted into scripts/data/vendor/libcloud_ec2.json by extract_libcloud_ec2.py',
  },
  moto: {
    name: 'moto EC2 instance types',
    version: `${motoEc2.source.version} (${motoEc2.source.file}, sha256 ${motoEc2.source.sha256.slice(0, 12)})`,
    year: 2026,
    licence: 'Apache-2.0',
    url: `pypi:moto==${motoEc2.source.version}`,
    used: "EC2 vCPU/memory/GPU model, count and partition/instance storage of the types the other sources lack (EC2's DescribeInstanceTypes output as moto ships it), and a cross-check of every type they share; extracted into scripts/data/vendor/moto_ec2.json by extract_moto_ec2.py",
  },
  gceApi: {
    name: gceTypes.source.name,
    version: `commit ${gceTypes.source.commit.slice(0, 12)} (${gceTypes.source.commitDate.slice(0, 10)}), ${gceTypes.source.file}`,
    year: Number(gceTypes.source.commitDate.slice(0, 4)),
    licence: gceTypes.source.licence,
    url: `${gceTypes.source.repository}/blob/${gceTypes.source.commit}/${gceTypes.source.file}`,
    used: "vCPU and memory of the GCP predefined machine types the other sources lack (C4D, N4D, N4A, H4D, M4, X4, C4 288-vCPU, -lssd/-metal variants), and a check of the others: Google's machineTypes API output (gcloud compute machine-types list) as the repository's maintainer dumps it; extracted into scripts/data/vendor/gce_machine_types.json by extract_gce_machine_types.mjs",
  },
  hostDocs: {
    name: 'provider documentation: burstable platforms and baseline CPU shares',
    version: 'scripts/data/vendor/hosts.json',
    year: 2026,
    licence: 'facts cited from AWS, Google Cloud and Microsoft Azure documentation (urls in the file)',
    url: 'docs/methodology.md#embodied-emissions-by-host',
    used: 'the host platform of burstable and shared-core families (t2/t3/t3a/t4g, e2/f1/g1, Azure B-series) and their published baseline CPU share per vCPU',
  },
  hostParts: {
    name: 'host model: CCF coefficients (Teads) and shared physical servers',
    version: 'scripts/data/vendor/host_parts.json',
    year: 2021,
    licence: 'facts cited from Teads Engineering (2021) as adopted by Cloud Carbon Footprint, and provider documentation (urls in the file)',
    url: 'https://medium.com/teads-engineering/building-an-aws-ec2-carbon-emissions-dataset-3f0fd76c98ac',
    used: 'per-part embodied coefficients (base server 1,000 kg with one CPU and 16 GB, 100 kg per additional CPU, 1.3869 kg per GB, 100 kg per SSD, 50 kg per HDD, 150 kg per GPU), CCF placeholders, sockets, the physical servers shared by families and clouds, local SSD of GCP GPU machine types',
  },
  boaviztaParts: {
    name: 'Boavizta component factors (boaviztapi)',
    version: '2.5.0 (data/factors.yml, data/crowdsourcing/gpu_specs.csv; scripts/data/vendor/boavizta_parts.json)',
    year: 2025,
    licence: 'AGPL-3.0 package; factors are published figures with their own sources, read as facts',
    url: 'pypi:boaviztapi==2.5.0',
    used: 'the second method of the embodied band: chassis (motherboard, power supplies, assembly, rack case), CPU per socket, memory per GB, SSD per TB, HDD per drive, GPU per card by model',
  },
  gpuDatasheets: {
    name: 'GPU vendor datasheets (board power / TDP)',
    version: 'scripts/data/vendor/gpus.json',
    year: 2026,
    licence: 'facts cited from NVIDIA and Habana datasheets (urls in the file)',
    url: 'docs/methodology.md#gpu-power',
    used: 'max watts of GPU models CCF has no figure for (L4, L40S, H100, H100 NVL, H200, B200, B200 of GB200, B300, RTX PRO 6000 and 4500 Blackwell Server Edition, Gaudi HL-205); idle = max x the median idle/max ratio of CCF GPU figures; a GPU partition (g6f, g4) takes its share of both',
  },
  curated: {
    name: 'carbon-show curated classifications',
    version: 'scripts/data/vendor/curated.json',
    year: 2026,
    licence: 'Apache-2.0',
    url: 'docs/methodology.md',
    used: 'name normalisation, CPU platforms of families the packages do not classify, RDS families, GCP families missing upstream, same-grid region aliases',
  },
}
// The datasets behind the grid emission factors (as cited by CCF).
const GRID_DATASETS = {
  EPA: { name: 'US EPA eGRID2020', year: 2020, url: 'https://www.epa.gov/egrid/download-data' },
  EEA: { name: 'EEA CO2 emission intensity of electricity generation', year: 2020, url: 'https://www.eea.europa.eu/data-and-maps/daviz/co2-emission-intensity-9/#tab-chart_2' },
  'carbonfootprint.com': { name: 'carbonfootprint.com country grid emission factors for 2021 electricity (v11)', year: 2021, url: 'https://www.carbonfootprint.com/docs/2022_03_emissions_factors_sources_for_2021_electricity_v11.pdf' },
  Google: { name: 'Google Cloud region carbon data (2021)', year: 2021, url: 'https://cloud.google.com/sustainability/region-carbon' },
}

// ---------------------------------------------------------------- names
const archAliases = withoutMeta(curated.architectureAliases)
const CPU_NAMES = new Set(
  Object.values(COMPUTE_PROCESSOR_TYPES).filter((n) => !/^(Nvidia|AMD Radeon|Xilinx)/.test(n) && n !== 'Unknown'),
)
function normArchs(list) {
  const out = []
  for (const raw of list ?? []) {
    const name = Object.prototype.hasOwnProperty.call(archAliases, raw) ? archAliases[raw] : raw
    if (name && !out.includes(name)) out.push(name)
  }
  return out
}
const gpuNames = withoutMeta(curated.awsGpuNames)
function gpuSlug(name) {
  if (gpuNames[name]) return gpuNames[name]
  fail(`no GPU slug for ${JSON.stringify(name)} (add it to vendor/curated.json awsGpuNames)`)
}
const repeat = (n, x) => Array.from({ length: n }, () => x)

// ---------------------------------------------------------------- AWS
const ccfEc2 = {} // name -> {family, vcpus, memGb, embodiedT}
for (const table of [awsTypes.EC2_INSTANCE_TYPES, awsTypes.INSTANCE_FAMILY_TO_INSTANCE_TYPE_MAPPING]) {
  for (const [family, sizes] of Object.entries(table)) {
    for (const [size, v] of Object.entries(sizes)) {
      const name = `${family}.${size}`.trim().toLowerCase()
      if (ccfEc2[name]) fail(`CCF lists ${name} twice`)
      ccfEc2[name] = { family: family.trim().toLowerCase(), vcpus: v[0], memGb: v[1], embodiedT: v[2] }
    }
  }
}
const REDSHIFT_FAMILIES = ['dc1', 'dc2', 'ds2', 'ra3'] // Redshift node types inside CCF's EC2 table
for (const n of Object.keys(ccfEc2)) {
  if (REDSHIFT_FAMILIES.includes(ccfEc2[n].family)) {
    delete ccfEc2[n]
    note(`aws: left out Redshift node type ${n} (not an EC2 type)`)
  }
}
const lowerKeys = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k.trim().toLowerCase(), v]))
const ccfAwsArch = lowerKeys(awsTypes.INSTANCE_TYPE_COMPUTE_PROCESSOR_MAPPING)
const ccfAwsGpuCount = lowerKeys(awsTypes.GPU_INSTANCES_TYPES)
const ccfAwsGpuModel = lowerKeys(awsTypes.INSTANCE_TYPE_GPU_PROCESSOR_MAPPING)
const familyOf = (name) => name.split('.')[0]
const ccfAwsFamilyArch = {}
for (const [name, archs] of Object.entries(ccfAwsArch)) {
  const f = familyOf(name)
  const a = normArchs(archs)
  if (a.length && !ccfAwsFamilyArch[f]) ccfAwsFamilyArch[f] = a
}
const awsCuratedArch = withoutMeta(curated.awsFamilyArchitectures)
// Per-GPU memory of each model, learnt from types both tables know (to count GPUs of types only Carbonifer has).
const gpuMemPerModel = {}
for (const [name, count] of Object.entries(ccfAwsGpuCount)) {
  const cb = cbAws[name]
  if (cb && cb.GPUMemoryMb && cb.GPUs.length) gpuMemPerModel[gpuSlug(cb.GPUs[0])] ??= cb.GPUMemoryMb / count
}

const aws = {}
const awsNames = [...new Set([...Object.keys(ccfEc2), ...Object.keys(cbAws)])].sort(byKey)
for (const name of awsNames) {
  const ccf = ccfEc2[name]
  const cb = cbAws[name]
  const family = familyOf(name)
  if (ccf && cb && (ccf.vcpus !== cb.VCPU || Math.abs(ccf.memGb * 1024 - cb.MemoryMb) > 1)) {
    note(`aws: ${name}: CCF says ${ccf.vcpus} vCPU / ${ccf.memGb} GiB, Carbonifer (AWS API) ${cb.VCPU} / ${cb.MemoryMb / 1024} GiB; kept Carbonifer's`)
  }
  let cpu = normArchs(ccfAwsArch[name])
  let cpuFrom = 'ccf'
  if (!cpu.length && ccfAwsFamilyArch[family]) cpu = ccfAwsFamilyArch[family]
  if (!cpu.length && awsCuratedArch[family]) {
    cpu = normArchs(awsCuratedArch[family])
    cpuFrom = 'curated'
  }
  if (!cpu.length) cpuFrom = 'none'
  let gpus = []
  if (ccfAwsGpuCount[name]) {
    gpus = repeat(ccfAwsGpuCount[name], gpuSlug(ccfAwsGpuModel[name][0]))
  } else if (cb && cb.GPUs.length) {
    const model = gpuSlug(cb.GPUs[0])
    const per = gpuMemPerModel[model] ?? curated.gpuMemoryMbPerModel[model]
    const count = per ? Math.max(1, Math.round(cb.GPUMemoryMb / per)) : 1
    gpus = repeat(count, model)
    note(`aws: ${name}: ${count} x ${model} counted from GPU memory ${cb.GPUMemoryMb} MiB${per ? ` / ${per} MiB per GPU` : ' (no per-GPU memory known: 1)'}`)
  }
  put(aws, name, {
    InstanceType: name,
    VCPU: cb ? cb.VCPU : ccf.vcpus,
    MemoryMb: cb ? cb.MemoryMb : Math.round(ccf.memGb * 1024),
    GPUs: gpus,
    GPUMemoryMb: cb ? cb.GPUMemoryMb : 0,
    InstanceStorage: cb ? cb.InstanceStorage : { SizePerDiskGB: 0, Count: 0, Type: '' },
    Family: family,
    Service: 'ec2',
    CPUTypes: cpu,
    Sources: [ccf && 'ccf', cb && 'carbonifer', cpuFrom === 'curated' && 'curated'].filter(Boolean),
  }, 'aws_instances')
}
// Types only apache-libcloud lists (families launched since Carbonifer's and CCF's tables):
// vCPU, memory, GPU count and instance storage as AWS's Price List states them; CPU platform
// and GPU model from curated.json (libcloud gives the processor name and GPU count only).
const awsGpuFamilies = withoutMeta(curated.awsGpuFamilies)
function parseStorage(text) {
  const m = /^(?:(\d+) x )?(\d+)(?: GB)? (?:NVMe )?(SSD|HDD)$/.exec(text)
  if (!m) return { SizePerDiskGB: 0, Count: 0, Type: '' }
  return { SizePerDiskGB: Number(m[2]), Count: Number(m[1] ?? 1), Type: m[3].toLowerCase() }
}
let libcloudOnly = 0
for (const [name, v] of Object.entries(libcloudEc2.types)) {
  const known = aws[name]
  if (known) {
    if (known.VCPU !== v.vcpus || Math.abs(known.MemoryMb - v.memoryMiB) > 1) note(`aws: ${name}: ${known.Sources.join('+')} say ${known.VCPU} vCPU / ${known.MemoryMb} MiB, apache-libcloud ${v.vcpus} / ${v.memoryMiB}; kept the older source's`)
    known.Sources.push('libcloud')
    continue
  }
  const family = familyOf(name)
  let cpu = ccfAwsFamilyArch[family] ?? normArchs(awsCuratedArch[family])
  if (!cpu.length) fail(`aws: ${name} (apache-libcloud, processor ${v.processor}) has no CPU platform: add its family to curated.json awsFamilyArchitectures`)
  let gpus = []
  if (v.gpus) {
    const model = awsGpuFamilies[family]
    if (!model) fail(`aws: ${name} has ${v.gpus} GPUs but curated.json awsGpuFamilies names no model for ${family}`)
    gpus = repeat(v.gpus, model)
  }
  const gpuMem = /^(\d+) (GB|GiB)/.exec(v.gpuMemory)
  put(aws, name, {
    InstanceType: name,
    VCPU: v.vcpus,
    MemoryMb: v.memoryMiB,
    GPUs: gpus,
    GPUMemoryMb: gpuMem ? Number(gpuMem[1]) * 1024 : 0,
    InstanceStorage: parseStorage(v.storage),
    Family: family,
    Service: 'ec2',
    CPUTypes: cpu,
    Sources: ['libcloud', 'curated'],
  }, 'aws_instances')
  libcloudOnly++
}
note(`aws: ${libcloudOnly} types only apache-libcloud ${libcloudEc2.source.version} lists were added`)
// Types only moto lists (its copy of EC2's DescribeInstanceTypes output: families launched
// 2025-2026 and .metal sizes the older tables lack): vCPU, memory, GPUs (model, count and
// partition as AWS states them) and instance storage; CPU platform from curated.json. Types
// the older sources already have are cross-checked against it (a note on any difference).
const gpuPartitions = {} // partition slug -> {model, share}: a fraction of one GPU (g6f, gr6f)
function partitionSlug(model, share) {
  const slug = `${model}-part-${share}`
  gpuPartitions[slug] = { model, share }
  return slug
}
let motoOnly = 0
for (const [name, v] of Object.entries(motoEc2.types)) {
  const known = aws[name]
  if (known) {
    if (known.VCPU !== v.vcpus || Math.abs(known.MemoryMb - v.memoryMiB) > 1) note(`aws: ${name}: ${known.Sources.join('+')} say ${known.VCPU} vCPU / ${known.MemoryMb} MiB, moto (AWS API) ${v.vcpus} / ${v.memoryMiB}; kept the older source's`)
    known.Sources.push('moto')
    continue
  }
  const family = familyOf(name)
  const cpu = ccfAwsFamilyArch[family] ?? normArchs(awsCuratedArch[family])
  if (!cpu.length) fail(`aws: ${name} (moto, ${v.manufacturer} ${v.clockGhz} GHz) has no CPU platform: add its family to curated.json awsFamilyArchitectures`)
  const gpus = []
  for (const g of v.gpus) {
    const model = gpuSlug(g.name)
    if (g.partition < 1) {
      if (g.count !== 0) fail(`aws: ${name}: ${g.count} GPUs and a partition ${g.partition}`)
      gpus.push(partitionSlug(model, g.partition))
    } else gpus.push(...repeat(g.count, model))
  }
  if (v.accelerators.length) note(`aws: ${name}: accelerators ${v.accelerators.join(', ')} have no power figure; not counted, as for the other Trainium/Inferentia/FPGA types`)
  const disks = v.storage
  put(aws, name, {
    InstanceType: name,
    VCPU: v.vcpus,
    MemoryMb: v.memoryMiB,
    GPUs: gpus,
    GPUMemoryMb: v.gpuMemoryMiB,
    InstanceStorage: disks.length ? { SizePerDiskGB: disks[0].sizeGB, Count: disks.reduce((n, d) => n + d.count, 0), Type: disks[0].type } : { SizePerDiskGB: 0, Count: 0, Type: '' },
    Family: family,
    Service: 'ec2',
    CPUTypes: cpu,
    Sources: ['moto', ...(ccfAwsFamilyArch[family] ? [] : ['curated'])],
  }, 'aws_instances')
  motoOnly++
}
note(`aws: ${motoOnly} types only moto ${motoEc2.source.version} lists were added`)
// Types no pinned package lists, entered by hand from a cited page (curated.json awsExtraTypes).
for (const [name, v] of Object.entries(withoutMeta(curated.awsExtraTypes))) {
  if (aws[name]) fail(`aws: curated ${name} is already in a pinned source; drop it from curated.json awsExtraTypes`)
  put(aws, name, {
    InstanceType: name,
    VCPU: v.vcpus,
    MemoryMb: v.memoryGiB * 1024,
    GPUs: v.gpus ? repeat(v.gpus, v.gpu) : [],
    GPUMemoryMb: 0,
    InstanceStorage: { SizePerDiskGB: 0, Count: 0, Type: '' },
    Family: familyOf(name),
    Service: 'ec2',
    CPUTypes: normArchs(v.cpuTypes),
    Sources: ['curated'],
  }, 'aws_instances')
}
// RDS: db.<EC2 type>, for the classes CCF lists and every size of the RDS families.
const rdsFamilies = curated.rdsFamilies.families
const ccfRds = awsTypes.RDS_INSTANCE_TYPES
const rdsNames = new Set(Object.keys(ccfRds).map((k) => k.trim().toLowerCase()))
for (const name of Object.keys(aws)) if (rdsFamilies.includes(familyOf(name))) rdsNames.add(`db.${name}`)
for (const db of [...rdsNames].sort(byKey)) {
  const base = aws[db.slice(3)]
  if (!base) {
    note(`aws: RDS class ${db} has no EC2 type of that name; left out`)
    continue
  }
  if (ccfRds[db] !== undefined && ccfRds[db] !== base.VCPU) note(`aws: ${db}: CCF RDS table says ${ccfRds[db]} vCPU, the EC2 type ${base.VCPU}; kept the EC2 figure`)
  put(aws, db, { ...base, InstanceType: db, Service: 'rds', Sources: [...base.Sources, ccfRds[db] !== undefined ? 'ccf-rds' : 'curated-rds'] }, 'aws_instances')
}

// ---------------------------------------------------------------- GCP
const gcpCcfArch = ccfGcp.INSTANCE_TYPE_COMPUTE_PROCESSOR_MAPPING
const gcpCuratedArch = withoutMeta(curated.gcpFamilyArchitectures)
const gcpFamily = (name) => name.split('-')[0]
function gcpArchs(name, fallback) {
  const f = gcpFamily(name)
  // CCF's family mapping first (its 'Unknown' for shared-core e2/f1/g1 is replaced by the family's list).
  const fromCcf = normArchs(gcpCcfArch[f])
  if (fromCcf.length) return { cpu: fromCcf, from: 'ccf' }
  const fromCb = normArchs(fallback)
  if (fromCb.length) return { cpu: fromCb, from: 'carbonifer' }
  if (gcpCuratedArch[f]) return { cpu: normArchs(gcpCuratedArch[f]), from: 'curated' }
  return { cpu: [], from: 'none' }
}
const gcp = {}
for (const name of Object.keys(cbGcp).sort(byKey)) {
  const v = cbGcp[name]
  const { cpu, from } = gcpArchs(name, v.cpuTypes)
  put(gcp, name, {
    name,
    vcpus: v.vcpus,
    memoryMb: v.memoryMb,
    gpus: v.gpus ?? [],
    cpuTypes: cpu,
    family: name.split('-').slice(0, 2).join('-'),
    sources: ['carbonifer', ...(from === 'carbonifer' ? [] : [from])],
  }, 'gcp_instances')
}
const ccfGcpTypes = {}
for (const sizes of Object.values(ccfGcp.MACHINE_FAMILY_TO_MACHINE_TYPE_MAPPING)) Object.assign(ccfGcpTypes, sizes)
for (const [name, [vcpus]] of Object.entries(ccfGcpTypes)) {
  if (!gcp[name]) fail(`gcp: CCF machine type ${name} is missing from Carbonifer's table (no memory figure)`)
  if (gcp[name].vcpus !== vcpus) note(`gcp: ${name}: CCF says ${vcpus} vCPU, Carbonifer ${gcp[name].vcpus}; kept Carbonifer's`)
}
// A named GCP shape's GPUs: a count, or a fraction of one GPU (G4's 1/8, 1/4, 1/2 RTX PRO 6000),
// which becomes a partition of the model that carries the watts, as EC2's g6f does.
function gcpNamedGpus(s) {
  if (s.gpus >= 1) return repeat(s.gpus, s.gpu)
  if (s.gpus > 0) return [partitionSlug(curated.gpuAliases[s.gpu] ?? s.gpu, s.gpus)]
  return []
}
for (const [family, spec] of Object.entries(withoutMeta(curated.gcpExtraFamilies))) {
  const shapes = spec.named
    ? Object.entries(spec.named).map(([n, s]) => [n, s.vcpus, s.memoryGb, gcpNamedGpus(s)])
    : spec.sizes.map((n) => [`${family}-${n}`, n, spec.memoryGbOverrides?.[`${family}-${n}`] ?? n * spec.gbPerVcpu, []])
  for (const [name, vcpus, memGb, gpus] of shapes) {
    if (gcp[name]) continue
    const { cpu } = gcpArchs(name, [])
    put(gcp, name, { name, vcpus, memoryMb: Math.round(memGb * 1024), gpus, cpuTypes: cpu, family, sources: ['curated'] }, 'gcp_instances')
  }
}
// Google's machineTypes API (gcloud compute machine-types list, dumped at a pinned commit of
// Cyclenerd/google-cloud-pricing-cost-calculator): the predefined types no source above lists
// (C4D, N4D, N4A, H4D, M4, X4, the 288-vCPU C4, -lssd and -metal variants), and a check of the
// ones they do. Carbonifer's figures (also from the API) stay; a curated shape that the API
// contradicts takes the API's figure. Accelerator-optimized types (a*, g*, ct*, tpu*) that
// curated.json does not name are left out: the dump does not give their GPUs or TPUs. A family
// with no CPU platform in CCF or curated.json is left out, with a note.
const GCE_ACCELERATOR = /^(a\d+x?|g\d+|ct\d+[a-z]*|tpu\d+[a-z]*)-/
let gceOnly = 0
for (const [name, v] of Object.entries(gceTypes.types)) {
  const memoryMb = Math.round(v.memoryGb * 1024)
  const known = gcp[name]
  if (known) {
    if (known.vcpus !== v.vcpus || Math.abs(known.memoryMb - memoryMb) > 1) {
      if (known.sources.includes('carbonifer')) note(`gcp: ${name}: Carbonifer says ${known.vcpus} vCPU / ${known.memoryMb} MiB, the GCE API dump ${v.vcpus} / ${memoryMb}; kept Carbonifer's`)
      else {
        note(`gcp: ${name}: curated shape ${known.vcpus} vCPU / ${known.memoryMb} MiB, the GCE API ${v.vcpus} / ${memoryMb} MiB; took the API's`)
        Object.assign(known, { vcpus: v.vcpus, memoryMb })
      }
    }
    known.sources.push('gce-api')
    continue
  }
  if (GCE_ACCELERATOR.test(name) || v.deprecated) {
    note(`gcp: ${name} (GCE API) left out: ${v.deprecated ? 'deprecated' : 'accelerator-optimized, its GPUs/TPUs are not in the dump'}`)
    continue
  }
  const { cpu, from } = gcpArchs(name, [])
  if (!cpu.length) {
    note(`gcp: ${name} (GCE API) left out: no CPU platform for its family in CCF or curated.json gcpFamilyArchitectures`)
    continue
  }
  put(gcp, name, { name, vcpus: v.vcpus, memoryMb, gpus: [], cpuTypes: cpu, family: name.split('-').slice(0, 2).join('-'), sources: ['gce-api', from] }, 'gcp_instances')
  gceOnly++
}
note(`gcp: ${gceOnly} machine types only the GCE API dump lists were added`)
const gcpSorted = sortObject(gcp)
const gcpSql = {}
for (const name of Object.keys(cbSql).sort(byKey)) {
  const v = cbSql[name]
  put(gcpSql, name, { ...v, cpuTypes: normArchs(gcpCcfArch.n1), sources: ['carbonifer', 'ccf'] }, 'gcp_sql_tiers')
}

// ---------------------------------------------------------------- Azure
const azNames = curated.azureNames
function azureKey(ccfName) {
  if (azNames.exceptions[ccfName]) return azNames.exceptions[ccfName]
  let n = ccfName.trim().replace(/\s+\d+$/, '')
  n = n.replace(/^Ds(?=\d)/, 'DS').replace(/^Gs(?=\d)/, 'GS').replace(/^B(\d+)Ls$/, 'B$1ls').replace(/^B(\d+)Ms$/, 'B$1ms')
  return `Standard_${n.replace(/\s+/g, '_')}`
}
const azCcfArch = {}
for (const [k, v] of Object.entries(azureTypes.INSTANCE_TYPE_COMPUTE_PROCESSOR_MAPPING)) azCcfArch[k.trim().toLowerCase()] = v
const azArch = (ccfName) => normArchs(azCcfArch[ccfName.trim().toLowerCase()] ?? azCcfArch[ccfName.trim().replace(/\s+\d+$/, '').toLowerCase()])
const azure = {}
const azureEmbodied = {}
const seriesMax = {}
for (const [series, sizes] of Object.entries(azureTypes.VIRTUAL_MACHINE_TYPE_SERIES_MAPPING)) {
  if (azNames.excludedSeries.includes(series)) {
    note(`azure: left out series "${series}" (not VM sizes)`)
    continue
  }
  const max = Math.max(...Object.values(sizes).map((v) => v[0]))
  for (const [ccfName, v] of Object.entries(sizes)) {
    const key = azureKey(ccfName)
    seriesMax[ccfName.trim().toLowerCase()] = { series, max }
    const gpuCount = azureTypes.GPU_VIRTUAL_MACHINE_TYPES[ccfName]
    let gpus = gpuCount ? repeat(gpuCount, gpuSlug(azureTypes.GPU_VIRTUAL_MACHINE_TYPE_PROCESSOR_MAPPING[ccfName][0])) : []
    const curatedGpus = curated.azureGpuCounts[key]
    if (curatedGpus) {
      if (gpus.length) fail(`azure: ${key} has GPUs in CCF's table; drop it from curated.json azureGpuCounts`)
      gpus = repeat(curatedGpus[0], curatedGpus[1])
      note(`azure: ${key}: ${curatedGpus[0]} x ${curatedGpus[1]} from curated.json (CCF lists no GPU count)`)
    }
    const entry = { name: key, vcpus: v[0], memoryMb: Math.round(v[1] * 1024), gpus, cpuTypes: azArch(ccfName), family: series, ccfName, sources: ['ccf'] }
    if (azure[key]) {
      const { ccfName: _a, ...a } = azure[key]
      const { ccfName: _b, ...b } = entry
      if (JSON.stringify({ ...a, family: 0 }) !== JSON.stringify({ ...b, family: 0 })) fail(`azure: ${key} from "${ccfName}" and "${azure[key].ccfName}" disagree`)
      note(`azure: ${key} is listed in series "${azure[key].family}" and "${series}" alike; kept the first (embodied ${azureEmbodied[key]?.totalT} t, not ${v[2]} t)`)
      continue
    }
    put(azure, key, entry, 'azure_instances')
    if (v[2] !== undefined) azureEmbodied[key] = { totalT: v[2], vcpus: v[0], familyMaxVcpus: max, family: series }
  }
}
// Constrained-vCPU sizes: [active vCPUs, memory GB, vCPUs of the parent size, embodied t].
for (const [ccfName, v] of Object.entries(azureTypes.VIRTUAL_MACHINE_TYPE_CONSTRAINED_VCPU_CAPABLE_MAPPING)) {
  const key = azureKey(ccfName)
  const parentName = ccfName.replace(/^([A-Za-z]+\d+)-\d+/, '$1')
  const parent = seriesMax[parentName.toLowerCase()] ?? seriesMax[parentName.replace(/^DS/, 'Ds').toLowerCase()]
  const entry = { name: key, vcpus: v[0], memoryMb: Math.round(v[1] * 1024), gpus: [], cpuTypes: azArch(ccfName).length ? azArch(ccfName) : azArch(parentName.replace(/^DS/, 'Ds')), family: parent ? parent.series : 'constrained vCPU', ccfName, sources: ['ccf'] }
  put(azure, key, entry, 'azure_instances')
  // The hardware reserved is the parent size's: its vCPUs carry the embodied share.
  if (v[3] !== undefined) azureEmbodied[key] = { totalT: v[3], vcpus: v[2], familyMaxVcpus: parent ? parent.max : v[2], family: entry.family }
  if (!parent) note(`azure: constrained size ${ccfName}: parent ${parentName} not found; embodied share uses its own parent vCPUs`)
}
for (const [series, spec] of Object.entries(withoutMeta(curated.azureExtraSeries))) {
  const shapes = spec.shapes
    ? Object.entries(spec.shapes).map(([n, [vcpus, gb, nGpus, gpu]]) => [n, vcpus, gb, nGpus ? repeat(nGpus, gpu) : []])
    : spec.sizes.flatMap((n) => spec.names.map((t) => [t.replace('{n}', n), n, n * spec.gbPerVcpu, []]))
  for (const [n, vcpus, gb, gpus] of shapes) {
    const key = `Standard_${n}`
    if (azure[key]) fail(`azure: curated ${key} is already in CCF's table; drop it from curated.json`)
    put(azure, key, { name: key, vcpus, memoryMb: Math.round(gb * 1024), gpus, cpuTypes: normArchs(spec.cpuTypes), family: series, ccfName: null, sources: ['curated'] }, 'azure_instances')
  }
}
for (const e of Object.values(azure)) delete e.ccfName
const azureSorted = sortObject(azure)

// ---------------------------------------------------------------- coefficients
function splitProcessors(minTable, maxTable, provider) {
  const cpus = {}
  const gpus = {}
  for (const [name, min] of Object.entries(minTable)) {
    const max = maxTable[name]
    if (max === undefined) fail(`${provider}: ${name} has a min but no max watts`)
    if (CPU_NAMES.has(name)) cpus[name] = { minWattsPerVcpu: min, maxWattsPerVcpu: max }
    else gpus[gpuSlug(name)] = { minWatts: min, maxWatts: max, name }
  }
  return { cpus, gpus }
}
const perProvider = {
  aws: splitProcessors(AWS_CLOUD_CONSTANTS.MIN_WATTS_BY_COMPUTE_PROCESSOR, AWS_CLOUD_CONSTANTS.MAX_WATTS_BY_COMPUTE_PROCESSOR, 'aws'),
  gcp: splitProcessors(ccfGcp.MIN_WATTS_BY_COMPUTE_PROCESSOR, ccfGcp.MAX_WATTS_BY_COMPUTE_PROCESSOR, 'gcp'),
  azure: splitProcessors(AZURE_CLOUD_CONSTANTS.MIN_WATTS_BY_COMPUTE_PROCESSOR, AZURE_CLOUD_CONSTANTS.MAX_WATTS_BY_COMPUTE_PROCESSOR, 'azure'),
}
// CCF gives every microarchitecture the same watts for every provider: merge, asserting that.
function merge(kind) {
  const out = {}
  for (const [provider, t] of Object.entries(perProvider)) {
    for (const [name, v] of Object.entries(t[kind])) {
      if (out[name] && JSON.stringify(out[name]) !== JSON.stringify(v)) fail(`${kind} ${name}: ${provider} differs from another provider`)
      out[name] = v
    }
  }
  return sortObject(out)
}
const cpuArchitectures = merge('cpus')
const gpuPower = merge('gpus')
for (const v of Object.values(gpuPower)) v.source = 'ccf'
// CCF figures for a two-GPU board, split per GPU (vendor/gpus.json perBoard: the instance tables
// count GPUs, half a board each).
for (const [slug, b] of Object.entries(withoutMeta(gpusIn.perBoard))) {
  const v = gpuPower[slug]
  if (!v || v.source !== 'ccf') fail(`gpus.json perBoard ${slug}: not a CCF model`)
  gpuPower[slug] = { ...v, minWatts: round(v.minWatts / b.gpusPerBoard, 3), maxWatts: round(v.maxWatts / b.gpusPerBoard, 3), boardWatts: [v.minWatts, v.maxWatts], gpusPerBoard: b.gpusPerBoard, url: b.url }
}
// Models CCF has no figure for: vendor datasheet TDP as max; idle = max x the median idle/max
// ratio of CCF's own GPU figures (vendor/gpus.json says why).
const ccfIdleRatios = Object.values(gpuPower).map((v) => v.minWatts / v.maxWatts).sort((a, b) => a - b)
const gpuIdleRatio = round(ccfIdleRatios.length % 2 ? ccfIdleRatios[(ccfIdleRatios.length - 1) / 2] : (ccfIdleRatios[ccfIdleRatios.length / 2 - 1] + ccfIdleRatios[ccfIdleRatios.length / 2]) / 2, 4)
for (const [slug, m] of Object.entries(withoutMeta(gpusIn.models))) {
  if (gpuPower[slug]) fail(`gpu ${slug}: vendor/gpus.json has a model CCF already has`)
  gpuPower[slug] = { minWatts: round(m.maxWatts * gpuIdleRatio, 1), maxWatts: m.maxWatts, name: m.name, source: 'datasheet', url: m.url, idleMethod: `maxWatts x ${gpuIdleRatio} (median idle/max ratio of CCF's GPU figures)` }
}
// GPU partitions (g6f/gr6f: 1/8, 1/4 or 1/2 of an L4, per DescribeInstanceTypes'
// GpuPartitionSize): the share of the whole GPU's idle and maximum watts.
for (const [slug, { model, share }] of Object.entries(gpuPartitions)) {
  const whole = gpuPower[model]
  if (!whole) fail(`gpu partition ${slug}: no watts for ${model}`)
  gpuPower[slug] = { minWatts: round(whole.minWatts * share, 3), maxWatts: round(whole.maxWatts * share, 3), name: `${whole.name} (a ${share} partition)`, source: whole.source, ...(whole.url ? { url: whole.url } : {}), partitionOf: model, share }
}
for (const [slug, min, max] of cbGpuWatt) {
  const target = gpuPower[slug] ?? gpuPower[curated.gpuAliases[slug]]
  if (!target) note(`gpu: Carbonifer's gpu_watt.csv has ${slug}, which no CCF table has; not used`)
  else if (target.minWatts !== Number(min) || target.maxWatts !== Number(max)) note(`gpu: Carbonifer's ${slug} ${min}/${max} W differs from CCF's ${target.minWatts}/${target.maxWatts} W; kept CCF's`)
}
const providerCoefficients = (c, { min, max, method, pueByRegion = {} }) => ({
  cpuMinWattsPerVcpu: min,
  cpuMaxWattsPerVcpu: max,
  cpuFallbackMethod: method,
  memoryKWhPerGBHour: c.MEMORY_COEFFICIENT,
  memoryWattsPerGB: round(c.MEMORY_COEFFICIENT * 1000),
  ssdWattsPerTB: c.SSDCOEFFICIENT,
  hddWattsPerTB: c.HDDCOEFFICIENT,
  networkingKWhPerGB: c.NETWORKING_COEFFICIENT,
  pue: c.PUE_AVG,
  pueByRegion: sortObject(pueByRegion),
  averageCpuUtilization: c.AVG_CPU_UTILIZATION_2020 / 100,
  serverLifespanHours: c.SERVER_EXPECTED_LIFESPAN,
})
const coefficients = {
  _units: {
    cpuMinWattsPerVcpu: 'W per vCPU at 0 % utilisation (provider fallback when no listed microarchitecture is known)',
    cpuMaxWattsPerVcpu: 'W per vCPU at 100 % utilisation',
    memoryWattsPerGB: "W per GB of memory (CCF's 0.000392 kWh per GB-hour x 1000)",
    ssdWattsPerTB: "W per TB of SSD storage (CCF's 'watt hours / terabyte hour')",
    hddWattsPerTB: 'W per TB of HDD storage',
    networkingKWhPerGB: 'kWh per GB transferred',
    pue: 'power usage effectiveness, provider average; pueByRegion overrides it where the provider publishes one',
    serverLifespanHours: 'hours of server life over which embodied emissions are spread (4 years)',
    'gpus.minWatts/maxWatts': 'W per GPU at 0 % / 100 % utilisation',
  },
  providers: {
    aws: providerCoefficients(AWS_CLOUD_CONSTANTS, { min: AWS_CLOUD_CONSTANTS.MIN_WATTS_AVG, max: AWS_CLOUD_CONSTANTS.MAX_WATTS_AVG, method: 'average' }),
    gcp: providerCoefficients(
      { ...ccfGcp, AVG_CPU_UTILIZATION_2020: 50 },
      { min: ccfGcp.MIN_WATTS_MEDIAN, max: ccfGcp.MAX_WATTS_MEDIAN, method: 'median', pueByRegion: ccfGcp.PUE_TRAILING_TWELVE_MONTH },
    ),
    azure: providerCoefficients(AZURE_CLOUD_CONSTANTS, { min: AZURE_CLOUD_CONSTANTS.MIN_WATTS_AVG, max: AZURE_CLOUD_CONSTANTS.MAX_WATTS_AVG, method: 'average' }),
  },
  cpuArchitectures,
  medianArchitectures: [COMPUTE_PROCESSOR_TYPES.SANDY_BRIDGE, COMPUTE_PROCESSOR_TYPES.IVY_BRIDGE],
  architectureAliases: sortObject(Object.fromEntries(Object.entries(archAliases).filter(([, v]) => v))),
  gpuIdleRatio,
  gpus: sortObject(gpuPower),
  gpuAliases: sortObject(withoutMeta(curated.gpuAliases)),
}
for (const [n, v] of Object.entries(cpuArchitectures)) if (!(v.minWattsPerVcpu > 0 && v.maxWattsPerVcpu > v.minWattsPerVcpu)) fail(`cpu ${n}: bad watts`)
for (const [n, v] of Object.entries(gpuPower)) if (!(v.minWatts > 0 && v.maxWatts > v.minWatts)) fail(`gpu ${n}: bad watts`)
// Every GPU of every shipped type has watts (issue 16: no 'GPU not counted' on a shipped type).
for (const [table, rows, gpusOf] of [['aws', aws, (v) => v.GPUs], ['gcp', gcp, (v) => v.gpus], ['azure', azure, (v) => v.gpus]]) {
  for (const [name, v] of Object.entries(rows)) for (const g of gpusOf(v)) if (!gpuPower[g] && !gpuPower[curated.gpuAliases[g]]) fail(`${table} ${name}: GPU ${g} has no watts (add it to vendor/gpus.json)`)
}

// ---------------------------------------------------------------- grid intensity
function datasetOf(provider, region) {
  const cited = ccfGridSources.regions[provider]?.[region.toLowerCase()]
  if (cited) return cited.name === 'EPA' || cited.name === 'EEA' || cited.name === 'Google' ? cited.name : 'carbonfootprint.com'
  if (provider === 'gcp') return 'Google'
  if (provider === 'aws') return /^us-/.test(region) ? 'EPA' : /^eu-/.test(region) ? 'EEA' : 'carbonfootprint.com'
  if (/^(centralus|eastus|westus|northcentralus|southcentralus|westcentralus|unitedstates|usnorth)/.test(region)) return 'EPA'
  if (/^(northeurope|westeurope)/.test(region)) return 'EEA'
  return 'carbonfootprint.com'
}
function gridEntry(provider, region, tPerKWh, via) {
  const ds = GRID_DATASETS[datasetOf(provider, region)]
  return { gCO2eqPerKWh: round(tPerKWh * 1e6), year: ds.year, source: ds.name, url: ds.url, via }
}
const grid = { aws: {}, gcp: {}, azure: {} }
const fallback = {}
for (const [region, f] of Object.entries(AWS_EMISSIONS_FACTORS_METRIC_TON_PER_KWH)) {
  if (region === 'Unknown') fallback.aws = { gCO2eqPerKWh: round(f * 1e6), method: "CCF's 'Unknown' AWS region factor (average of its AWS regions)", via: `@cloud-carbon-footprint/aws ${versions['@cloud-carbon-footprint/aws']}` }
  else put(grid.aws, region, gridEntry('aws', region, f, `@cloud-carbon-footprint/aws ${versions['@cloud-carbon-footprint/aws']}`), 'grid aws')
}
for (const [raw, f] of Object.entries(AZURE_EMISSIONS_FACTORS_METRIC_TON_PER_KWH)) {
  const region = raw.toLowerCase()
  const via = `@cloud-carbon-footprint/azure ${versions['@cloud-carbon-footprint/azure']}`
  if (region === 'unknown') {
    fallback.azure = { gCO2eqPerKWh: round(f * 1e6), method: "CCF's 'Unknown' Azure region factor", via }
    continue
  }
  if (grid.azure[region]) {
    if (grid.azure[region].gCO2eqPerKWh !== round(f * 1e6)) fail(`azure region ${region} listed twice with different factors`)
    continue
  }
  put(grid.azure, region, gridEntry('azure', region, f, via), 'grid azure')
}
const ccfGcpVia = `@cloud-carbon-footprint/gcp ${ccfGcp.source.packageVersion} (repository commit ${ccfGcp.source.commit.slice(0, 12)})`
const dual = Object.values(ccfGcp.DUAL_REGIONS)
const multi = Object.values(ccfGcp.MULTI_REGIONS)
for (const [region, f] of Object.entries(ccfGcp.EMISSIONS_FACTORS_METRIC_TON_PER_KWH)) {
  if (region === 'Unknown') {
    fallback.gcp = { gCO2eqPerKWh: round(f * 1e6), method: "CCF's 'Unknown' GCP region factor (average of its single regions)", via: ccfGcpVia }
  } else if (dual.includes(region) || multi.includes(region)) {
    note(`gcp: CCF's factor for ${dual.includes(region) ? 'dual' : 'multi'}-region ${region} (${round(f * 1e6)}) is a sum of regions, not an intensity; ${dual.includes(region) ? 'replaced by the mean of its two regions' : 'left out (members unknown)'}`)
  } else put(grid.gcp, region, gridEntry('gcp', region, f, ccfGcpVia), 'grid gcp')
}
// Dual regions: the mean of their two member regions (CCF's comment names the members).
const DUAL_MEMBERS = { asia1: ['asia-northeast1', 'asia-northeast2'], eur4: ['europe-west4', 'europe-north1'], nam4: ['us-central1', 'us-east1'] }
for (const [d, members] of Object.entries(DUAL_MEMBERS)) {
  const vals = members.map((m) => grid.gcp[m].gCO2eqPerKWh)
  put(grid.gcp, d, { ...grid.gcp[members[0]], gCO2eqPerKWh: round(vals.reduce((a, b) => a + b) / vals.length), derivedFrom: members.map((m) => `gcp/${m}`), method: 'mean of the dual region\'s two member regions' }, 'grid gcp')
}
// GCP regions CCF does not list: Google's own figure, from the earliest year >= 2021 that has it.
const rciYears = Object.keys(regionCarbonInfo.years).sort(byKey)
const rciRegions = new Set(rciYears.flatMap((y) => Object.keys(regionCarbonInfo.years[y])))
for (const region of [...rciRegions].sort(byKey)) {
  if (grid.gcp[region]) continue
  const year = rciYears.find((y) => Number(y) >= 2021 && regionCarbonInfo.years[y][region]) ?? rciYears.find((y) => regionCarbonInfo.years[y][region])
  const r = regionCarbonInfo.years[year][region]
  put(grid.gcp, region, {
    gCO2eqPerKWh: r.gCO2eqPerKWh,
    year: Number(year),
    source: `Google Cloud region carbon data (${year})`,
    url: 'https://cloud.google.com/sustainability/region-carbon',
    via: `GoogleCloudPlatform/region-carbon-info commit ${regionCarbonInfo.source.commit.slice(0, 12)}`,
  }, 'grid gcp')
}
for (const [provider, aliases] of Object.entries(withoutMeta(curated.gridAliases))) {
  for (const [region, { from, why }] of Object.entries(aliases)) {
    const [p, r] = from.split('/')
    const src = grid[p][r]
    if (!src) fail(`grid alias ${provider}/${region}: ${from} unknown`)
    if (grid[provider][region]) fail(`grid alias ${provider}/${region}: already has a figure`)
    put(grid[provider], region, { ...src, derivedFrom: [from], method: `same national figure as ${from}: ${why}` }, `grid ${provider}`)
  }
}
for (const p of Object.keys(grid)) {
  grid[p] = sortObject(grid[p])
  for (const [r, v] of Object.entries(grid[p])) if (!(v.gCO2eqPerKWh > 0)) fail(`grid ${p}/${r}: intensity ${v.gCO2eqPerKWh}`)
}
const gridTable = { ...grid, fallback }

// ---------------------------------------------------------------- embodied
const LIFESPAN = AWS_CLOUD_CONSTANTS.SERVER_EXPECTED_LIFESPAN
if (ccfGcp.SERVER_EXPECTED_LIFESPAN !== LIFESPAN || AZURE_CLOUD_CONSTANTS.SERVER_EXPECTED_LIFESPAN !== LIFESPAN) fail('providers disagree on the server lifespan')
// The host model (host_model.mjs; docs/methodology.md, "Embodied emissions: the host model"):
// every family's host is described by its parts (sockets, memory, local disks, GPUs of its
// largest size, or of the platform vendor/hosts.json names for burstable and shared-core
// families); its embodied total is priced by CCF's coefficients (central) and by Boavizta's
// component factors, beside CCF's own host total where CCF has a real one. An instance takes its
// share by what it holds. Placeholders (CCF's 1.0 t) are detected and never used.
const partsIn = readJson(join(VENDOR, 'host_parts.json'))
const boaParts = readJson(join(VENDOR, 'boavizta_parts.json'))
const CCF = partsIn.ccf
const isPlaceholderKg = (kg) => [CCF.placeholderKg, CCF.placeholderKg + CCF.additionalCpuKg].some((p) => Math.abs(kg - p) < 1e-6)
const gpuShape = (slugs) => slugs.map((s) => {
  const canonical = gpuPower[s] ? s : curated.gpuAliases[s] ?? s
  const p = gpuPower[canonical]
  return p?.partitionOf ? { model: p.partitionOf, share: p.share } : { model: s, share: 1 }
})
const gib = (mb) => mb / 1024
function awsShape(v) {
  const st = v.InstanceStorage
  const tb = st ? (st.SizePerDiskGB * st.Count) / 1000 : 0
  const ssd = st && st.Type === 'ssd'
  return { vcpus: v.VCPU, memGb: gib(v.MemoryMb), ssdTb: ssd ? tb : 0, ssdDrives: ssd ? st.Count : 0, hddTb: st && !ssd ? tb : 0, hddDrives: st && !ssd ? st.Count : 0, gpus: gpuShape(v.GPUs) }
}
function shapeOf(provider, v) {
  if (provider === 'aws') return awsShape(v)
  const ssd = partsIn.localSsd[provider]?.[v.name]
  return { vcpus: v.vcpus, memGb: gib(v.memoryMb), ssdTb: ssd ? ssd.ssdGb / 1000 : 0, ssdDrives: ssd ? ssd.drives : 0, hddTb: 0, hddDrives: 0, gpus: gpuShape(v.gpus) }
}
const ARM = /Graviton|Ampere|Axion|Cobalt|Grace|Apple/i
const defaultSockets = (archs, hostVcpus) => (archs.some((a) => ARM.test(a)) && hostVcpus <= partsIn.sockets.armSingleSocketMaxVcpus ? 1 : 2)
const serverOf = {} // provider/family -> server id
for (const [id, s] of Object.entries(withoutMeta(partsIn.servers))) for (const [p, fams] of Object.entries(s.families)) for (const f of fams) serverOf[`${p}/${f}`] = id
// The largest size of each family: [vCPUs, size name].
function largest(entries) {
  const out = {}
  for (const [family, name, vcpus] of entries) if (!out[family] || vcpus > out[family][0] || (vcpus === out[family][0] && /\.metal$|-standard-/.test(name))) out[family] = [vcpus, name]
  return out
}
const instTables = { aws, gcp, azure }
// An AWS family with several bare-metal sizes (m7i.metal-24xl and .metal-48xl: one- and
// two-socket servers of one platform) is priced on its smallest whole server, and the sizes
// larger than it on the largest one (never below the smaller server's whole CPU and chassis);
// the other server is a method of the band.
function hostSizeOf(p, family, largestName) {
  if (p !== 'aws') return largestName
  const metals = Object.values(aws).filter((v) => v.Service === 'ec2' && v.Family === family && /\.metal/.test(v.InstanceType)).sort((a, b) => a.VCPU - b.VCPU)
  return metals.length > 1 ? metals[0].InstanceType : largestName
}
const archsOf = (p, v) => (p === 'aws' ? v.CPUTypes : v.cpuTypes) ?? []
const rowFamily = (p, v) => (p === 'aws' ? v.Family : v.family)
// CCF's host totals (t), by provider and platform, with the shape CCF computed them for.
const ccfTotals = { aws: {}, gcp: {}, azure: {} }
for (const [name, v] of Object.entries(ccfEc2)) if (v.embodiedT !== undefined && aws[name]) ccfTotals.aws[v.family] ??= { kg: v.embodiedT * 1000 }
const gcpTotal = {}
for (const [family, sizes] of Object.entries(ccfGcp.MACHINE_FAMILY_TO_MACHINE_TYPE_MAPPING)) for (const [name, [, t]] of Object.entries(sizes)) gcpTotal[name] = { family, t }
for (const { family, t } of Object.values(gcpTotal)) ccfTotals.gcp[family] ??= { kg: t * 1000 }
const azureParentVcpus = {}
for (const [name, e] of Object.entries(azureEmbodied)) {
  ccfTotals.azure[e.family] ??= { kg: e.totalT * 1000 }
  azureParentVcpus[name] = e.vcpus
}
// Hosts: one per family (GCP: per variant, e.g. n2-highmem; its host is the variant's largest size).
const hosts = { aws: {}, gcp: {}, azure: {} }
const hostOverrides = { aws: withoutMeta(hostsIn.aws), gcp: withoutMeta(hostsIn.gcp), azure: withoutMeta(hostsIn.azure) }
const gcpSeries = (name) => (/^n1-(megamem|ultramem)-/.test(name) ? 'm1' : gcpFamily(name))
function hostFor(p, platform, hostName, overrideWhy) {
  const t = instTables[p]
  const hv = t[hostName]
  const host = shapeOf(p, hv)
  const archs = archsOf(p, hv)
  const server = serverOf[`${p}/${platform}`]
  const ccfTotal = ccfTotals[p][platform]
  const why = []
  let sockets = server ? partsIn.servers[server].sockets : null
  let ccfKg = null
  if (ccfTotal) {
    const bad = placeholder(CCF, ccfTotal.kg, host)
    if (bad) note(`host model: ${p} ${platform}: CCF's total not used: ${bad}`)
    else {
      ccfKg = ccfTotal.kg
      const s = socketsFromCcf(CCF, ccfTotal.kg, host)
      if (s === null) note(`host model: ${p} ${platform}: CCF's ${ccfTotal.kg} kg fits no socket count with ${hostName}'s parts; kept in the band only`)
      sockets ??= s
    }
  }
  sockets ??= defaultSockets(archs, host.vcpus)
  const ccf = ccfParts(CCF, sockets)
  const boa = boaviztaParts(boaParts, sockets, CCF.gpuKgPerCard)
  const central = total(share(ccf, host, host))
  // Central: CCF's own total where its parts reproduce it (then both are the same figure), else
  // the parts priced with CCF's coefficients.
  const method = ccfKg !== null && Math.abs(central - ccfKg) < 2 ? 'ccf-total' : 'parts'
  if (overrideWhy) why.push(overrideWhy)
  return {
    platform, hostSize: hostName, hostVcpus: host.vcpus, sockets, ...(server ? { server, serverName: partsIn.servers[server].name } : {}),
    method, platformKgCO2eq: round(central, 4), boaviztaKgCO2eq: round(total(share(boa, host, host)), 4), ccfHostKgCO2eq: ccfKg === null ? null : round(ccfKg, 4),
    ...(why.length ? { why: why.join('; ') } : {}),
    _shape: host, _parts: { ccf, boa },
  }
}
for (const p of ['aws', 'gcp', 'azure']) {
  const t = instTables[p]
  const famOf = (name, v) => (p === 'gcp' ? v.family : rowFamily(p, v))
  const big = largest(Object.entries(t).filter(([, v]) => p !== 'aws' || v.Service === 'ec2').map(([name, v]) => [famOf(name, v), name, v.vcpus ?? v.VCPU]))
  for (const [f, o] of Object.entries(hostOverrides[p])) {
    const target = p === 'gcp' ? o.platform : o.platform
    if (!big[target]) fail(`hosts.json ${p} ${f}: platform ${o.platform} unknown`)
  }
  for (const family of Object.keys(big).sort(byKey)) {
    if (!family || family === 'undefined') continue
    const series = p === 'gcp' ? gcpSeries(big[family][1]) : family
    const o = hostOverrides[p][series] ?? hostOverrides[p][family]
    const platform = o ? o.platform : family
    if (!big[platform]) fail(`host model: ${p} ${family}: platform ${platform} has no size`)
    hosts[p][family] = hostFor(p, platform, hostSizeOf(p, platform, big[platform][1]), o?.why)
    const alt = big[platform][1]
    if (alt !== hosts[p][family].hostSize) hosts[p][family]._alt = hostFor(p, platform, alt)
  }
}
// Every instance: its share of its family's host, by method; the central figure and the band.
const embodied = { aws: {}, gcp: {}, azure: {} }
const perHour = (kg) => round(kg / LIFESPAN, 9)
for (const p of ['aws', 'gcp', 'azure']) {
  for (const [name, v] of Object.entries(instTables[p])) {
    const family = rowFamily(p, v)
    const primary = hosts[p][family]
    if (!primary) fail(`host model: ${p} ${name}: no host for family ${family}`)
    // a size larger than the family's smallest bare-metal server runs on the larger one
    const h = primary._alt && (v.vcpus ?? v.VCPU) > primary.hostVcpus ? primary._alt : primary
    const other = h === primary ? primary._alt : null
    const inst = shapeOf(p, v)
    // Constrained-vCPU Azure sizes reserve their parent size's vCPUs.
    if (p === 'azure' && azureParentVcpus[name]) inst.vcpus = azureParentVcpus[name]
    const c = share(h._parts.ccf, h._shape, inst)
    // on the larger server, never less CPU and chassis than the whole smaller one (a bigger size
    // never costs less)
    if (h !== primary) c.cpuChassis = Math.max(c.cpuChassis, primary._parts.ccf.cpuChassisKg)
    const b = share(h._parts.boa, h._shape, inst)
    const central = total(c)
    const methods = [central, total(b)]
    if (h.ccfHostKgCO2eq !== null) methods.push(h.ccfHostKgCO2eq * (central / h.platformKgCO2eq))
    if (other) methods.push(total(share(other._parts.ccf, other._shape, inst)), total(share(other._parts.boa, other._shape, inst)))
    embodied[p][name] = {
      family, platform: h.platform, ...(h.server ? { server: h.server, serverName: h.serverName } : {}), method: h.method,
      platformKgCO2eq: h.platformKgCO2eq, vcpus: inst.vcpus, hostVcpus: h.hostVcpus,
      kgCO2eqPerHour: perHour(central), kgCO2eqPerHourLow: perHour(Math.min(...methods)), kgCO2eqPerHourHigh: perHour(Math.max(...methods)),
      partsKg: { cpuChassis: round(c.cpuChassis, 3), memory: round(c.memory, 3), storage: round(c.storage, 3), gpus: round(c.gpus, 3) },
      // the sourced host totals this row uses (CCF's; the parts-built ones are not sourced totals)
      methodTotalsKg: h.ccfHostKgCO2eq === null ? [] : [h.ccfHostKgCO2eq, ...(other?.ccfHostKgCO2eq ? [other.ccfHostKgCO2eq] : [])],
    }
  }
}
try {
  for (const p of Object.keys(embodied)) assertNoPlaceholder(embodied[p], isPlaceholderKg)
} catch (e) {
  fail(e.message)
}
for (const p of Object.keys(embodied)) {
  for (const e of Object.values(embodied[p])) delete e.methodTotalsKg
  embodied[p] = sortObject(embodied[p])
}
for (const p of Object.keys(hosts)) {
  for (const h of Object.values(hosts[p])) {
    if (h._alt) h.alternativeHost = { hostSize: h._alt.hostSize, hostVcpus: h._alt.hostVcpus, sockets: h._alt.sockets, platformKgCO2eq: h._alt.platformKgCO2eq }
    delete h._shape
    delete h._parts
    delete h._alt
  }
  hosts[p] = sortObject(hosts[p])
}
// Baseline CPU shares of burstable types (default utilisation unless --utilization is given).
const baseline = {}
for (const p of ['aws', 'gcp', 'azure']) {
  const table = { aws, gcp, azure }[p]
  baseline[p] = {}
  for (const [name, share] of Object.entries(hostsIn.baselineUtilization[p])) {
    if (!table[name]) fail(`hosts.json baselineUtilization ${p}/${name}: not an instance type in data/`)
    if (!(share > 0 && share <= 1)) fail(`hosts.json baselineUtilization ${p}/${name}: ${share}`)
    baseline[p][name] = share
  }
  baseline[p] = sortObject(baseline[p])
}
const hostsTable = { _basis: hostsIn._basis, baselineBasis: hostsIn.baselineUtilization._basis, ...hosts, baselineUtilization: baseline }
// Resources with vCPUs but no machine type (Lambda, Fargate): the median over the provider's
// hosts of the host model's central total per host vCPU (no placeholder is in it: every host
// is priced from its parts).
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const embodiedFallback = {}
for (const p of Object.keys(hosts)) {
  const perVcpu = Object.values(hosts[p]).filter((h) => !h.server).map((h) => h.platformKgCO2eq / h.hostVcpus)
  embodiedFallback[p] = {
    kgCO2eqPerVcpuHour: round(median(perVcpu) / LIFESPAN, 9),
    method: `median over ${perVcpu.length} ${p} hosts without GPUs of the host model's central total (kgCO2eq, CCF's coefficients over the host's parts) / host vCPUs, divided by ${LIFESPAN} h; for resources with vCPUs and no machine type (every machine type has its own row)`,
  }
}
const embodiedTable = { serverLifespanHours: LIFESPAN, ...embodied, fallback: embodiedFallback }

// ---------------------------------------------------------------- Carbonifer cross-checks (notes only)
const cbCoef = readJson(join(CB, 'energy_coefficients.json'))
for (const [p, key] of [['aws', 'AWS'], ['gcp', 'GCP'], ['azure', 'Azure']]) {
  const ours = coefficients.providers[p]
  const theirs = cbCoef[key]
  for (const [a, b] of [['cpuMinWattsPerVcpu', 'cpu_min_wh'], ['cpuMaxWattsPerVcpu', 'cpu_max_wh'], ['pue', 'pue_average'], ['memoryWattsPerGB', 'memory_wh_gb'], ['ssdWattsPerTB', 'storage_ssd_wh_tb'], ['hddWattsPerTB', 'storage_hdd_wh_tb']]) {
    if (ours[a] !== theirs[b]) note(`carbonifer: ${p} ${a} ${theirs[b]} there, ${ours[a]} here (CCF code)`)
  }
}
for (const line of readFileSync(join(CB, 'gcp_watt_cpu.csv'), 'utf8').trim().split('\n').slice(1)) {
  const [, arch, min, max] = line.split(',')
  const ours = cpuArchitectures[normArchs([arch])[0]]
  if (ours) note(`carbonifer: gcp_watt_cpu.csv ${arch} ${round(Number(min), 3)}/${round(Number(max), 3)} W there, ${ours.minWattsPerVcpu}/${ours.maxWattsPerVcpu} W here (CCF code)`)
}
for (const [p, file] of [['aws', 'aws_co2_region.csv'], ['gcp', 'gcp_co2_region.csv']]) {
  const rows = readFileSync(join(CB, file), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','))
  const differ = rows.filter(([r, , g]) => grid[p][r] && Math.abs(grid[p][r].gCO2eqPerKWh - Number(g)) > 0.01)
  const missing = rows.filter(([r]) => !grid[p][r]).map(([r]) => r)
  note(`carbonifer: ${file}: ${rows.length} regions, ${differ.length} with a different figure here (older CCF or Google vintage)${missing.length ? `, not here: ${missing.join(' ')}` : ''}`)
}

// ---------------------------------------------------------------- write / check
const src = (...keys) => keys.map((k) => SOURCES[k])
const generatedBy = 'scripts/data/generate.mjs (regenerate: cd scripts/data && npm ci && node generate.mjs; check: scripts/data/check.sh)'
const awsSorted = sortObject(aws)
const tables = [
  ['aws_instances', awsSorted, 1, src('ccfAws', 'carbonifer', 'libcloud', 'moto', 'curated'), 'EC2 instance types and RDS db.* classes (db.<EC2 type>): vCPU, memory (MiB), GPUs (one slug per GPU; a GPU partition has its own slug, e.g. nvidia-l4-part-0.125), instance storage, CPU microarchitectures. Shape of Carbonifer\'s aws_instances.json plus Family, Service, CPUTypes, Sources. vCPU/memory/storage/GPU memory from Carbonifer (AWS API); types only CCF lists take CCF\'s vCPU/memory; types only apache-libcloud lists (2022-2024 families) take its figures (AWS Price List API); types only moto lists (2025-2026 families, .metal sizes) take EC2 DescribeInstanceTypes\' figures as moto ships them, GPU models included; CPU microarchitectures and GPU models/counts from CCF, curated for families CCF lacks. Sources lists every source that has the type (moto = confirmed by the AWS API copy).'],
  ['gcp_instances', gcpSorted, 1, src('carbonifer', 'ccfGcp', 'gceApi', 'curated'), 'GCP predefined machine types: vCPU, memory (MiB), GPUs (one accelerator name per GPU, built-in GPUs of a2/a3/g2 included), CPU microarchitectures. Custom types (custom-N-M, <family>-custom-N-M) are computed from the name by src/data.rs.'],
  ['gcp_sql_tiers', gcpSql, 1, src('carbonifer', 'ccfGcp'), 'Cloud SQL tiers (Carbonifer\'s shape) plus cpuTypes (n1). db-custom-N-M tiers are computed from the name by src/data.rs.'],
  ['azure_instances', azureSorted, 1, src('ccfAzure', 'curated'), 'Azure VM sizes keyed by ARM name (Standard_...): vCPU, memory (MiB), GPUs, CPU microarchitectures, family = CCF series; plus current series CCF lacks (Bsv2, Dlsv5, Dpsv5, Dplsv5, Dsv6, Dlsv6, Esv6, Dasv6, Dalsv6, Easv6, Cobalt 100 Dpsv6/Dplsv6/Epsv6 and their d variants, Fasv6, Falsv6, Famsv6, NCads H100 v5, ND H100 v5) from Azure\'s published size tables (curated.json azureExtraSeries, url per series).'],
  ['coefficients', coefficients, 3, src('ccfAws', 'ccfAzure', 'ccfGcp', 'ccfCore', 'gpuDatasheets', 'curated'), 'Power coefficients: per-provider CPU fallback min/max W per vCPU, memory, SSD/HDD, networking, PUE (+ GCP per-region PUE), lifespan; per-microarchitecture min/max W per vCPU; GPU min/max W per model; name aliases.'],
  ['grid_intensity', gridTable, 2, src('ccfAws', 'ccfAzure', 'ccfGcp', 'ccfMethodology', 'regionCarbonInfo', 'curated'), 'Grid carbon intensity (gCO2eq/kWh) per provider and region, each with its year, dataset and the package it came through; fallback = CCF\'s \'Unknown\' region factor per provider.'],
  ['embodied', embodiedTable, 2, src('ccfAws', 'ccfAzure', 'ccfGcp', 'ccfCore', 'hostDocs', 'hostParts', 'boaviztaParts'), 'Embodied emissions per instance type by the host model: the host of its family (hosts.json) priced from its parts (CPU and chassis, memory per GB, local disks, GPUs per card) with CCF\'s coefficients (central; CCF\'s own host total where its parts reproduce it), the instance\'s share by what it holds (CPU and chassis by vCPU, memory by GB, disks by TB, GPUs by count) / 35,040 h = kgCO2eqPerHour; kgCO2eqPerHourLow/High: the lowest and highest of the sourced methods (CCF coefficients, Boavizta component factors, CCF\'s host total where it is not a placeholder, the family\'s other bare-metal server); fallback per provider per vCPU-hour for resources without a machine type.'],
  ['hosts', hostsTable, 2, src('ccfAws', 'ccfAzure', 'ccfGcp', 'carbonifer', 'libcloud', 'moto', 'hostDocs', 'hostParts', 'boaviztaParts'), 'Host platform per instance family (provider / family -> platform, the size that is the whole host, its vCPUs and sockets, the shared physical server it is, the host model\'s embodied total by CCF\'s coefficients, by Boavizta\'s factors and CCF\'s own total where it is not a placeholder), and the published baseline CPU share per vCPU of burstable and shared-core types (their default utilisation).'],
]
const sourcesList = Object.values(SOURCES)
const files = {}
function format(value, inlineDepth, depth = 0) {
  if (depth >= inlineDepth || value === null || typeof value !== 'object' || (Array.isArray(value) && value.every((x) => typeof x !== 'object'))) return JSON.stringify(value)
  const pad = ' '.repeat(depth + 1)
  const entries = Array.isArray(value) ? value.map((v) => format(v, inlineDepth, depth + 1)) : Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${format(v, inlineDepth, depth + 1)}`)
  if (!entries.length) return Array.isArray(value) ? '[]' : '{}'
  const [o, c] = Array.isArray(value) ? ['[', ']'] : ['{', '}']
  return `${o}\n${entries.map((e) => pad + e).join(',\n')}\n${' '.repeat(depth)}${c}`
}
const counts = (t) => {
  if (t === awsSorted || t === gcpSorted || t === gcpSql || t === azureSorted) return { entries: Object.keys(t).length }
  if (t === gridTable) return Object.fromEntries(['aws', 'gcp', 'azure'].map((p) => [p, Object.keys(t[p]).length]))
  if (t === hostsTable) return Object.fromEntries(['aws', 'gcp', 'azure'].map((p) => [p, Object.keys(t[p]).length]).concat([['burstable', Object.values(t.baselineUtilization).reduce((n, x) => n + Object.keys(x).length, 0)]]))
  if (t === embodiedTable) return Object.fromEntries(['aws', 'gcp', 'azure'].map((p) => [p, Object.keys(t[p]).length]))
  return { cpuArchitectures: Object.keys(cpuArchitectures).length, gpus: Object.keys(gpuPower).length }
}
for (const [name, table, depth, sources, description] of tables) {
  files[`${name}.json`] = format(table, depth) + '\n'
  files[`${name}.source.json`] = format({ table: `data/${name}.json`, description, counts: counts(table), generatedBy, sources }, 3) + '\n'
}
// hand tables: scripts/data/hand/<table>.json = {description, sources, rows} (rows transcribed
// from the cited page; docs/mappings.md, "Coverage")
for (const f of readdirSync(join(HERE, 'hand')).filter((f) => f.endsWith('.json')).sort()) {
  const h = JSON.parse(readFileSync(join(HERE, 'hand', f), 'utf8'))
  const name = f.replace(/\.json$/, '')
  files[`${name}.json`] = format(h.rows, 1) + '\n'
  files[`${name}.source.json`] = format({ table: `data/${name}.json`, description: h.description, counts: { entries: Object.keys(h.rows).length }, generatedBy, sources: h.sources }, 3) + '\n'
}
// sources.json lists every source of every table: the generator's and each hand table's.
for (const f of readdirSync(join(HERE, 'hand')).filter((f) => f.endsWith('.json')).sort()) {
  for (const hs of JSON.parse(readFileSync(join(HERE, 'hand', f), 'utf8')).sources) if (!sourcesList.some((x) => x.name === hs.name && x.url === hs.url)) sourcesList.push(hs)
}
files['sources.json'] = format(sourcesList, 2) + '\n'

const summary = `aws ${Object.keys(aws).length} (${Object.values(aws).filter((v) => v.Service === 'rds').length} rds), gcp ${Object.keys(gcp).length}, gcp sql ${Object.keys(gcpSql).length}, azure ${Object.keys(azure).length}; regions aws ${Object.keys(grid.aws).length}, gcp ${Object.keys(grid.gcp).length}, azure ${Object.keys(grid.azure).length}`
if (process.argv.includes('--notes')) for (const n of notes) console.error(`note: ${n}`)
if (CHECK) {
  const stale = []
  for (const [f, text] of Object.entries(files)) {
    const p = join(DATA, f)
    if (!existsSync(p) || readFileSync(p, 'utf8') !== text) stale.push(f)
  }
  const generatedNames = new Set(Object.keys(files))
  const extra = existsSync(DATA) ? readdirSync(DATA).filter((f) => f.endsWith('.json') && !generatedNames.has(f)) : []
  if (stale.length || extra.length) {
    console.error(`generate.mjs --check: data/ does not match the pinned sources: ${[...stale.map((f) => `${f} differs`), ...extra.map((f) => `${f} is not generated`)].join(', ')}`)
    console.error('regenerate with: cd scripts/data && npm ci && node generate.mjs')
    process.exit(1)
  }
  console.error(`generate.mjs --check: data/ is up to date (${summary})`)
} else {
  mkdirSync(DATA, { recursive: true })
  for (const [f, text] of Object.entries(files)) writeFileSync(join(DATA, f), text)
  console.error(`generate.mjs: wrote ${Object.keys(files).length} files to data/ (${summary}); ${notes.length} notes (--notes to list)`)
}
