#!/usr/bin/env python3
"""Writes the hostile plans of issue 24 item 7 (the same shapes tests/linear.rs generates).

    python3 scripts/hostile/plans.py secrets  > /tmp/secrets.json   # 20,000 overlapping secrets
    python3 scripts/hostile/plans.py replace  > /tmp/replace.json   # 40,000 replace_paths
    time carbon-show --format json /tmp/secrets.json > /dev/null
"""
import json
import sys


def secrets_plan(resources=2000, per=10, run=40):
    """`resources` instances, each with `per` sensitive tags whose values share every 8-byte
    window the old redactor indexed them by (`a` x 24, a number, `a` x 8), and an unknown
    instance type of `run` a's: every reason quoting it holds the shared windows."""
    changes, planned = [], []
    for r in range(resources):
        tags = {f"t{i}": "a" * 24 + f"{r * per + i:06d}" + "a" * 8 for i in range(per)}
        values = {"instance_type": "x" + "a" * run, "ami": "ami-1", "tags": tags}
        addr = f"aws_instance.w{r}"
        base = {"address": addr, "mode": "managed", "type": "aws_instance", "name": f"w{r}",
                "provider_name": "registry.terraform.io/hashicorp/aws"}
        planned.append({**base, "values": values, "sensitive_values": {"tags": {}}})
        changes.append({**base, "change": {
            "actions": ["create"], "before": None, "after": values, "after_unknown": {},
            "before_sensitive": False, "after_sensitive": {"tags": True}}})
    return plan(planned, changes)


def replace_plan(attributes=40000):
    """One resource replaced because of each of `attributes` attributes."""
    before = {f"attr_{i:05d}": f"old-value-{i:05d}" for i in range(attributes)}
    after = {f"attr_{i:05d}": f"new-value-{i:05d}" for i in range(attributes)}
    base = {"address": "aws_s3_bucket.b", "mode": "managed", "type": "aws_s3_bucket",
            "name": "b", "provider_name": "registry.terraform.io/hashicorp/aws"}
    change = {"actions": ["delete", "create"], "before": before, "after": after,
              "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {},
              "replace_paths": [[k] for k in after]}
    return plan([{**base, "values": after}], [{**base, "change": change,
                                                "action_reason": "replace_because_cannot_update"}])


def plan(planned, changes):
    return {"format_version": "1.2", "terraform_version": "1.9.0",
            "planned_values": {"root_module": {"resources": planned}},
            "resource_changes": changes,
            "configuration": {"provider_config": {"aws": {"name": "aws", "expressions": {
                "region": {"constant_value": "us-east-1"}}}}}}


if __name__ == "__main__":
    kind = sys.argv[1] if len(sys.argv) > 1 else "secrets"
    doc = secrets_plan() if kind == "secrets" else replace_plan()
    json.dump(doc, sys.stdout, separators=(",", ":"))
