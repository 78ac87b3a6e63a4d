//! `--what-if`: the whole plan re-estimated as if every resource of a provider ran in another
//! region (`region=[PROVIDER:]REGION`) or on its ARM equivalent (`arm`), side by side with the
//! actual figures: the difference is the what-if change minus the actual change.

use std::collections::BTreeMap;

use super::tables;
use crate::data::{self, Provider};
use crate::mapping::MappedPlan;
pub use crate::report::alternatives::{WhatIf, WhatIfResource};
use crate::report::{Figures, Report};

/// One `--what-if` value.
#[derive(Debug, Clone, PartialEq)]
pub enum WhatIfSpec {
    /// `region=REGION` or `region=PROVIDER:REGION`; the provider is the one whose region names
    /// it matches when left out.
    Region { provider: Provider, region: String },
    /// `arm`: every type with an ARM equivalent runs as it.
    Arm,
}

/// Parses one `--what-if` value; the error is the reason, in one line.
pub fn parse_spec(s: &str) -> Result<WhatIfSpec, String> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("arm") {
        return Ok(WhatIfSpec::Arm);
    }
    // `region=REGION`, `region=PROVIDER:REGION`, or `PROVIDER:REGION` alone
    let Some(value) = s
        .strip_prefix("region=")
        .or_else(|| s.contains(':').then_some(s))
    else {
        return Err(
            "expected region=REGION, region=PROVIDER:REGION, PROVIDER:REGION or arm".into(),
        );
    };
    let (provider, region) = match value.split_once(':') {
        Some((p, r)) => {
            let p = Provider::parse(p)
                .ok_or_else(|| format!("unknown provider {p:?} (aws, gcp or azure)"))?;
            (Some(p), r.trim())
        }
        None => (None, value.trim()),
    };
    if region.is_empty() {
        return Err("the region is empty".into());
    }
    let provider = match provider {
        Some(p) => p,
        None => match tables::providers_of(region)[..] {
            [p] => p,
            [] => return Err(format!("unknown region {region:?} (no provider has it)")),
            _ => {
                return Err(format!(
                    "region {region:?} is a region of several providers: write PROVIDER:{region}"
                ));
            }
        },
    };
    let place = tables::place(provider, region).filter(|_| !region.is_empty());
    match place {
        Some(p) if data::grid_intensity(provider, &p.region).is_some() => Ok(WhatIfSpec::Region {
            provider,
            region: p.region.clone(),
        }),
        _ => Err(format!(
            "unknown {} region {region:?} (data/geography.json and data/grid_intensity.json list the known ones)",
            provider.as_str()
        )),
    }
}

/// The what-if of a run: a region per provider, and whether types become ARM.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scenario {
    pub regions: BTreeMap<Provider, String>,
    pub arm: bool,
}

impl Scenario {
    /// The scenario of the `--what-if` values; two regions for one provider is an error.
    pub fn new(specs: &[WhatIfSpec]) -> Result<Scenario, String> {
        let mut s = Scenario::default();
        for spec in specs {
            match spec {
                WhatIfSpec::Arm => s.arm = true,
                WhatIfSpec::Region { provider, region } => {
                    if let Some(was) = s.regions.insert(*provider, region.clone()) {
                        return Err(format!(
                            "two --what-if regions for {}: {was} and {region} (one per provider)",
                            provider.as_str()
                        ));
                    }
                }
            }
        }
        Ok(s)
    }

    pub fn is_empty(&self) -> bool {
        self.regions.is_empty() && !self.arm
    }

    /// `aws:eu-north-1`, `arm`: the scenario's parts, as JSON and the summary name them.
    pub fn labels(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .regions
            .iter()
            .map(|(p, r)| format!("{}:{r}", p.as_str()))
            .collect();
        if self.arm {
            v.push("arm".into());
        }
        v
    }

    /// Applies the scenario to both sides of every mapped resource: the region of every
    /// resource of a named provider (as the configuration's `[regions]` would), then the ARM
    /// type where there is one.
    pub fn apply(&self, mapped: &mut MappedPlan) {
        for m in mapped.before.iter_mut().chain(mapped.after.iter_mut()) {
            if let Some(region) = Provider::parse(&m.provider).and_then(|p| self.regions.get(&p)) {
                m.region = Some(region.clone());
            }
            if self.arm
                && let Some((target, _)) = tables::arm_equivalent(m)
            {
                *m = super::as_type(m, &target);
            }
        }
    }
}

fn minus(a: &Figures, b: &Figures) -> Figures {
    Figures {
        power_w: a.power_w - b.power_w,
        energy_kwh: a.energy_kwh - b.energy_kwh,
        operational_gco2eq: a.operational_gco2eq - b.operational_gco2eq,
        embodied_gco2eq: a.embodied_gco2eq - b.embodied_gco2eq,
        total_gco2eq: a.total_gco2eq - b.total_gco2eq,
    }
}

impl WhatIf {
    /// The what-if of `actual`, from the report assessed under the scenario.
    pub fn new(scenario: &Scenario, actual: &Report, what_if: &Report) -> WhatIf {
        WhatIf {
            scenario: scenario.labels(),
            totals: what_if.totals.clone(),
            difference_per_hour: minus(
                &what_if.totals.delta_per_hour,
                &actual.totals.delta_per_hour,
            ),
            resources: what_if
                .resources
                .iter()
                .map(|r| WhatIfResource {
                    address: r.address.clone(),
                    before_per_hour: r.before.as_ref().map(|s| s.per_hour),
                    after_per_hour: r.after.as_ref().map(|s| s.per_hour),
                    delta_per_hour: r.delta_per_hour,
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_with_and_without_a_provider() {
        assert_eq!(parse_spec("arm"), Ok(WhatIfSpec::Arm));
        assert_eq!(
            parse_spec("region=eu-north-1"),
            Ok(WhatIfSpec::Region {
                provider: Provider::Aws,
                region: "eu-north-1".into()
            })
        );
        assert_eq!(
            parse_spec("region=azure:swedencentral"),
            Ok(WhatIfSpec::Region {
                provider: Provider::Azure,
                region: "swedencentral".into()
            })
        );
        assert_eq!(
            parse_spec("region=gcp:europe-north2"),
            Ok(WhatIfSpec::Region {
                provider: Provider::Gcp,
                region: "europe-north2".into()
            })
        );
        let e = parse_spec("region=mars-1").unwrap_err();
        assert!(e.contains("unknown region \"mars-1\""), "{e}");
        let e = parse_spec("region=aws:europe-north1").unwrap_err();
        assert!(e.contains("unknown aws region"), "{e}");
        assert_eq!(
            parse_spec("aws:eu-north-1"),
            parse_spec("region=aws:eu-north-1")
        );
        assert!(parse_spec("cheaper").is_err());
        assert!(parse_spec("region=").is_err());
    }

    #[test]
    fn two_regions_for_one_provider_is_an_error() {
        let a = parse_spec("region=eu-north-1").unwrap();
        let b = parse_spec("region=aws:eu-west-3").unwrap();
        let e = Scenario::new(&[a.clone(), b]).unwrap_err();
        assert!(e.contains("two --what-if regions for aws"), "{e}");
        let c = parse_spec("region=europe-north2").unwrap();
        let s = Scenario::new(&[a, c, WhatIfSpec::Arm]).unwrap();
        assert_eq!(s.labels(), ["aws:eu-north-1", "gcp:europe-north2", "arm"]);
    }
}
