// The host model (docs/methodology.md, "Embodied emissions: the host model"): a host's embodied
// total built from its parts by two sourced methods (CCF's coefficients, Boavizta's component
// factors), CCF's placeholder totals detected and refused, and an instance's share of its host by
// what it holds: CPU and chassis by vCPU, memory by GB, local disks by TB, GPUs by count.
//
// Pure functions over plain objects, so that `node --test scripts/data/host_model.test.mjs`
// checks them without the pinned packages.

/** A host or instance shape: vcpus, memGb, ssdTb, ssdDrives, hddTb, hddDrives, gpus: [{ model, share }]. */

/** The parts of one method: CPU and chassis of the whole host, and per-unit figures for the rest. */
export function ccfParts(ccf, sockets) {
  return {
    method: 'ccf',
    cpuChassisKg: ccf.baseServerKg - ccf.baseServerGb * ccf.memoryKgPerGb + ccf.additionalCpuKg * (sockets - 1),
    memoryKgPerGb: ccf.memoryKgPerGb,
    ssdKgPerDrive: ccf.ssdKgPerDrive,
    ssdKgPerTb: null,
    hddKgPerDrive: ccf.hddKgPerDrive,
    gpuKg: () => ccf.gpuKgPerCard,
  }
}

/** Boavizta's component model: chassis (motherboard, two power supplies, assembly, rack case),
 * CPUs per socket, memory per GB, SSD per TB, HDD per drive, each GPU by model (the CCF figure
 * where Boavizta has no model of that name). */
export function boaviztaParts(b, sockets, ccfGpuKg) {
  const d = b.defaults
  const chassis = b.motherboard.kg + d.powerSupplyUnitsPerServer * d.powerSupplyUnitKg * b.powerSupply.kgPerKg + b.assembly.kg + b.rackCase.kg
  return {
    method: 'boavizta',
    cpuChassisKg: chassis + sockets * d.cpuPerSocketKg,
    memoryKgPerGb: d.ramKgPerGb,
    ssdKgPerDrive: null,
    ssdKgPerTb: d.ssdKgPerTb,
    hddKgPerDrive: b.hdd.kgPerDrive,
    gpuKg: (model) => {
      const g = b.gpus[model]
      return g && g.matched === g.boaviztaName ? g.kgCO2eqPerGpu : ccfGpuKg
    },
  }
}

const sum = (xs) => xs.reduce((a, b) => a + b, 0)

/** kg of SSD for `tb` terabytes of an instance on `host`: per TB, or per drive of the host's size. */
function ssdKg(parts, host, inst) {
  if (!inst.ssdTb) return 0
  if (parts.ssdKgPerTb !== null) return parts.ssdKgPerTb * inst.ssdTb
  const tbPerDrive = host.ssdDrives ? host.ssdTb / host.ssdDrives : inst.ssdTb / Math.max(inst.ssdDrives, 1)
  return parts.ssdKgPerDrive * (inst.ssdTb / tbPerDrive)
}

function hddKg(parts, host, inst) {
  if (!inst.hddTb) return 0
  const tbPerDrive = host.hddDrives ? host.hddTb / host.hddDrives : inst.hddTb / Math.max(inst.hddDrives, 1)
  return parts.hddKgPerDrive * (inst.hddTb / tbPerDrive)
}

/** An instance's share of its host by what it holds, kg, part by part. */
export function share(parts, host, inst) {
  return {
    cpuChassis: parts.cpuChassisKg * (inst.vcpus / host.vcpus),
    memory: parts.memoryKgPerGb * inst.memGb,
    storage: ssdKg(parts, host, inst) + hddKg(parts, host, inst),
    gpus: sum(inst.gpus.map((g) => parts.gpuKg(g.model) * g.share)),
  }
}

export const total = (s) => s.cpuChassis + s.memory + s.storage + s.gpus

/** The CPU and chassis left of a CCF host total once its memory, disks and GPUs are taken out. */
export function ccfResidual(ccf, totalKg, host) {
  const p = ccfParts(ccf, 1)
  return totalKg - total({ ...share(p, host, host), cpuChassis: 0 })
}

/** Why a CCF host total cannot be used (a placeholder), or null: exactly Teads' base server
 * (1.0 t, or 1.1 t with its second CPU), which CCF lists where the specification was unknown, or
 * less than the host's own memory, disks and GPUs priced by the same coefficients. */
export function placeholder(ccf, totalKg, host) {
  for (const sockets of [1, 2]) {
    const base = ccf.baseServerKg + ccf.additionalCpuKg * (sockets - 1)
    if (Math.abs(totalKg - base) < 1e-6) return `exactly ${base} kg, Teads' base server with ${sockets} CPU${sockets > 1 ? 's' : ''} and nothing else: CCF's placeholder`
  }
  const residual = ccfResidual(ccf, totalKg, host)
  if (residual < 0) return `${totalKg} kg is less than this host's own memory, disks and GPUs (${(totalKg - residual).toFixed(1)} kg)`
  return null
}

/** The sockets a CCF total implies (1 or 2), or null when it fits neither. */
export function socketsFromCcf(ccf, totalKg, host) {
  const r = ccfResidual(ccf, totalKg, host)
  for (const s of [1, 2]) if (Math.abs(r - ccfParts(ccf, s).cpuChassisKg) < 2) return s
  return null
}

/** Fails (throws) when any figure was taken from a placeholder: every entry says where its
 * central figure and its band came from. */
export function assertNoPlaceholder(entries, isPlaceholderKg) {
  for (const [name, e] of Object.entries(entries)) {
    for (const kg of e.methodTotalsKg) {
      if (isPlaceholderKg(kg)) throw new Error(`host model: ${name} would use a placeholder total (${kg} kg); describe its host's parts instead`)
    }
  }
}
