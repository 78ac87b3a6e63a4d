#!/usr/bin/env python3
"""Coverage of carbon-show's figures on real plans, without and with a usage file.

  cargo build && python3 scripts/data/usage_coverage.py [PLANS_DIR] [--value N]

For every plan or state document under PLANS_DIR (default testdata/plans, the copy of the
project's shared real plans), in a fresh temporary folder (so that no carbon-usage.yml or
.carbon-show.toml of the repository is read):
  before: `carbon-show --format json PLAN`, no usage file;
  after:  `carbon-show usage template PLAN`, each `null` replaced by N (default 100), then
          the same run, which reads the carbon-usage.yml the template wrote.
(BIN=path/to/carbon-show overrides the binary, e.g. one built from main to measure the
'before' column of a version without usage files.)
Coverage is estimated / (estimated + unsupported + not estimated), issue 26's measure; a plan
with nothing that draws power (denominator 0) is listed but not counted.
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("BIN", ROOT / "target" / "debug" / "carbon-show"))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
value = sys.argv[sys.argv.index("--value") + 1] if "--value" in sys.argv else "100"
if "--value" in sys.argv:
    args.remove(value)
plans_dir = (Path(args[0]) if args else ROOT / "testdata" / "plans").resolve()


def counts(plan, cwd):
    env = {k: v for k, v in os.environ.items() if k != "CARBON_SHOW_CONFIG"}
    out = subprocess.run([str(BIN), "--format", "json", str(plan)], cwd=cwd, env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)["counts"]


def ratio(c):
    d = c["estimated"] + c["unsupported"] + c["not_estimated"]
    return c["estimated"], d


plans = sorted(p for p in plans_dir.rglob("*.json") if p.name != "schemas.json")
total = {"before": [0, 0], "after": [0, 0]}
print(f"{'plan':60} {'before':>14} {'after':>14}")
for plan in plans:
    with tempfile.TemporaryDirectory() as d:
        before = counts(plan, d)
        t = subprocess.run([str(BIN), "usage", "template", str(plan)], cwd=d,
                           capture_output=True)
        f = Path(d) / "carbon-usage.yml"
        if t.returncode == 0:
            f.write_text(f.read_text().replace(": null", f": {value}"))
            after = counts(plan, d)
        else:  # a binary without usage files (before issue 26): its 'before' column only
            after = {"estimated": 0, "unsupported": 0, "not_estimated": 0}
    row = []
    for name, c in (("before", before), ("after", after)):
        e, n = ratio(c)
        total[name][0] += e
        total[name][1] += n
        row.append(f"{e}/{n} ({100 * e / n:.0f} %)" if n else "-")
    print(f"{str(plan.relative_to(plans_dir)):60} {row[0]:>14} {row[1]:>14}")
for name, (e, n) in total.items():
    print(f"{name}: {e} / {n} resources that draw power estimated ({100 * e / n:.1f} %)")
