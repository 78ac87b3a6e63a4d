//! Region resolution: from provider configurations (provider_config_key, aliases, module
//! provider passing, variables), and from a resource's own configuration references.

use super::config::Config;
use super::jq;
use super::source::Slot;
use crate::redact::SENSITIVE;
use jaq_json::Val;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::collections::HashMap;

/// Provider families the engine maps.
pub fn provider_family(provider_name: &str) -> Option<&'static str> {
    let last = provider_name.rsplit('/').next().unwrap_or(provider_name);
    match last {
        "aws" => Some("aws"),
        "google" | "google-beta" => Some("gcp"),
        "azurerm" => Some("azure"),
        _ => None,
    }
}

/// Split an address at dots outside brackets and quotes.
pub fn split_address(addr: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut quoted, mut start) = (0usize, false, 0usize);
    let b = addr.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if quoted => i += 1,
            b'"' => quoted = !quoted,
            b'[' if !quoted => depth += 1,
            b']' if !quoted => depth = depth.saturating_sub(1),
            b'.' if !quoted && depth == 0 => {
                out.push(&addr[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&addr[start..]);
    out
}

fn strip_index(seg: &str) -> &str {
    seg.split('[').next().unwrap_or(seg)
}

/// (module path without instance keys, e.g. `module.a.module.b`; resource address within it, e.g. `aws_instance.web`).
pub fn config_address(addr: &str) -> (String, String) {
    // an address without instance keys (nothing bracketed, nothing quoted) is its own module
    // path and resource address, split after the last leading `module.NAME` (each resource
    // of a plan asks, some twice: no list of segments for them)
    if !addr.bytes().any(|b| b == b'[' || b == b'"') {
        let (mut module_end, mut rest) = (0, 0);
        while addr[rest..].starts_with("module.") {
            let name = rest + "module.".len();
            match addr[name..].find('.') {
                Some(dot) => (module_end, rest) = (name + dot, name + dot + 1),
                None => (module_end, rest) = (addr.len(), addr.len()),
            }
        }
        return (addr[..module_end].to_string(), addr[rest..].to_string());
    }
    config_address_split(addr)
}

/// [`config_address`] of any address, by its segments.
fn config_address_split(addr: &str) -> (String, String) {
    let segs = split_address(addr);
    let mut module = String::new();
    let mut i = 0;
    while i + 1 < segs.len() && segs[i] == "module" {
        if !module.is_empty() {
            module.push('.');
        }
        module.push_str("module.");
        module.push_str(strip_index(segs[i + 1]));
        i += 2;
    }
    let mut rest = String::with_capacity(addr.len());
    for (k, seg) in segs[i..].iter().enumerate() {
        if k > 0 {
            rest.push('.');
        }
        rest.push_str(strip_index(seg));
    }
    (module, rest)
}

/// Provider configurations of a plan, and which one each configured resource uses: read from
/// the configuration's slices (`mapping::config`), nothing of it built but the strings an
/// expression leads to.
pub struct Regions<'a> {
    config: &'a Config<'a>,
    configs: HashMap<Cow<'a, str>, &'a RawValue>,
    /// The region of every configured provider key, per provider family (aws, gcp, azure).
    pre: HashMap<String, [Option<String>; 3]>,
    /// Root module variables: their `value`.
    variables: HashMap<Cow<'a, str>, &'a RawValue>,
}

/// A string slice's text.
fn string(raw: Option<&RawValue>) -> Option<String> {
    let raw = raw?;
    raw.get()
        .starts_with('"')
        .then(|| serde_json::from_str::<String>(raw.get()).ok())
        .flatten()
}

fn field<'a>(raw: Option<&'a RawValue>, key: &str) -> Option<&'a RawValue> {
    super::source::member(raw?, key)
}

impl<'a> Regions<'a> {
    /// The provider configurations of `config` and the root module's `variables` section.
    pub fn new(config: &'a Config<'a>, variables: Option<&'a RawValue>) -> Regions<'a> {
        let members = |r: Option<&'a RawValue>| {
            r.map(|r| super::source::Members::of(r).0)
                .unwrap_or_default()
        };
        let mut r = Regions {
            config,
            configs: members(config.provider_config()).into_iter().collect(),
            pre: HashMap::new(),
            variables: members(variables)
                .into_iter()
                .filter_map(|(k, v)| Some((k, field(Some(v), "value")?)))
                .collect(),
        };
        let mut pre = HashMap::new();
        for key in r.configs.keys() {
            let regions = ["aws", "gcp", "azure"].map(|fam| r.region_for_key(key, fam, 0));
            pre.insert(key.to_string(), regions);
        }
        r.pre = pre;
        r
    }

    /// The provider_config_key of a resource instance address, if the configuration has it.
    pub fn key_of(&self, address: &str) -> Option<String> {
        let (m, r) = config_address(address);
        self.config.provider_key(&m, &r)
    }

    /// Like [`Regions::region_for`], with the resource's provider_config_key when the caller has it.
    pub fn region_with_key(
        &self,
        key: Option<&str>,
        address: &str,
        family: &str,
        provider_name: &str,
    ) -> Option<String> {
        match key {
            Some(k) => match self.pre.get(k) {
                Some(r) => r[fam_index(family)].clone(),
                None => self.region_for_key(k, family, 0),
            },
            None => self.region_for(address, family, provider_name),
        }
    }

    /// Value of an expression (`constant_value`, or a reference to `var.x`) in the module at `module`.
    fn expr(&self, e: Option<&RawValue>, module: &str, depth: usize) -> Option<String> {
        if depth > 8 {
            return None;
        }
        let e = e?;
        if let Some(s) = string(field(Some(e), "constant_value")) {
            return Some(s);
        }
        let refs = field(Some(e), "references")?;
        let refs: Vec<Cow<'_, str>> = serde_json::from_str::<Vec<&RawValue>>(refs.get())
            .ok()?
            .into_iter()
            .filter_map(|r| string(Some(r)).map(Cow::Owned))
            .collect();
        for r in refs {
            let Some(var) = r.strip_prefix("var.") else {
                continue;
            };
            let var = var.split(['.', '[']).next().unwrap_or(var);
            if self.config.variable_sensitive(module, var) {
                // a sensitive variable's value is never shown, whatever it is
                return Some(SENSITIVE.to_string());
            }
            if module.is_empty() {
                if let Some(s) = string(self.variables.get(var).copied()) {
                    return Some(s);
                }
            } else if self.config.has_module(module) {
                let parent = module.rfind(".module.").map_or("", |i| &module[..i]);
                let call_expr = self.config.call_expression_raw(module, var);
                if let Some(v) = self.expr(call_expr, parent, depth + 1) {
                    return Some(v);
                }
                // the module variable's own default
                if let Some(s) = string(self.config.variable_default_raw(module, var)) {
                    return Some(s);
                }
            }
        }
        None
    }

    fn region_of_config(&self, cfg: &RawValue, family: &str) -> Option<String> {
        let module = string(field(Some(cfg), "module_address")).unwrap_or_default();
        let ex = field(Some(cfg), "expressions");
        let at = |k: &str| field(ex, k);
        match family {
            "gcp" => self.expr(at("region"), &module, 0).or_else(|| {
                self.expr(at("zone"), &module, 0).map(|z| {
                    if z == SENSITIVE {
                        z
                    } else {
                        gcp_zone_region(&z)
                    }
                })
            }),
            "azure" => self.expr(at("location"), &module, 0),
            _ => self.expr(at("region"), &module, 0),
        }
    }

    /// Region of the provider configuration a resource uses, following aliases and module passing.
    pub fn region_for(&self, address: &str, family: &str, provider_name: &str) -> Option<String> {
        let key = match self.key_of(address) {
            Some(k) => k,
            None => {
                // no configuration entry (state document): the module's default provider
                let (m, _) = config_address(address);
                let local = provider_name.rsplit('/').next().unwrap_or("aws");
                if m.is_empty() {
                    local.to_string()
                } else {
                    format!("{m}:{local}")
                }
            }
        };
        match self.pre.get(&key) {
            Some(r) => r[fam_index(family)].clone(),
            None => self.region_for_key(&key, family, 0),
        }
    }

    fn region_for_key(&self, key: &str, family: &str, depth: usize) -> Option<String> {
        if depth > 16 {
            return None;
        }
        if let Some(cfg) = self.configs.get(key)
            && let Some(r) = self.region_of_config(cfg, family)
        {
            return Some(r);
        }
        // `module.a.module.b:aws.alias` or `a:aws` (older): fall back to the parent module's configuration
        if let Some((m, local)) = key.rsplit_once(':') {
            let parent = if let Some(i) = m.rfind(".module.") {
                Some(m[..i].to_string())
            } else {
                m.rfind(':').map(|i| m[..i].to_string())
            };
            let next = match parent {
                Some(p) if !p.is_empty() => format!("{p}:{local}"),
                _ => local.to_string(),
            };
            if let Some(r) = self.region_for_key(&next, family, depth + 1) {
                return Some(r);
            }
            // an alias not configured above: the default configuration of that provider
            if let Some((name, _alias)) = local.split_once('.') {
                return self.region_for_key(name, family, depth + 1);
            }
            return None;
        }
        if let Some((name, _alias)) = key.split_once('.')
            && self.configs.contains_key(name)
            && !self.configs.contains_key(key)
        {
            return self.region_for_key(name, family, depth + 1);
        }
        None
    }
}

/// A family's place in [`Regions`]' table.
fn fam_index(family: &str) -> usize {
    match family {
        "gcp" => 1,
        "azure" => 2,
        _ => 0,
    }
}

// ------------------------------------------------------------------ expression references

/// The attributes that place a resource, per provider family, in the order they are tried.
fn placing_attributes(family: &str) -> &'static [&'static str] {
    match family {
        "azure" => &["location"],
        "gcp" => &["region", "location", "zone"],
        _ => &["region", "availability_zone"],
    }
}

/// A value read from the plan, made a region of `family`: a zone becomes its region, an Azure
/// display name its key (`West Europe` → `westeurope`).
fn as_region(family: &str, attribute: &str, value: &str) -> String {
    match (family, attribute) {
        ("azure", _) => value.to_ascii_lowercase().replace(' ', ""),
        ("gcp", _) => gcp_zone_region(value),
        ("aws", "availability_zone") => aws_zone_region(value),
        _ => value.to_string(),
    }
}

/// Follows a configuration's expression references to a value the plan knows.
struct References<'a, 's> {
    config: &'a Config<'a>,
    variables: Option<&'a Val>,
    side: &'s [Slot<'s>],
    prior: &'s [Slot<'s>],
    /// Resources of the state the figures are for (planned values or prior state), then the
    /// prior state's (data sources read during plan), by (module path, resource address):
    /// built when a reference first leads to a resource.
    values: std::sync::OnceLock<super::FastMap<(String, String), Vec<&'s Slot<'s>>>>,
    /// The `values` of the resources references led to, built once.
    built: std::cell::RefCell<HashMap<*const Slot<'s>, Val>>,
}

fn arr(v: Option<&Val>) -> &[Val] {
    match v {
        Some(Val::Arr(a)) => a,
        _ => &[],
    }
}

impl<'a, 's> References<'a, 's> {
    fn new(
        config: &'a Config<'a>,
        variables: &'a Val,
        side: &'s [Slot<'s>],
        prior: &'s [Slot<'s>],
    ) -> References<'a, 's> {
        References {
            config,
            variables: (!matches!(variables, Val::Null)).then_some(variables),
            side,
            prior,
            values: std::sync::OnceLock::new(),
            built: Default::default(),
        }
    }

    /// The module whose call creates module `path`, and that call's name.
    fn parent(path: &str) -> Option<String> {
        match path.rsplit_once(".module.") {
            Some((p, _)) => Some(p.to_string()),
            None => path.strip_prefix("module.").map(|_| String::new()),
        }
    }

    /// The value of expression `e` in the module at `module`, and the reference it came from.
    fn eval(&self, e: &Val, module: &str, depth: usize) -> Option<(String, String)> {
        if depth > 12 {
            return None;
        }
        if let Some(s) = jq::get(e, "constant_value").and_then(jq::str_of) {
            return Some((s, "a constant".into()));
        }
        for r in arr(jq::get(e, "references")).iter().filter_map(jq::str_ref) {
            if let Some(found) = self.reference(r, module, depth) {
                return Some(found);
            }
        }
        None
    }

    fn reference(&self, r: &str, module: &str, depth: usize) -> Option<(String, String)> {
        let segs: Vec<&str> = split_address(r).into_iter().map(strip_index).collect();
        match segs.as_slice() {
            ["var", name, ..] => {
                if self.config.variable_sensitive(module, name) {
                    return Some((SENSITIVE.to_string(), format!("var.{name}")));
                }
                if module.is_empty() {
                    let v = jq::get(jq::get(self.variables?, name)?, "value")?;
                    return jq::str_of(v).map(|s| (s, format!("var.{name}")));
                }
                if !self.config.has_module(module) {
                    return None;
                }
                let parent = Self::parent(module)?;
                if let Some(e) = self.config.call_expression(module, name)
                    && let Some(found) = self.eval(&e, &parent, depth + 1)
                {
                    return Some(found);
                }
                self.config
                    .variable_default(module, name)
                    .as_ref()
                    .and_then(jq::str_of)
                    .map(|s| (s, format!("{module}: var.{name}'s default")))
            }
            ["module", name, output, ..] => {
                let path = if module.is_empty() {
                    format!("module.{name}")
                } else {
                    format!("{module}.module.{name}")
                };
                let e = self.config.output_expression(&path, output)?;
                self.eval(&e, &path, depth + 1)
            }
            [
                "local" | "each" | "count" | "path" | "terraform" | "self",
                ..,
            ] => None,
            ["data", t, n, attr, ..] => self.attribute(module, &format!("data.{t}.{n}"), attr),
            [t, n, attr, ..] => self.attribute(module, &format!("{t}.{n}"), attr),
            _ => None,
        }
    }

    /// A known string attribute of a resource of the module (the first instance that has it).
    fn attribute(&self, module: &str, address: &str, attr: &str) -> Option<(String, String)> {
        let key = (module.to_string(), address.to_string());
        let values = self.values.get_or_init(|| {
            let mut values: super::FastMap<(String, String), Vec<&'s Slot<'s>>> =
                super::FastMap::default();
            for r in self.side.iter().chain(self.prior) {
                if !r.address.is_empty() {
                    values
                        .entry(config_address(&r.address))
                        .or_default()
                        .push(r);
                }
            }
            values
        });
        let value = values.get(&key)?.iter().find_map(|r| {
            let mut built = self.built.borrow_mut();
            let v = built
                .entry(*r as *const Slot<'s>)
                .or_insert_with(|| r.value());
            let found = jq::get(v, "values")
                .and_then(|v| jq::get(v, attr))
                .and_then(jq::str_of)?;
            // an attribute the resource's mask marks is never shown
            let marked = super::taint::Marked::of(r);
            Some(if marked.taints(Some(&[attr.to_string()])) {
                SENSITIVE.to_string()
            } else {
                found
            })
        })?;
        let full = if module.is_empty() {
            format!("{address}.{attr}")
        } else {
            format!("{module}.{address}.{attr}")
        };
        Some((value, full))
    }

    /// The region of resource `address` from its configuration's placing expressions.
    fn region_of(&self, address: &str, family: &str) -> Option<(String, String)> {
        let (module, rel) = config_address(address);
        let ex = self.config.resource_expressions(&module, &rel)?;
        for attr in placing_attributes(family) {
            if let Some(e) = jq::get(&ex, attr)
                && let Some((value, from)) = self.eval(e, &module, 0)
                && !value.is_empty()
            {
                if value == SENSITIVE {
                    return Some((value, from));
                }
                return Some((as_region(family, attr, &value), from));
            }
        }
        None
    }
}

/// Gives a region to every resource of `resources` (one state: `side` is the planned values' or
/// the prior state's root module) that has none, by following its configuration's `location` /
/// `region` / `zone` expression references — through module variables, module outputs and root
/// variables — to a resource or variable whose value the plan knows (an Azure VM whose location
/// is a module variable set from `azurerm_resource_group.rg.location`). The region found is said
/// in an assumption, and the engine's "region unknown" warning is dropped.
pub fn resolve_from_references<'s>(
    config: &Config<'_>,
    variables: &Val,
    side: &'s [Slot<'s>],
    prior: &'s [Slot<'s>],
    resources: &mut [super::MappedResource],
) {
    if resources.iter().all(|m| m.region.is_some()) {
        return;
    }
    let refs = References::new(config, variables, side, prior);
    for m in resources.iter_mut().filter(|m| m.region.is_none()) {
        if let Some((region, from)) = refs.region_of(&m.address, &m.provider) {
            m.assumed.push(format!(
                "region {region} (from {from} in the configuration)"
            ));
            m.warnings.retain(|w| w != "region unknown");
            m.tainted.region |= region == SENSITIVE;
            m.region = Some(region);
        }
    }
}

/// `europe-west1-b` → `europe-west1`; a region stays itself.
pub fn gcp_zone_region(z: &str) -> String {
    let parts: Vec<&str> = z.split('-').collect();
    if parts.len() >= 3 {
        parts[..2].join("-")
    } else {
        z.to_string()
    }
}

/// `eu-west-1a` → `eu-west-1`; `us-east-1-bos-1a` (local zone) → `us-east-1`.
pub fn aws_zone_region(z: &str) -> String {
    let parts: Vec<&str> = z.split('-').collect();
    for (i, p) in parts.iter().enumerate().skip(1) {
        let digits: String = p.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !digits.is_empty() {
            let mut out = parts[..i].join("-");
            out.push('-');
            out.push_str(&digits);
            return out;
        }
    }
    z.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An address without brackets or quotes is split as the segments split it.
    #[test]
    fn a_plain_address_splits_as_its_segments_do() {
        for addr in [
            "",
            "aws_instance.web",
            "module",
            "module.",
            "module.a",
            "module.a.",
            "module.a.module",
            "module.a.module.b",
            "module.a.module.b.aws_instance.web",
            "module.a.data.aws_ami.x",
            "modulex.a.aws_instance.web",
            "module..aws_instance.web",
            "module.module.module.x",
            "aws_instance.module.x",
            "data.aws_ami.module",
        ] {
            assert_eq!(config_address(addr), config_address_split(addr), "{addr:?}");
        }
    }

    proptest::proptest! {
        /// Addresses of `module.NAME` prefixes, dots and names: split as their segments split.
        #[test]
        fn any_plain_address_splits_as_its_segments_do(
            addr in "((module|mod|x)?\\.?){0,6}[a-z_.]{0,8}"
        ) {
            proptest::prop_assert_eq!(config_address(&addr), config_address_split(&addr));
        }
    }
    use serde_json::json;

    #[test]
    fn addresses() {
        assert_eq!(
            config_address(r#"module.a["x.y"].module.b[0].aws_instance.web["k"]"#),
            ("module.a.module.b".into(), "aws_instance.web".into())
        );
        assert_eq!(
            config_address("aws_instance.web[3]"),
            (String::new(), "aws_instance.web".into())
        );
        assert_eq!(aws_zone_region("eu-west-1a"), "eu-west-1");
        assert_eq!(gcp_zone_region("us-central1-a"), "us-central1");
    }

    fn unplaced(address: &str, provider: &str) -> crate::mapping::MappedResource {
        crate::mapping::MappedResource {
            address: address.into(),
            body: std::sync::Arc::new(crate::mapping::Body {
                provider: provider.into(),
                warnings: vec!["region unknown".into()],
                ..Default::default()
            }),
        }
    }

    #[test]
    fn references_lead_through_modules_to_a_known_value() {
        let doc = json!({
            "variables": {"zone": {"value": "europe-west4-b"}},
            "planned_values": {"root_module": {
                "resources": [
                    {"address": "azurerm_resource_group.rg", "values": {"location": "North Europe"}}
                ],
                "child_modules": [{"address": "module.app", "child_modules": [
                    {"address": "module.app.module.net", "resources": [
                        {"address": "module.app.module.net.azurerm_resource_group.inner",
                         "values": {"location": "uksouth"}}
                    ]}
                ]}]
            }},
            "configuration": {"root_module": {
                "resources": [
                    {"address": "google_compute_instance.g",
                     "expressions": {"zone": {"references": ["var.zone"]}}},
                    {"address": "azurerm_linux_virtual_machine.local",
                     "expressions": {"location": {"references": ["local.where"]}}}
                ],
                "module_calls": {
                    "app": {
                        "expressions": {"location": {"references": [
                            "azurerm_resource_group.rg.location", "azurerm_resource_group.rg"]}},
                        "module": {
                            "variables": {"location": {}},
                            "resources": [{"address": "azurerm_linux_virtual_machine.vm",
                                           "expressions": {"location": {"references": ["var.location"]}}}],
                            "module_calls": {
                                "deep": {
                                    "expressions": {"where": {"references": ["module.net.where"]}},
                                    "module": {"resources": [{"address": "azurerm_managed_disk.d",
                                        "expressions": {"location": {"references": ["var.where"]}}}]}
                                },
                                "net": {"module": {
                                    "outputs": {"where": {"expression": {"references": [
                                        "azurerm_resource_group.inner.location"]}}},
                                    "resources": [{"address": "azurerm_resource_group.inner"}]
                                }}
                            }
                        }
                    }
                }
            }}
        });
        let text = doc.to_string();
        let sections = crate::mapping::source::Sections::from_text(&text);
        let wanted = crate::mapping::source::Wanted::default();
        let side: Vec<Slot<'_>> = sections
            .after()
            .unwrap_or_default()
            .into_iter()
            .map(|r| Slot::new(r, &wanted).0)
            .collect();
        let conf = Config::new(sections.configuration);
        let vars = jq::to_val(&doc["variables"]);
        let mut rs = vec![
            unplaced(
                r#"module.app["a"].azurerm_linux_virtual_machine.vm[0]"#,
                "azure",
            ),
            unplaced("google_compute_instance.g", "gcp"),
            unplaced("azurerm_linux_virtual_machine.local", "azure"),
        ];
        resolve_from_references(&conf, &vars, &side, &[], &mut rs);
        assert_eq!(rs[0].region.as_deref(), Some("northeurope"));
        assert_eq!(
            rs[0].assumed,
            ["region northeurope (from azurerm_resource_group.rg.location in the configuration)"]
        );
        assert!(rs[0].warnings.is_empty());
        // a root variable holding a zone: its region
        assert_eq!(rs[1].region.as_deref(), Some("europe-west4"));
        // a local value is not in the plan: still unknown, warning kept
        assert_eq!(rs[2].region, None);
        assert_eq!(rs[2].warnings, ["region unknown"]);
        // module variable ← sibling module's output ← a resource inside it
        let mut deep = vec![unplaced(
            "module.app.module.deep.azurerm_managed_disk.d",
            "azure",
        )];
        resolve_from_references(&conf, &vars, &side, &[], &mut deep);
        assert_eq!(deep[0].region.as_deref(), Some("uksouth"));
    }

    #[test]
    fn aliases_module_passing_and_variables() {
        let doc = json!({
            "variables": {"region": {"value": "eu-central-1"}},
            "configuration": {
                "provider_config": {
                    "aws": {"name": "aws", "expressions": {"region": {"references": ["var.region"]}}},
                    "aws.west": {"name": "aws", "alias": "west", "expressions": {"region": {"constant_value": "us-west-2"}}},
                    "module.m:aws": {"name": "aws", "module_address": "module.m", "expressions": {"region": {"references": ["var.r"]}}},
                    "google": {"name": "google", "expressions": {"zone": {"constant_value": "europe-west1-b"}}}
                },
                "root_module": {
                    "resources": [
                        {"address": "aws_instance.a", "provider_config_key": "aws"},
                        {"address": "aws_instance.b", "provider_config_key": "aws.west"},
                        {"address": "google_compute_instance.g", "provider_config_key": "google"}
                    ],
                    "module_calls": {
                        "m": {"expressions": {"r": {"constant_value": "ap-south-1"}}, "module": {
                            "resources": [{"address": "aws_instance.c", "provider_config_key": "module.m:aws"}]}},
                        "p": {"module": {
                            "resources": [{"address": "aws_instance.d", "provider_config_key": "aws.west"}]}},
                        "old": {"module": {
                            "resources": [{"address": "aws_instance.e", "provider_config_key": "old:aws"}]}}
                    }
                }
            }
        });
        let text = doc.to_string();
        let sections = crate::mapping::source::Sections::from_text(&text);
        let config = Config::new(sections.configuration);
        let r = Regions::new(&config, sections.variables);
        let reg = |a: &str, f: &str| r.region_for(a, f, "registry.terraform.io/hashicorp/aws");
        assert_eq!(
            reg("aws_instance.a[0]", "aws").as_deref(),
            Some("eu-central-1")
        );
        assert_eq!(reg("aws_instance.b", "aws").as_deref(), Some("us-west-2"));
        assert_eq!(
            reg("module.m.aws_instance.c", "aws").as_deref(),
            Some("ap-south-1")
        );
        assert_eq!(
            reg(r#"module.p["x"].aws_instance.d"#, "aws").as_deref(),
            Some("us-west-2")
        );
        assert_eq!(
            reg("module.old.aws_instance.e", "aws").as_deref(),
            Some("eu-central-1")
        );
        assert_eq!(
            reg("google_compute_instance.g", "gcp").as_deref(),
            Some("europe-west1")
        );
    }
}
