// Tests of the host model (host_model.mjs): `node --test scripts/data/host_model.test.mjs`
// (run by `cargo test --test integration data::host_model_node_tests` when node is installed).
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { assertNoPlaceholder, ccfParts, placeholder, share, socketsFromCcf, total } from './host_model.mjs'

const CCF = JSON.parse(readFileSync(new URL('./vendor/host_parts.json', import.meta.url), 'utf8')).ccf
const shape = (vcpus, memGb, extra = {}) => ({ vcpus, memGb, ssdTb: 0, ssdDrives: 0, hddTb: 0, hddDrives: 0, gpus: [], ...extra })

test("CCF's coefficients reproduce CCF's own host totals", () => {
  // m5.metal: 2 sockets, 384 GB -> 1,610.3792 kg (CCF's table)
  assert.ok(Math.abs(total(share(ccfParts(CCF, 2), shape(96, 384), shape(96, 384))) - 1610.3792) < 0.01)
  // m5d.metal: the same and 4 NVMe SSDs of 900 GB -> 2,010.3792 kg
  const m5d = shape(96, 384, { ssdTb: 3.6, ssdDrives: 4 })
  assert.ok(Math.abs(total(share(ccfParts(CCF, 2), m5d, m5d)) - 2010.3792) < 0.01)
  assert.equal(socketsFromCcf(CCF, 1610.3792, shape(96, 384)), 2)
  assert.equal(socketsFromCcf(CCF, 1155.3328, shape(64, 128)), 1) // c6g.metal
})

test('a share is by what the instance holds', () => {
  const host = shape(192, 768, { ssdTb: 7.6, ssdDrives: 2, gpus: Array(8).fill({ model: 'nvidia-a10g', share: 1 }) })
  const one = shape(4, 16, { ssdTb: 0.25, ssdDrives: 1, gpus: [{ model: 'nvidia-a10g', share: 1 }] })
  const s = share(ccfParts(CCF, 2), host, one)
  assert.ok(Math.abs(s.gpus - 150) < 1e-9) // one GPU of the eight, whole
  assert.ok(Math.abs(s.memory - 16 * 1.3869) < 1e-9)
  assert.ok(s.cpuChassis < 30) // 4 of 192 vCPUs
})

test('placeholders are detected: exactly 1.0 t or 1.1 t, or less than the host\'s own parts', () => {
  assert.match(placeholder(CCF, 1000, shape(128, 1024)), /placeholder/) // r6i, i4i, x2idn
  assert.match(placeholder(CCF, 1100, shape(448, 12288)), /placeholder/) // u-12tb1
  assert.match(placeholder(CCF, 1200, shape(96, 1433)), /less than this host's own/) // m1-megamem
  assert.equal(placeholder(CCF, 1610.3792, shape(96, 384)), null)
})

test('the generator fails on a placeholder', () => {
  const entries = { 'r6i.large': { methodTotalsKg: [1500, 1000] } }
  assert.throws(() => assertNoPlaceholder(entries, (kg) => kg === 1000), /r6i.large would use a placeholder total/)
  assert.doesNotThrow(() => assertNoPlaceholder({ 'm6i.large': { methodTotalsKg: [1788] } }, (kg) => kg === 1000))
})
