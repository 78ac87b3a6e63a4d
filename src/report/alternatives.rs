//! The greener alternatives and the `--what-if` of a report, as data: `alternatives` finds
//! and words them.

use schemars::JsonSchema;
use serde::Serialize;

use super::{Figures, Sources, Text, Totals};

/// What an alternative changes.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum AlternativeKind {
    /// The same type in the region of lowest grid intensity (× PUE) of the same provider and
    /// jurisdiction.
    Region,
    /// The ARM type of the same vCPU count and memory, in the same region.
    Arm,
}

/// One greener alternative to a resource's after side.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct Alternative {
    pub kind: AlternativeKind,
    /// The region the alternative runs in.
    pub region: Option<Text>,
    /// The machine type the alternative runs on.
    pub machine_type: Option<Text>,
    /// The jurisdiction both regions share (`EU/EEA`, `US`, `UK`…; data/geography.json).
    pub jurisdiction: Option<&'static str>,
    /// The alternative's grid intensity, gCO2eq/kWh.
    pub grid_g_per_kwh: Option<f64>,
    /// The alternative's figures for one hour of all instances, by the same estimate.
    pub per_hour: Figures,
    /// The actual after side's total minus the alternative's, gCO2eq per hour.
    pub saving_gco2eq_per_hour: f64,
    /// The same saving over the report's headline period.
    pub saving_gco2eq_per_period: f64,
    /// The saving as a share of the actual after side's total (0..1).
    pub saving_share: f64,
    /// Why it is an alternative, in words.
    pub reason: Text,
    /// Ids of the data tables the alternative's figures and choice come from.
    pub sources: Sources,
}

/// One resource under the what-if.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct WhatIfResource {
    pub address: String,
    /// The what-if's figures for one hour of all instances, before and after.
    pub before_per_hour: Option<Figures>,
    pub after_per_hour: Option<Figures>,
    /// `after − before` under the what-if, per hour.
    pub delta_per_hour: Figures,
}

/// The plan re-estimated under `--what-if`, beside the actual report.
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub struct WhatIf {
    /// The scenario's parts: `aws:eu-north-1`, `arm`.
    pub scenario: Vec<String>,
    /// The what-if's totals (the actual ones are the report's `totals`).
    pub totals: Totals,
    /// The what-if change minus the actual change, per hour (the delta of the delta).
    pub difference_per_hour: Figures,
    pub resources: Vec<WhatIfResource>,
}
