#!/usr/bin/env python3
"""Cross-checks carbon-show's embodied figures (data/embodied.json, CCF method) against Boavizta.

Boavizta (PyPI `boaviztapi`, AGPL-3.0) is used only here, as a cross-check: none of its data is
shipped. The script runs Boavizta's API in-process (no network) and prints a Markdown report:
for each instance type present in both, carbon-show's embodied kgCO2eq for 730 h next to
Boavizta's embedded GWP (value, min, max) for the same duration.

Usage (Python 3.11; boaviztapi is not a project dependency):
    python3 -m venv /tmp/boa && /tmp/boa/bin/pip install boaviztapi==2.5.0 httpx
    /tmp/boa/bin/python scripts/data/compare_boavizta.py [--all] [--hours 730]

Without --all a fixed sample of common types is compared; --all compares every type that has a
CCF family figure and is known to Boavizta (slow: a few minutes).
"""

import argparse
import json
import statistics
import sys
import warnings
from importlib.metadata import version
from pathlib import Path

SAMPLE = {
    "aws": ["t3.medium", "m5.large", "m5.xlarge", "m5.24xlarge", "c5.2xlarge", "r5.large", "m6g.large",
            "c6i.xlarge", "i3.large", "p3.2xlarge", "g4dn.xlarge"],
    "gcp": ["e2-standard-2", "n1-standard-1", "n2-standard-4", "n2d-standard-8", "c2-standard-8",
            "t2d-standard-4", "a2-highgpu-1g"],
    "azure": ["Standard_B2s", "Standard_D2s_v3", "Standard_D2s_v5", "Standard_D4s_v3", "Standard_E8s_v4",
              "Standard_F4s_v2", "Standard_NC6s_v3"],
}


def boavizta_name(provider: str, name: str) -> str:
    if provider == "azure":
        return name.removeprefix("Standard_").lower()
    return name


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--hours", type=float, default=730.0)
    args = ap.parse_args()
    warnings.filterwarnings("ignore")
    from fastapi.testclient import TestClient  # noqa: E402  (boaviztapi's own dependency)
    from boaviztapi.main import app  # noqa: E402

    client = TestClient(app)
    root = Path(__file__).resolve().parents[2]
    embodied = json.loads((root / "data" / "embodied.json").read_text())
    print(f"Embodied kgCO2eq for {args.hours:g} h: carbon-show (CCF method) vs Boavizta "
          f"boaviztapi {version('boaviztapi')} embedded GWP\n")
    print("| provider | type | carbon-show | Boavizta (min–max) | ratio |")
    print("|---|---|---:|---:|---:|")
    ratios = {}
    inside = total = 0
    for provider in ("aws", "gcp", "azure"):
        known = set(client.get("/v1/cloud/instance/all_instances", params={"provider": provider}).json())
        names = sorted(embodied[provider]) if args.all else SAMPLE[provider]
        for name in names:
            row = embodied[provider].get(name)
            bname = boavizta_name(provider, name)
            if row is None or name.startswith("db.") or bname not in known:
                continue
            r = client.get("/v1/cloud/instance", params={"provider": provider, "instance_type": bname,
                                                         "verbose": "false", "criteria": "gwp",
                                                         "duration": args.hours})
            if r.status_code != 200:
                continue
            e = r.json()["impacts"]["gwp"]["embedded"]
            if not isinstance(e, dict) or not e.get("value"):
                continue
            ours = row["kgCO2eqPerHour"] * args.hours
            ratio = ours / e["value"]
            ratios.setdefault(provider, []).append(ratio)
            total += 1
            inside += e["min"] <= ours <= e["max"]
            if not args.all:
                print(f"| {provider} | {name} | {ours:.3f} | {e['value']:.3f} ({e['min']:.3f}–{e['max']:.3f}) | {ratio:.2f} |")
    print()
    for provider, rs in ratios.items():
        print(f"- {provider}: {len(rs)} types, carbon-show / Boavizta median ratio {statistics.median(rs):.2f} "
              f"(range {min(rs):.2f}–{max(rs):.2f})")
    print(f"- carbon-show's figure lies inside Boavizta's min–max range for {inside} of {total} types")
    return 0


if __name__ == "__main__":
    sys.exit(main())
