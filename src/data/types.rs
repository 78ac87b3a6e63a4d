//! The public record types of the reference data: providers, instances, power ranges, grid intensity, embodied figures, sources.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use serde::Deserialize;

/// A cloud provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Provider {
    Aws,
    Gcp,
    Azure,
}

/// A provider name that is none of aws, gcp/google, azure/azurerm.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown cloud provider {0:?} (expected aws, gcp, google, azure or azurerm)")]
pub struct UnknownProvider(pub String);

impl Provider {
    /// All providers.
    pub const ALL: [Provider; 3] = [Provider::Aws, Provider::Gcp, Provider::Azure];

    /// Parses `aws`, `gcp`, `google`, `google-beta`, `azure`, `azurerm` (any case); also a
    /// Terraform provider address such as `registry.terraform.io/hashicorp/aws`.
    pub fn parse(name: &str) -> Option<Provider> {
        // the mappings' own names, without a copy
        match name {
            "aws" => return Some(Provider::Aws),
            "gcp" | "google" => return Some(Provider::Gcp),
            "azure" | "azurerm" => return Some(Provider::Azure),
            _ => {}
        }
        let last = name
            .trim()
            .rsplit('/')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match last.as_str() {
            "aws" => Some(Provider::Aws),
            "gcp" | "google" | "google-beta" => Some(Provider::Gcp),
            "azure" | "azurerm" => Some(Provider::Azure),
            _ => None,
        }
    }

    /// `aws`, `gcp` or `azure`: the key used in the data files.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Aws => "aws",
            Provider::Gcp => "gcp",
            Provider::Azure => "azure",
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Provider {
    type Err = UnknownProvider;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Provider::parse(s).ok_or_else(|| UnknownProvider(s.to_string()))
    }
}

/// Some GPUs of one model.
#[derive(Debug, Clone, PartialEq)]
pub struct GpuCount {
    /// Model slug as in `coefficients.json` `gpus` (e.g. `nvidia-tesla-v100`), or the
    /// provider's accelerator name where no figure is known (e.g. `nvidia-l4`).
    pub model: String,
    pub count: f64,
}

/// Local (instance-store) disks of an AWS instance type.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalStorage {
    pub disks: f64,
    pub gb_per_disk: f64,
    /// `ssd` or `hdd`.
    pub kind: String,
}

/// How an instance's figures were obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstanceOrigin {
    /// A row of a generated table.
    Table,
    /// Computed from the name (GCP `custom-N-M`, `<family>-custom-N-M`, Cloud SQL `db-custom-N-M`).
    FromName,
}

/// An instance, machine type, VM size or database tier.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    pub provider: Provider,
    /// The key in its table (AWS lower case, Azure ARM name), or the name as given when computed.
    pub name: String,
    pub vcpus: f64,
    pub memory_gib: f64,
    pub gpus: Vec<GpuCount>,
    /// CPU microarchitectures, CCF names (`Cascade Lake`, `AMD EPYC 3rd Gen`, ...); empty when unknown.
    pub cpu_architectures: Vec<String>,
    /// Family (AWS `m5`, GCP `n2-standard`, Azure CCF series), if known.
    pub family: Option<String>,
    /// AWS instance-store disks.
    pub local_storage: Option<LocalStorage>,
    pub origin: InstanceOrigin,
}

impl Instance {
    /// Total number of GPUs.
    pub fn gpu_count(&self) -> f64 {
        self.gpus.iter().map(|g| g.count).sum()
    }
}

/// A min/max power pair: watts at 0 % and at 100 % utilisation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PowerRange {
    pub min_watts: f64,
    pub max_watts: f64,
}

impl PowerRange {
    /// CCF's linear interpolation: `min + utilisation × (max − min)`; utilisation in 0..=1
    /// (clamped; NaN counts as 0).
    pub fn at(&self, utilisation: f64) -> f64 {
        let u = if utilisation.is_nan() {
            0.0
        } else {
            utilisation.clamp(0.0, 1.0)
        };
        self.min_watts + u * (self.max_watts - self.min_watts)
    }
}

/// Per-provider coefficients (`coefficients.json` `providers.<p>`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProviderCoefficients {
    /// Fallback CPU watts per vCPU at 0 % when no listed microarchitecture is known.
    pub cpu_min_watts_per_vcpu: f64,
    /// Fallback CPU watts per vCPU at 100 %.
    pub cpu_max_watts_per_vcpu: f64,
    /// `average` or `median` (how CCF derived the fallback).
    pub cpu_fallback_method: String,
    /// CCF's memory coefficient, kWh per GB-hour (0.000392).
    #[serde(rename = "memoryKWhPerGBHour")]
    pub memory_kwh_per_gb_hour: f64,
    /// The same in W per GB (0.392).
    #[serde(rename = "memoryWattsPerGB")]
    pub memory_watts_per_gb: f64,
    #[serde(rename = "ssdWattsPerTB")]
    pub ssd_watts_per_tb: f64,
    #[serde(rename = "hddWattsPerTB")]
    pub hdd_watts_per_tb: f64,
    #[serde(rename = "networkingKWhPerGB")]
    pub networking_kwh_per_gb: f64,
    /// Provider-average PUE.
    pub pue: f64,
    /// Region-specific PUE where the provider publishes one (GCP).
    pub pue_by_region: HashMap<String, f64>,
    /// CCF's default CPU utilisation, 0..=1 (0.5).
    pub average_cpu_utilization: f64,
    /// Server life for embodied emissions, hours (35,040 = 4 years).
    pub server_lifespan_hours: f64,
}

/// Grid carbon intensity of one region.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GridIntensity {
    #[serde(rename = "gCO2eqPerKWh")]
    pub g_co2eq_per_kwh: f64,
    /// Year the figure describes.
    pub year: u16,
    /// Dataset the figure comes from (e.g. `US EPA eGRID2020`).
    pub source: String,
    pub url: String,
    /// Package (and version) the figure was taken through.
    pub via: String,
    /// Regions whose figure this one repeats or averages, when it is derived.
    #[serde(default)]
    pub derived_from: Vec<String>,
    /// How a derived figure was made.
    #[serde(default)]
    pub method: Option<String>,
}

/// A provider's fallback intensity for regions without a figure.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GridFallback {
    #[serde(rename = "gCO2eqPerKWh")]
    pub g_co2eq_per_kwh: f64,
    pub method: String,
    pub via: String,
}

/// How an embodied figure was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmbodiedMethod {
    /// By host: CCF's own host total (which the host's parts priced with CCF's coefficients
    /// reproduce), shared by what the instance holds.
    Family,
    /// By host: the host's parts priced with CCF's coefficients (no usable CCF total: none, or a
    /// placeholder, or one its parts do not reproduce), shared by what the instance holds.
    HostParts,
    /// A GCP custom type: the figure of its family's `-standard` predefined types (by host).
    CustomFamily,
    /// No machine type: the provider's median per-vCPU figure × the resource's vCPUs.
    PerVcpuFallback,
}

/// Embodied emissions of one instance type.
#[derive(Debug, Clone, PartialEq)]
pub struct Embodied {
    /// kgCO2eq for each hour the instance runs (central).
    pub kg_co2eq_per_hour: f64,
    /// The lowest and highest of the sourced methods (CCF's coefficients, Boavizta's component
    /// factors, CCF's host total where it is not a placeholder), kgCO2eq per hour.
    pub kg_co2eq_per_hour_low: f64,
    pub kg_co2eq_per_hour_high: f64,
    pub method: EmbodiedMethod,
    /// The instance's family (absent for the fallback).
    pub family: Option<String>,
    /// The host platform whose embodied total was used: the family itself, or for burstable
    /// and shared-core families the platform they run on (`t3` → `m5`; `data/hosts.json`).
    pub platform: Option<String>,
    /// The physical server the family shares with other families and clouds
    /// (`8 x H100 SXM5 (HGX H100)`), if it is one.
    pub server: Option<String>,
    /// The host's total embodied emissions (central), kgCO2eq (absent for the fallback).
    pub platform_kg_co2eq: Option<f64>,
    pub vcpus: f64,
    /// vCPUs of the whole host (absent for the fallback).
    pub host_vcpus: Option<f64>,
}

/// One source of the reference data.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Source {
    pub name: String,
    pub version: String,
    pub year: u16,
    pub licence: String,
    pub url: String,
    /// What carbon-show takes from it.
    pub used: String,
}
