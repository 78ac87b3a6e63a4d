//! Region resolution from provider configurations: provider_config_key, aliases, module provider passing, variables.

use serde_json::Value;
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
    let segs = split_address(addr);
    let mut module = Vec::new();
    let mut i = 0;
    while i + 1 < segs.len() && segs[i] == "module" {
        module.push(format!("module.{}", strip_index(segs[i + 1])));
        i += 2;
    }
    let rest: Vec<&str> = segs[i..].iter().map(|s| strip_index(s)).collect();
    (module.join("."), rest.join("."))
}

/// Provider configurations of a plan, and which one each configured resource uses.
#[derive(Default)]
pub struct Regions {
    configs: HashMap<String, Value>,
    resource_keys: HashMap<(String, String), String>,
    module_calls: HashMap<String, Value>,
    variables: HashMap<String, Value>,
}

impl Regions {
    pub fn new(doc: &Value) -> Regions {
        let mut r = Regions::default();
        let conf = &doc["configuration"];
        if let Some(pc) = conf["provider_config"].as_object() {
            r.configs = pc.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        }
        if let Some(vars) = doc["variables"].as_object() {
            r.variables = vars
                .iter()
                .map(|(k, v)| (k.clone(), v["value"].clone()))
                .collect();
        }
        r.walk(&conf["root_module"], String::new());
        r
    }

    fn walk(&mut self, module: &Value, path: String) {
        for res in module["resources"].as_array().into_iter().flatten() {
            if let (Some(a), Some(k)) =
                (res["address"].as_str(), res["provider_config_key"].as_str())
            {
                // addresses inside module_calls are module-relative in most versions; be tolerant
                let (_, rel) = config_address(a);
                self.resource_keys
                    .insert((path.clone(), rel), k.to_string());
            }
        }
        for (name, call) in module["module_calls"].as_object().into_iter().flatten() {
            let child = if path.is_empty() {
                format!("module.{name}")
            } else {
                format!("{path}.module.{name}")
            };
            self.module_calls.insert(child.clone(), call.clone());
            self.walk(&call["module"], child);
        }
    }

    /// The provider_config_key of a resource instance address, if the configuration has it.
    pub fn key_of(&self, address: &str) -> Option<&str> {
        let (m, r) = config_address(address);
        self.resource_keys.get(&(m, r)).map(String::as_str)
    }

    /// Value of an expression (`constant_value`, or a reference to `var.x`) in the module at `module`.
    fn expr(&self, e: &Value, module: &str, depth: usize) -> Option<String> {
        if depth > 8 {
            return None;
        }
        if let Some(s) = e["constant_value"].as_str() {
            return Some(s.to_string());
        }
        let refs = e["references"].as_array()?;
        for r in refs.iter().filter_map(Value::as_str) {
            let Some(var) = r.strip_prefix("var.") else {
                continue;
            };
            let var = var.split(['.', '[']).next().unwrap_or(var);
            if module.is_empty() {
                if let Some(s) = self.variables.get(var).and_then(Value::as_str) {
                    return Some(s.to_string());
                }
            } else if let Some(call) = self.module_calls.get(module) {
                let parent = module.rfind(".module.").map_or("", |i| &module[..i]);
                if let Some(v) = self.expr(&call["expressions"][var], parent, depth + 1) {
                    return Some(v);
                }
                // the module variable's own default
                if let Some(s) = call["module"]["variables"][var]["default"].as_str() {
                    return Some(s.to_string());
                }
            }
        }
        None
    }

    fn region_of_config(&self, cfg: &Value, family: &str) -> Option<String> {
        let module = cfg["module_address"].as_str().unwrap_or("");
        let ex = &cfg["expressions"];
        match family {
            "gcp" => self.expr(&ex["region"], module, 0).or_else(|| {
                self.expr(&ex["zone"], module, 0)
                    .map(|z| gcp_zone_region(&z))
            }),
            "azure" => self.expr(&ex["location"], module, 0),
            _ => self.expr(&ex["region"], module, 0),
        }
    }

    /// Region of the provider configuration a resource uses, following aliases and module passing.
    pub fn region_for(&self, address: &str, family: &str, provider_name: &str) -> Option<String> {
        let key = match self.key_of(address) {
            Some(k) => k.to_string(),
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
        self.region_for_key(&key, family, 0)
    }

    fn region_for_key(&self, key: &str, family: &str, depth: usize) -> Option<String> {
        if depth > 16 {
            return None;
        }
        if let Some(cfg) = self.configs.get(key) {
            if let Some(r) = self.region_of_config(cfg, family) {
                return Some(r);
            }
        }
        // `module.a.module.b:aws.alias` or `a:aws` (older): fall back to the parent module's configuration
        if let Some((m, local)) = key.rsplit_once(':') {
            let parent = if let Some(i) = m.rfind(".module.") {
                Some(m[..i].to_string())
            } else if let Some(i) = m.rfind(':') {
                Some(m[..i].to_string())
            } else {
                None
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
        if let Some((name, _alias)) = key.split_once('.') {
            if self.configs.contains_key(name) && !self.configs.contains_key(key) {
                return self.region_for_key(name, family, depth + 1);
            }
        }
        None
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
        let r = Regions::new(&doc);
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
