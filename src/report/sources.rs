//! The data tables a figure comes from, as a set of [`Table`]s: two bytes per side, always
//! sorted and free of duplicates, serialised as the JSON array of their ids.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Serialize, Serializer, ser::SerializeSeq};

/// A data table of `data/` that figures are drawn from (`data/<id>.json`, its sources in
/// `data/<id>.source.json`). In the order of their ids, so that a set lists them sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Table {
    ArmEquivalents,
    AwsInstances,
    AwsRedshiftNodes,
    AzureAppServicePlans,
    AzureInstances,
    AzureRedisCacheSizes,
    Coefficients,
    Embodied,
    GcpInstances,
    GcpSqlTiers,
    Geography,
    GridIntensity,
    Hosts,
}

impl Table {
    /// Every table, in the order of their ids.
    pub const ALL: [Table; 13] = [
        Table::ArmEquivalents,
        Table::AwsInstances,
        Table::AwsRedshiftNodes,
        Table::AzureAppServicePlans,
        Table::AzureInstances,
        Table::AzureRedisCacheSizes,
        Table::Coefficients,
        Table::Embodied,
        Table::GcpInstances,
        Table::GcpSqlTiers,
        Table::Geography,
        Table::GridIntensity,
        Table::Hosts,
    ];

    /// The table's id: its file is `data/<id>.json`.
    pub fn id(self) -> &'static str {
        match self {
            Table::ArmEquivalents => "arm_equivalents",
            Table::AwsInstances => "aws_instances",
            Table::AwsRedshiftNodes => "aws_redshift_nodes",
            Table::AzureAppServicePlans => "azure_app_service_plans",
            Table::AzureInstances => "azure_instances",
            Table::AzureRedisCacheSizes => "azure_redis_cache_sizes",
            Table::Coefficients => "coefficients",
            Table::Embodied => "embodied",
            Table::GcpInstances => "gcp_instances",
            Table::GcpSqlTiers => "gcp_sql_tiers",
            Table::Geography => "geography",
            Table::GridIntensity => "grid_intensity",
            Table::Hosts => "hosts",
        }
    }
}

/// A set of [`Table`]s; iterates (and serialises) in the order of their ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Sources(u16);

impl Sources {
    /// No table.
    pub const NONE: Sources = Sources(0);

    /// The set with `t` added.
    #[must_use]
    pub fn with(self, t: Table) -> Sources {
        Sources(self.0 | 1 << t as u16)
    }

    pub fn insert(&mut self, t: Table) {
        *self = self.with(t);
    }

    pub fn contains(&self, id: &str) -> bool {
        self.iter().any(|s| s == id)
    }

    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    /// The ids, sorted.
    pub fn iter(&self) -> impl Iterator<Item = &'static str> + '_ {
        Table::ALL
            .into_iter()
            .filter(|t| self.0 & 1 << *t as u16 != 0)
            .map(Table::id)
    }

    /// The ids, sorted, as owned strings.
    pub fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }
}

impl FromIterator<Table> for Sources {
    fn from_iter<I: IntoIterator<Item = Table>>(iter: I) -> Self {
        iter.into_iter().fold(Sources::NONE, Sources::with)
    }
}

impl Serialize for Sources {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for id in self.iter() {
            seq.serialize_element(id)?;
        }
        seq.end()
    }
}

/// The schema of the array of ids it serialises as: that of `Vec<String>`.
impl JsonSchema for Sources {
    fn inline_schema() -> bool {
        <Vec<String>>::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        <Vec<String>>::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        <Vec<String>>::schema_id()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        <Vec<String>>::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_in_the_order_of_their_ids() {
        let ids: Vec<&str> = Table::ALL.iter().map(|t| t.id()).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(ids, sorted);
        for (i, t) in Table::ALL.into_iter().enumerate() {
            assert_eq!(t as usize, i);
        }
    }

    #[test]
    fn a_set_lists_its_ids_sorted_once() {
        let s: Sources = [Table::Hosts, Table::AwsInstances, Table::Hosts]
            .into_iter()
            .collect();
        assert_eq!(s.to_vec(), ["aws_instances", "hosts"]);
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            r#"["aws_instances","hosts"]"#
        );
        assert!(s.contains("hosts") && !s.contains("embodied"));
        assert_eq!(s.len(), 2);
    }
}
