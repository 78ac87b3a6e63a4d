#!/usr/bin/env python3
"""Boavizta's published component factors (boaviztapi 2.5.0, `data/factors.yml` and the GPU
model `data/crowdsourcing/gpu_specs.csv`), written out as the figures carbon-show's host model
cites: scripts/data/vendor/boavizta_parts.json. Boavizta is read here as a published dataset of
factors (numbers with their sources), run in-process as for compare.py; nothing of its code is
shipped or imported by carbon-show.

Usage:
    python3 -m venv /tmp/boa && /tmp/boa/bin/pip install boaviztapi==2.5.0 httpx
    /tmp/boa/bin/python scripts/boavizta/component_factors.py > scripts/data/vendor/boavizta_parts.json
"""
import json
import warnings
from importlib.metadata import version

warnings.filterwarnings("ignore")
from boaviztapi.data.factor_provider import get_impact_factor  # noqa: E402
from boaviztapi.models.component.gpu import ComponentGPU  # noqa: E402
from boaviztapi.compute.impacts_computation import compute_single_impact  # noqa: E402
from boaviztapi.models.component.cpu import ComponentCPU  # noqa: E402
from boaviztapi.models.component.ram import ComponentRAM  # noqa: E402
from boaviztapi.models.component.ssd import ComponentSSD  # noqa: E402

# The GPU models of the instance tables (coefficients.json slugs) and Boavizta's name for each.
GPUS = {
    "nvidia-tesla-k80": "NVIDIA Tesla K80",
    "nvidia-tesla-m60": "NVIDIA Tesla M60",
    "nvidia-tesla-t4": "NVIDIA T4",
    "nvidia-tesla-v100": "NVIDIA Tesla V100 SXM2 16GB",
    "nvidia-a10g": "NVIDIA A10",
    "nvidia-l4": "NVIDIA L4",
    "nvidia-l40s": "NVIDIA L40S 48GB",
    "nvidia-tesla-a100": "NVIDIA A100 SXM4 40GB",
    "nvidia-a100-80gb": "NVIDIA A100 SXM4 80GB",
    "nvidia-h100-80gb": "NVIDIA H100 SXM 80GB",
    "nvidia-h100-nvl": "NVIDIA H100 NVL 94GB",
    "nvidia-h200": "NVIDIA H200 SXM 141GB",
    "nvidia-b200": "NVIDIA B200 180GB",
}


def gwp(item):
    return get_impact_factor(item=item, impact_type="gwp")


def gpu_card(name):
    gpu = ComponentGPU()
    gpu.name.set_input(name)
    gpu._complete_from_name()
    # the whole card over its whole life: duration = hours of life
    impact = compute_single_impact(gpu, "embedded", "gwp", duration=gpu.usage.hours_life_time.value)
    return {
        "boaviztaName": name,
        "matched": gpu.name.value,
        "gpusPerBoard": gpu.units.value,
        "vramGb": gpu.vram.value,
        "kgCO2eqPerBoard": round(impact.value, 2),
        "kgCO2eqPerGpu": round(impact.value / max(gpu.units.value, 1), 2),
    }


def whole_life(component):
    """The embedded GWP of one default component over its whole life, with its attributes."""
    impact = compute_single_impact(component, "embedded", "gwp", duration=component.usage.hours_life_time.value)
    return impact.value


def defaults():
    """Boavizta's default CPU (per socket), RAM module and SSD drive: kg each, and per GB / TB."""
    cpu_c, ram_c, ssd_c = ComponentCPU(), ComponentRAM(), ComponentSSD()
    cpu_kg, ram_kg, ssd_kg = whole_life(cpu_c), whole_life(ram_c), whole_life(ssd_c)
    return {
        "cpuPerSocketKg": round(cpu_kg, 3),
        "cpuDieMm2": cpu_c.die_size.value,
        "ramModuleGb": ram_c.capacity.value,
        "ramDensityGbPerCm2": ram_c.density.value,
        "ramKgPerGb": round(ram_kg / ram_c.capacity.value, 5),
        "ssdDriveGb": ssd_c.capacity.value,
        "ssdDensityGbPerCm2": ssd_c.density.value,
        "ssdKgPerTb": round(ssd_kg / ssd_c.capacity.value * 1000, 4),
        "powerSupplyUnitKg": 2.99,
        "powerSupplyUnitsPerServer": 2,
    }


cpu, ram, ssd = gwp("cpu"), gwp("ram"), gwp("ssd")
out = {
    "_basis": "Boavizta's component factors as published in boaviztapi (PyPI, AGPL-3.0; factors "
    "cite their own sources in data/factors.yml), extracted by scripts/boavizta/component_factors.py. "
    "kg CO2eq, manufacture (embedded) phase.",
    "version": version("boaviztapi"),
    "cpu": {"kgPerMm2Die": cpu["die_impact"], "kgPerSocket": cpu["impact"]},
    "ram": {"kgPerCm2Die": ram["die_impact"], "kgPerModule": ram["impact"]},
    "ssd": {"kgPerCm2Die": ssd["die_impact"], "kgPerDrive": ssd["impact"]},
    "hdd": {"kgPerDrive": gwp("hdd")["impact"]},
    "motherboard": {"kg": gwp("motherboard")["impact"]},
    "powerSupply": {"kgPerKg": gwp("power_supply")["impact"]},
    "assembly": {"kg": gwp("assembly")["impact"]},
    "rackCase": {"kg": gwp("case")["rack"]["impact"]},
    "defaults": defaults(),
    "gpus": {slug: gpu_card(name) for slug, name in GPUS.items()},
}
print(json.dumps(out, indent=1))
