//! Estimates: energy and emissions from a resource's figures and the reference coefficients.
//!
//! The method is Cloud Carbon Footprint's (see docs/methodology.md):
//!
//! ```text
//! IT power (W)      = vCPU × (cpu_min + u × (cpu_max − cpu_min))
//!                   + memory_GB × memory_W_per_GB
//!                   + SSD_TB × ssd_W_per_TB + HDD_TB × hdd_W_per_TB
//!                   + Σ GPU (gpu_min + u × (gpu_max − gpu_min))
//!                   + network_W (data moved, declared in a usage file: GB × kWh/GB per hour)
//! energy (kWh/h)    = IT power / 1000 × PUE
//! operational (g/h) = energy × grid intensity (gCO2eq/kWh)
//! embodied (g/h)    = the instance's share of its hardware's manufacturing emissions per hour
//! ```
//!
//! Everything is per hour of one instance; [`Estimate::scaled`] multiplies by instance count and
//! replication (each counted once), and [`Period`] turns hours into months and years.

use std::fmt;
use std::str::FromStr;

/// The physical make-up of one instance of a resource.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Footprint {
    pub vcpus: f64,
    pub memory_gb: f64,
    /// Solid-state storage, in terabytes.
    pub ssd_tb: f64,
    /// Spinning-disk storage, in terabytes.
    pub hdd_tb: f64,
    /// One entry per GPU: its (min, max) watts.
    pub gpus: Vec<(f64, f64)>,
    /// IT power of the data the resource moves (networking per GB, spread over the hour), in
    /// watts; independent of utilisation. Only a usage file declares data moved (`src/usage`).
    pub network_w: f64,
}

/// The coefficients that apply to one resource, each traceable to a table in `data/`.
#[derive(Debug, Clone, PartialEq)]
pub struct Coefficients {
    /// Watts per vCPU at idle.
    pub cpu_min_w: f64,
    /// Watts per vCPU at full load.
    pub cpu_max_w: f64,
    /// Watts per GB of memory.
    pub memory_w_per_gb: f64,
    /// Watts per TB of SSD storage.
    pub ssd_w_per_tb: f64,
    /// Watts per TB of HDD storage.
    pub hdd_w_per_tb: f64,
    /// Power usage effectiveness of the provider's data centres.
    pub pue: f64,
    /// Grid carbon intensity, gCO2eq per kWh; `None` when the region is unknown.
    pub grid_g_per_kwh: Option<f64>,
    /// Embodied emissions of one instance, gCO2eq per hour of use.
    pub embodied_g_per_hour: f64,
}

/// Power, energy and emissions of a resource for one hour.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Estimate {
    pub cpu_w: f64,
    pub memory_w: f64,
    pub storage_w: f64,
    pub gpu_w: f64,
    /// Networking (data moved, from a usage file).
    pub network_w: f64,
    /// Energy drawn from the grid in one hour, PUE included (kWh).
    pub energy_kwh: f64,
    /// Operational emissions in one hour (gCO2eq); 0 when the grid intensity is unknown.
    pub operational_g: f64,
    /// Embodied emissions in one hour (gCO2eq).
    pub embodied_g: f64,
}

impl Estimate {
    /// IT power (before PUE), in watts.
    pub fn it_power_w(&self) -> f64 {
        self.cpu_w + self.memory_w + self.storage_w + self.gpu_w + self.network_w
    }

    /// Operational plus embodied emissions in one hour (gCO2eq).
    pub fn total_g(&self) -> f64 {
        self.operational_g + self.embodied_g
    }

    /// Every figure multiplied by `factor` (instances × replicas).
    pub fn scaled(&self, factor: f64) -> Estimate {
        Estimate {
            cpu_w: self.cpu_w * factor,
            memory_w: self.memory_w * factor,
            storage_w: self.storage_w * factor,
            gpu_w: self.gpu_w * factor,
            network_w: self.network_w * factor,
            energy_kwh: self.energy_kwh * factor,
            operational_g: self.operational_g * factor,
            embodied_g: self.embodied_g * factor,
        }
    }

    /// The figure-by-figure difference `self − before`.
    pub fn minus(&self, before: &Estimate) -> Estimate {
        self.plus(&before.scaled(-1.0))
    }

    /// The figure-by-figure sum.
    pub fn plus(&self, other: &Estimate) -> Estimate {
        Estimate {
            cpu_w: self.cpu_w + other.cpu_w,
            memory_w: self.memory_w + other.memory_w,
            storage_w: self.storage_w + other.storage_w,
            gpu_w: self.gpu_w + other.gpu_w,
            network_w: self.network_w + other.network_w,
            energy_kwh: self.energy_kwh + other.energy_kwh,
            operational_g: self.operational_g + other.operational_g,
            embodied_g: self.embodied_g + other.embodied_g,
        }
    }
}

impl std::iter::Sum for Estimate {
    fn sum<I: Iterator<Item = Estimate>>(iter: I) -> Estimate {
        iter.fold(Estimate::default(), |acc, e| acc.plus(&e))
    }
}

/// Estimates one instance for one hour at CPU/GPU utilisation `utilization` (0..=1).
pub fn estimate(fp: &Footprint, c: &Coefficients, utilization: f64) -> Estimate {
    let u = utilization.clamp(0.0, 1.0);
    let cpu_w = fp.vcpus * (c.cpu_min_w + u * (c.cpu_max_w - c.cpu_min_w));
    let memory_w = fp.memory_gb * c.memory_w_per_gb;
    let storage_w = fp.ssd_tb * c.ssd_w_per_tb + fp.hdd_tb * c.hdd_w_per_tb;
    let gpu_w = fp
        .gpus
        .iter()
        .map(|&(min, max)| min + u * (max - min))
        .sum::<f64>();
    let network_w = fp.network_w;
    let energy_kwh = (cpu_w + memory_w + storage_w + gpu_w + network_w) / 1000.0 * c.pue;
    let operational_g = c.grid_g_per_kwh.map_or(0.0, |g| energy_kwh * g);
    Estimate {
        cpu_w,
        memory_w,
        storage_w,
        gpu_w,
        network_w,
        energy_kwh,
        operational_g,
        embodied_g: c.embodied_g_per_hour,
    }
}

/// The CPU/GPU utilisation at the low end of every range (docs/methodology.md, "Ranges").
pub const LOW_UTILIZATION: f64 = 0.1;
/// The CPU/GPU utilisation at the high end of every range.
pub const HIGH_UTILIZATION: f64 = 0.9;

/// One resource's figures at the low end, the central value and the high end of its range.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Ranged {
    pub low: Estimate,
    pub central: Estimate,
    pub high: Estimate,
}

impl Ranged {
    /// Every figure of the three multiplied by `factor` (instances × replicas).
    pub fn scaled(&self, factor: f64) -> Ranged {
        Ranged {
            low: self.low.scaled(factor),
            central: self.central.scaled(factor),
            high: self.high.scaled(factor),
        }
    }
}

/// The range of one instance for one hour: `central` coefficients at `utilization`; `low`
/// coefficients at the lower of `utilization` and [`LOW_UTILIZATION`]; `high` ones at the higher
/// of `utilization` and [`HIGH_UTILIZATION`].
pub fn estimate_range(
    fp: &Footprint,
    low: &Coefficients,
    central: &Coefficients,
    high: &Coefficients,
    utilization: f64,
) -> Ranged {
    let u = utilization.clamp(0.0, 1.0);
    Ranged {
        low: estimate(fp, low, u.min(LOW_UTILIZATION)),
        central: estimate(fp, central, u),
        high: estimate(fp, high, u.max(HIGH_UTILIZATION)),
    }
}

/// A span of time that figures are reported over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Period {
    Hour,
    /// 730 hours (8,760 / 12), as CCF and cloud price lists count a month.
    #[default]
    Month,
    /// 8,760 hours.
    Year,
}

impl Period {
    /// The number of hours in this period.
    pub fn hours(self) -> f64 {
        match self {
            Period::Hour => 1.0,
            Period::Month => 730.0,
            Period::Year => 8760.0,
        }
    }

    /// The short unit name used after a slash: `h`, `month`, `year`.
    pub fn unit(self) -> &'static str {
        match self {
            Period::Hour => "h",
            Period::Month => "month",
            Period::Year => "year",
        }
    }
}

impl FromStr for Period {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "h" | "hr" | "hour" | "hours" => Ok(Period::Hour),
            "mo" | "month" | "months" => Ok(Period::Month),
            "y" | "yr" | "year" | "years" => Ok(Period::Year),
            other => Err(format!(
                "unknown period {other:?}: expected hour, month or year"
            )),
        }
    }
}

/// A mass of CO2-equivalent, stored in grams.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default)]
pub struct Mass(pub f64);

impl fmt::Display for Mass {
    /// Three significant figures in the largest unit that keeps the number ≥ 1:
    /// `23.1 gCO2eq`, `16.6 kgCO2eq`, `1.25 tCO2eq`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(16);
        push_mass(&mut s, self.0);
        f.write_str(&s)
    }
}

/// Appends `Mass(g)` as it displays (`23.1 gCO2eq`), without `fmt`'s machinery.
pub fn push_mass(out: &mut String, g: f64) {
    let (value, unit) = if g.abs() >= 1e6 {
        (g / 1e6, "t")
    } else if g.abs() >= 1e3 {
        (g / 1e3, "kg")
    } else {
        (g, "g")
    };
    push_sig3(out, value);
    out.push(' ');
    out.push_str(unit);
    out.push_str("CO2eq");
}

/// Formats with three significant figures (docs/ARCHITECTURE.md §4, "Figures"): `0.0123`,
/// `1.80`, `12.9`, `581`, `1200` (1204); the count is taken after rounding, so 99.97 is `100`,
/// not `100.0`.
pub fn sig3(v: f64) -> String {
    let mut s = String::with_capacity(8);
    push_sig3(&mut s, v);
    s
}

/// Appends [`sig3`]`(v)` to `out`, without a string of its own.
pub fn push_sig3(out: &mut String, v: f64) {
    use std::fmt::Write as _;
    if v == 0.0 || !v.is_finite() {
        if v.is_finite() {
            out.push('0');
        } else {
            let _ = write!(out, "{v}");
        }
        return;
    }
    let start = out.len();
    // the power of ten of the first significant figure, once rounded to three
    let mut exp = v.abs().log10().floor() as i32;
    let step = 10f64.powi(exp - 2);
    if ((v.abs() / step).round() * step) >= 10f64.powi(exp + 1) {
        exp += 1;
    }
    if exp >= 2 {
        let step = 10f64.powi(exp - 2);
        let r = (v / step).round() * step;
        // a whole number that an i64 holds exactly prints as `{:.0}` prints it
        if r.fract() == 0.0 && r.abs() < 9.0e15 {
            push_int(out, r as i64);
        } else {
            let _ = write!(out, "{r:.0}");
        }
    } else {
        let decimals = (2 - exp).min(9) as usize;
        if !push_fixed(out, v, decimals) {
            let _ = write!(out, "{v:.decimals$}");
        }
    }
    // a negative figure that rounds to zero is written without its sign
    let s = &out[start..];
    if s.starts_with("-0") && s[1..].bytes().all(|c| c == b'0' || c == b'.') {
        out.remove(start);
    }
}

/// Appends the decimal digits of `n` (what `n.to_string()` writes).
pub fn push_int(out: &mut String, n: i64) {
    let mut buf = [0u8; 20];
    let digits = digits_of(n.unsigned_abs(), 1, &mut buf);
    if n < 0 {
        out.push('-');
    }
    out.push_str(digits);
}

/// The decimal digits of `n`, with zeros before them up to `width` digits, written at the end
/// of `buf`.
fn digits_of(mut n: u64, width: usize, buf: &mut [u8; 20]) -> &str {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    while buf.len() - i < width.min(buf.len()) {
        i -= 1;
        buf[i] = b'0';
    }
    std::str::from_utf8(&buf[i..]).unwrap_or("0")
}

/// Appends `format!("{v:.decimals$}")` for a `v` of at most a few digits before the point,
/// without the exact decimal expansion `fmt` does: `|v| × 10^decimals` rounded to the nearest
/// whole number. `false`, with nothing written, when that product lies within 1e-6 of a tie, where only the exact expansion
/// decides (the product's own error is below 1e-12 for the values [`sig3`] passes, under
/// 10⁴ once scaled), and for values too large for the shortcut.
fn push_fixed(out: &mut String, v: f64, decimals: usize) -> bool {
    let scaled = v.abs() * 10f64.powi(decimals as i32);
    if scaled >= 1e6 || decimals > 9 {
        return false;
    }
    let whole = scaled.floor();
    let frac = scaled - whole;
    if (frac - 0.5).abs() < 1e-6 {
        return false;
    }
    let n = if frac > 0.5 { whole + 1.0 } else { whole } as u64;
    // the digits, with zeros before them for at least one digit before the point
    let mut buf = [0u8; 20];
    let digits = digits_of(n, decimals + 1, &mut buf);
    let point = digits.len() - decimals;
    if v < 0.0 {
        out.push('-');
    }
    out.push_str(&digits[..point]);
    if decimals > 0 {
        out.push('.');
        out.push_str(&digits[point..]);
    }
    true
}

/// A limit on added emissions per period, as given to `--fail-over` (e.g. `10kg/month`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// The limit in grams per `period`.
    pub grams: f64,
    pub period: Period,
    /// Whether the text named its period (`10kg/month`); a bare `10kg` is per month, which
    /// the configuration refuses beside another `--period` (`config::resolve`).
    pub period_named: bool,
}

impl Budget {
    /// The limit expressed in grams per hour.
    pub fn grams_per_hour(&self) -> f64 {
        self.grams / self.period.hours()
    }
}

impl FromStr for Budget {
    type Err = String;
    /// Parses `<number><unit>[/<period>]`, unit one of `g`, `kg`, `t` (an optional `CO2eq`
    /// suffix is accepted), period `h`, `month` (the default) or `year`.
    fn from_str(s: &str) -> Result<Self, String> {
        let (amount, period, period_named) = match s.split_once('/') {
            Some((a, p)) => (a.trim(), p.parse::<Period>()?, true),
            None => (s.trim(), Period::Month, false),
        };
        let split = amount
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
            .unwrap_or(amount.len());
        let (number, unit) = amount.split_at(split);
        let number: f64 = number.replace('_', "").parse().map_err(|_| {
            format!("{s:?}: expected a number followed by g, kg or t, e.g. 10kg/month")
        })?;
        let unit = unit.trim().to_ascii_lowercase();
        let unit = unit.strip_suffix("co2eq").unwrap_or(&unit).trim();
        let factor = match unit {
            "g" => 1.0,
            "kg" => 1e3,
            "t" => 1e6,
            other => {
                return Err(format!(
                    "{s:?}: unknown unit {other:?}: expected g, kg or t"
                ));
            }
        };
        if !number.is_finite() || number < 0.0 {
            return Err(format!("{s:?}: the limit must be a non-negative number"));
        }
        Ok(Budget {
            grams: number * factor,
            period,
            period_named,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sig3` as it was written before its shortcut ([`push_fixed`]): through `fmt`'s exact
    /// decimal expansion every time.
    fn sig3_by_fmt(v: f64) -> String {
        if v == 0.0 || !v.is_finite() {
            return if v.is_finite() {
                "0".into()
            } else {
                v.to_string()
            };
        }
        let mut exp = v.abs().log10().floor() as i32;
        let step = 10f64.powi(exp - 2);
        if ((v.abs() / step).round() * step) >= 10f64.powi(exp + 1) {
            exp += 1;
        }
        let s = if exp >= 2 {
            let step = 10f64.powi(exp - 2);
            format!("{:.0}", (v / step).round() * step)
        } else {
            let decimals = (2 - exp).min(9) as usize;
            format!("{v:.decimals$}")
        };
        if s.starts_with("-0")
            && s.trim_start_matches('-')
                .chars()
                .all(|c| c == '0' || c == '.')
        {
            s[1..].to_string()
        } else {
            s
        }
    }

    /// The shortcut writes what `fmt` writes: over every magnitude the figures take, both
    /// signs, the ties a decimal fraction cannot hold exactly (2.675, 1.005, 0.125), and
    /// numbers a hair either side of them.
    #[test]
    fn sig3_shortcut_writes_what_fmt_writes() {
        let mut values = vec![
            0.125,
            2.675,
            1.005,
            0.0005,
            0.00125,
            99.95,
            999.5,
            9.995,
            9.9949,
            0.99951,
            1e-12,
            3.4e-10,
            123456.0,
            1.5e17,
            0.015,
            0.045,
            5e-10,
            0.000_000_000_5,
        ];
        // a simple generator: mantissas across each decade from 1e-12 to 1e12
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mantissa = 1.0 + (x % 9_000_000) as f64 / 1_000_000.0;
            let decade = (x >> 40) % 25;
            values.push(mantissa * 10f64.powi(decade as i32 - 12));
        }
        // three-figure ties and their neighbours
        for m in 100..1000 {
            for e in -9..3 {
                let t = (m as f64 + 0.5) * 10f64.powi(e - 2);
                values.extend([t, t.next_up(), t.next_down()]);
            }
        }
        for v in values {
            for v in [v, -v] {
                assert_eq!(sig3(v), sig3_by_fmt(v), "{v:e}");
            }
        }
    }

    /// The digits written without `fmt` are the ones `fmt` writes: integers of every length
    /// and sign, and masses (`Mass`'s display, `push_mass`) as `write!` wrote them.
    #[test]
    fn push_int_and_push_mass_write_what_fmt_writes() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut ints = vec![
            0,
            1,
            -1,
            9,
            10,
            -10,
            99,
            100,
            i64::MAX,
            i64::MIN,
            123_456_789,
        ];
        let mut masses = vec![0.0, -0.0, 0.0004, -0.0004, 999.5, 999_499.0, 1e6, -2.5e9];
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ints.push((x as i64) >> (x % 63));
            let m = (x % 10_000_000) as f64 / 1000.0 * 10f64.powi((x >> 50) as i32 % 12 - 3);
            masses.extend([m, -m]);
        }
        for n in ints {
            let mut s = String::new();
            push_int(&mut s, n);
            assert_eq!(s, n.to_string());
        }
        for g in masses {
            let (value, unit) = if g.abs() >= 1e6 {
                (g / 1e6, "t")
            } else if g.abs() >= 1e3 {
                (g / 1e3, "kg")
            } else {
                (g, "g")
            };
            let by_fmt = format!("{} {unit}CO2eq", sig3_by_fmt(value));
            assert_eq!(Mass(g).to_string(), by_fmt, "{g:e}");
            let mut s = String::from("≈ ");
            push_mass(&mut s, g);
            assert_eq!(s, format!("≈ {by_fmt}"), "{g:e}");
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
    }

    fn aws_like() -> Coefficients {
        Coefficients {
            cpu_min_w: 0.74,
            cpu_max_w: 3.5,
            memory_w_per_gb: 0.392,
            ssd_w_per_tb: 1.2,
            hdd_w_per_tb: 0.65,
            pue: 1.135,
            grid_g_per_kwh: Some(379.069),
            embodied_g_per_hour: 0.0,
        }
    }

    #[test]
    fn cpu_and_memory_by_hand() {
        // 2 vCPU × (0.74 + 0.5 × (3.5 − 0.74)) = 2 × 2.12 = 4.24 W
        // 8 GB × 0.392 = 3.136 W; total 7.376 W → 0.007376 kWh × 1.135 = 0.00837176 kWh
        // × 379.069 g/kWh = 3.173477... g/h
        let fp = Footprint {
            vcpus: 2.0,
            memory_gb: 8.0,
            ..Footprint::default()
        };
        let e = estimate(&fp, &aws_like(), 0.5);
        assert!(close(e.cpu_w, 4.24), "{e:?}");
        assert!(close(e.memory_w, 3.136), "{e:?}");
        assert!(close(e.energy_kwh, 0.007376 * 1.135), "{e:?}");
        assert!(close(e.operational_g, 0.007376 * 1.135 * 379.069), "{e:?}");
        // over a 730 h month: 2.3166 kg, the CCF worked check's 2.318 kg within 0.1 %
        let month = e.operational_g * Period::Month.hours();
        assert!((month - 2318.0).abs() / 2318.0 < 0.001, "{month}");
    }

    #[test]
    fn storage_gpu_and_embodied_by_hand() {
        // 0.5 TB SSD × 1.2 = 0.6 W; 2 TB HDD × 0.65 = 1.3 W
        // GPUs (8, 71) and (35, 306) at u = 0.25: 8 + 15.75 = 23.75; 35 + 67.75 = 102.75 → 126.5 W
        // total 128.4 W → 0.1284 kWh × PUE 1.1 = 0.14124 kWh × 100 g = 14.124 g; embodied 5 g
        let fp = Footprint {
            ssd_tb: 0.5,
            hdd_tb: 2.0,
            gpus: vec![(8.0, 71.0), (35.0, 306.0)],
            ..Footprint::default()
        };
        let c = Coefficients {
            pue: 1.1,
            grid_g_per_kwh: Some(100.0),
            embodied_g_per_hour: 5.0,
            ..aws_like()
        };
        let e = estimate(&fp, &c, 0.25);
        assert!(close(e.storage_w, 1.9), "{e:?}");
        assert!(close(e.gpu_w, 126.5), "{e:?}");
        assert!(close(e.operational_g, 14.124), "{e:?}");
        assert!(close(e.total_g(), 19.124), "{e:?}");
        let three = e.scaled(3.0);
        assert!(close(three.total_g(), 57.372), "{three:?}");
        assert!(close(three.minus(&e).total_g(), 2.0 * 19.124));
    }

    #[test]
    fn unknown_region_has_no_operational_emissions_but_keeps_energy() {
        let c = Coefficients {
            grid_g_per_kwh: None,
            ..aws_like()
        };
        let e = estimate(
            &Footprint {
                vcpus: 1.0,
                ..Footprint::default()
            },
            &c,
            0.5,
        );
        assert_eq!(e.operational_g, 0.0);
        assert!(e.energy_kwh > 0.0);
    }

    #[test]
    fn range_spans_ten_to_ninety_percent_and_the_coefficients() {
        // 1 vCPU, low coefficients (0.5, 2.5) at 10 %: 0.5 + 0.1 × 2 = 0.7 W;
        // central (0.74, 3.5) at 50 %: 2.12 W; high (1.0, 4.0) at 90 %: 1 + 0.9 × 3 = 3.7 W
        let fp = Footprint {
            vcpus: 1.0,
            ..Footprint::default()
        };
        let low = Coefficients {
            cpu_min_w: 0.5,
            cpu_max_w: 2.5,
            ..aws_like()
        };
        let high = Coefficients {
            cpu_min_w: 1.0,
            cpu_max_w: 4.0,
            ..aws_like()
        };
        let r = estimate_range(&fp, &low, &aws_like(), &high, 0.5);
        assert!(close(r.low.cpu_w, 0.7), "{r:?}");
        assert!(close(r.central.cpu_w, 2.12), "{r:?}");
        assert!(close(r.high.cpu_w, 3.7), "{r:?}");
        // a utilisation outside 10–90 % widens its own end: 95 % is the high end's too
        let r = estimate_range(&fp, &low, &aws_like(), &high, 0.95);
        assert!(close(r.high.cpu_w, 1.0 + 0.95 * 3.0), "{r:?}");
        assert!(close(r.scaled(2.0).low.cpu_w, 1.4));
    }

    #[test]
    fn utilization_is_clamped() {
        let fp = Footprint {
            vcpus: 1.0,
            ..Footprint::default()
        };
        assert_eq!(
            estimate(&fp, &aws_like(), 7.0),
            estimate(&fp, &aws_like(), 1.0)
        );
        assert_eq!(
            estimate(&fp, &aws_like(), -1.0),
            estimate(&fp, &aws_like(), 0.0)
        );
    }

    #[test]
    fn masses_display_with_three_significant_figures() {
        for (g, text) in [
            (23.14, "23.1 gCO2eq"),
            (16_600.0, "16.6 kgCO2eq"),
            (1_254_000.0, "1.25 tCO2eq"),
            (0.01234, "0.0123 gCO2eq"),
            (0.0, "0 gCO2eq"),
            (-2_500.0, "-2.50 kgCO2eq"),
            (123.4, "123 gCO2eq"),
        ] {
            assert_eq!(Mass(g).to_string(), text, "{g}");
        }
    }

    #[test]
    fn budgets_parse() {
        for (text, grams, period) in [
            ("10kg/month", 10_000.0, Period::Month),
            ("10 kg / year", 10_000.0, Period::Year),
            ("500g/h", 500.0, Period::Hour),
            ("1.5t", 1_500_000.0, Period::Month),
            ("2kgCO2eq/month", 2_000.0, Period::Month),
        ] {
            let b: Budget = text.parse().unwrap();
            assert!(close(b.grams, grams), "{text}");
            assert_eq!(b.period, period, "{text}");
        }
        for bad in ["", "kg", "10lb/month", "10kg/fortnight", "-3kg"] {
            assert!(bad.parse::<Budget>().is_err(), "{bad}");
        }
        let b: Budget = "730g/month".parse().unwrap();
        assert!(close(b.grams_per_hour(), 1.0));
    }
}
