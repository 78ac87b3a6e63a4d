#!/usr/bin/env python3
"""Generates testdata/render/<case>/{plan.json,schemas.json,args,expected.txt}.

Each case mirrors one OpenTofu v1.12.6 jsonformat test: the cty before/after
values, schema, marks and replace paths are transcribed into the Python specs in
cases*.py, and the expected resource body is taken VERBATIM from the test's
ExpectedOutput (extracted from plan_test.go by extract.py into upstream.json) or
written inline for the full-output tests.  This script only converts values to
the `tofu show -json` encoding (the jsonplan rules: unknowns omitted from
objects / nulled in sequences, after_unknown/…_sensitive bool trees) and adds the
framing of plan.go renderHuman (documented in ../README.md).
"""
import json, os, sys, shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PROVIDER = "registry.opentofu.org/hashicorp/test"
UPSTREAM = json.load(open(os.path.join(HERE, "upstream.json")))

# ---------------------------------------------------------------- value model
class _Unknown:
    def __init__(self, kind): self.kind = kind  # 'p' primitive, 'l' list/set, 'm' map/object
    def __repr__(self): return "U"
U = _Unknown("p"); UL = _Unknown("l"); UM = _Unknown("m")

class S:
    """A value carrying the cty 'sensitive' mark."""
    def __init__(self, v): self.v = v

def strip(v):
    return strip(v.v) if isinstance(v, S) else v

def is_unknown(v): return isinstance(strip(v), _Unknown)

# --------------------------------------------------------------- schema model
def A(ty, optional=False, computed=False, required=False, sensitive=False):
    a = {"type": ty, "description_kind": "plain"}
    if required: a["required"] = True
    if optional: a["optional"] = True
    if computed: a["computed"] = True
    if sensitive: a["sensitive"] = True
    return a

def NA(nesting, attrs, optional=True, computed=False, sensitive=False):
    a = {"nested_type": {"attributes": attrs, "nesting_mode": nesting}, "description_kind": "plain"}
    if optional: a["optional"] = True
    if computed: a["computed"] = True
    if sensitive: a["sensitive"] = True
    return a

def BLK(attrs=None, blocks=None):
    b = {}
    if attrs: b["attributes"] = attrs
    if blocks: b["block_types"] = blocks
    b["description_kind"] = "plain"
    return b

def NB(nesting, block):
    return {"nesting_mode": nesting, "block": block}

# ------------------------------------------------------- filling cty objects
def fill_block(v, block):
    """Give an object value every attribute its schema implies (cty objects
    always carry all attributes; absent ones are null / empty collections)."""
    if v is None or isinstance(v, (_Unknown, S)):
        return v
    out = dict(v)
    for name, a in block.get("attributes", {}).items():
        if name not in out:
            out[name] = None
        elif "nested_type" in a:
            out[name] = fill_nested(out[name], a["nested_type"])
    for name, b in block.get("block_types", {}).items():
        mode = b["nesting_mode"]
        if name not in out:
            out[name] = [] if mode in ("list", "set") else ({} if mode == "map" else None)
        else:
            out[name] = fill_coll(out[name], mode, lambda e: fill_block(e, b["block"]))
    return out

def fill_nested(v, nt):
    def obj(e):
        if e is None or isinstance(e, (_Unknown, S)):
            return e
        o = dict(e)
        for n, a in nt["attributes"].items():
            if n not in o: o[n] = None
            elif "nested_type" in a: o[n] = fill_nested(o[n], a["nested_type"])
        return o
    return fill_coll(v, nt["nesting_mode"], obj)

def fill_coll(v, mode, f):
    if v is None or isinstance(v, _Unknown):
        return v
    if isinstance(v, S):
        return S(fill_coll(v.v, mode, f))
    if mode in ("single", "group"):
        return f(v)
    if mode in ("list", "set"):
        return [f(e) for e in v]
    if mode == "map":
        return {k: f(e) for k, e in v.items()}
    raise ValueError(mode)

# ------------------------------------------------------------ JSON encodings
def to_json(v):
    """ctyjson.Marshal of omitUnknowns(v), marks dropped."""
    v = strip(v)
    if isinstance(v, _Unknown):
        raise ValueError("unknown must be handled by caller")
    if isinstance(v, list):
        return [None if is_unknown(e) else to_json(e) for e in v]
    if isinstance(v, dict):
        return {k: to_json(e) for k, e in v.items() if not is_unknown(e)}
    return v

def unknown_as_bool(v):
    v = strip(v)
    if v is None: return False
    if isinstance(v, _Unknown): return True
    if isinstance(v, list): return [unknown_as_bool(e) for e in v]
    if isinstance(v, dict):
        return {k: b for k, e in v.items() for b in [unknown_as_bool(e)] if b is not False}
    return False

def wholly_known(v):
    v = strip(v)
    if isinstance(v, _Unknown): return False
    if isinstance(v, list): return all(wholly_known(e) for e in v)
    if isinstance(v, dict): return all(wholly_known(e) for e in v.values())
    return True

def sens_value(v, forced=False):
    """jsonstate.SensitiveAsBool with schema marks folded into `forced`."""
    if forced or isinstance(v, S): return True
    if v is None: return False
    if isinstance(v, _Unknown):
        return {"p": False, "l": [], "m": {}}[v.kind]
    if isinstance(v, list): return [sens_value(e) for e in v]
    if isinstance(v, dict):
        return {k: b for k, e in v.items() for b in [sens_value(e)] if b is not False}
    return False

def sens_block(v, block):
    if isinstance(v, S): return True
    if v is None: return False
    if isinstance(v, _Unknown): return {}
    out = {}
    attrs = block.get("attributes", {}); blocks = block.get("block_types", {})
    for k, e in v.items():
        if k in attrs:
            a = attrs[k]
            if a.get("sensitive") or isinstance(e, S): b = True
            elif "nested_type" in a: b = sens_nested(e, a["nested_type"])
            else: b = sens_value(e)
        elif k in blocks:
            bt = blocks[k]
            b = sens_coll(e, bt["nesting_mode"], lambda x: sens_block(x, bt["block"]))
        else:
            b = sens_value(e)
        if b is not False: out[k] = b
    return out

def sens_nested(v, nt):
    def obj(e):
        if isinstance(e, S): return True
        if e is None: return False
        if isinstance(e, _Unknown): return {}
        out = {}
        for k, x in e.items():
            a = nt["attributes"].get(k, {})
            if a.get("sensitive") or isinstance(x, S): b = True
            elif "nested_type" in a: b = sens_nested(x, a["nested_type"])
            else: b = sens_value(x)
            if b is not False: out[k] = b
        return out
    if isinstance(v, S): return True
    if v is None: return False
    if isinstance(v, _Unknown): return {"list": [], "set": []}.get(nt["nesting_mode"], {})
    mode = nt["nesting_mode"]
    if mode == "single": return obj(v)
    if mode in ("list", "set"): return [obj(e) for e in v]
    return {k: b for k, e in v.items() for b in [obj(e)] if b is not False}

def sens_coll(v, mode, f):
    if isinstance(v, S): return True
    if v is None: return False
    if isinstance(v, _Unknown): return [] if mode in ("list", "set") else {}
    if mode in ("single", "group"): return f(v)
    if mode in ("list", "set"): return [f(e) for e in v]
    return {k: b for k, e in v.items() for b in [f(e)] if b is not False}

# ------------------------------------------------------------- plan building
ACTIONS = {
    "create": ["create"], "delete": ["delete"], "update": ["update"], "noop": ["no-op"],
    "read": ["read"], "forget": ["forget"], "delete-create": ["delete", "create"],
    "create-delete": ["create", "delete"], "forget-create": ["forget", "create"],
}

def parse_addr(addr):
    """Returns (module_address, mode, type, name, index) for a resource instance address."""
    parts = []
    s = addr; mod = []
    while s.startswith("module."):
        rest = s[len("module."):]
        # module name then optional [key] then '.'
        i = 0
        while rest[i] not in ".[": i += 1
        j = i
        if rest[j] == "[":
            j = rest.index("]", j) + 1
        mod.append("module." + rest[:j]); s = rest[j + 1:]
    mode = "managed"
    if s.startswith("data."):
        mode = "data"; s = s[5:]
    typ, rest = s.split(".", 1)
    index = None
    if "[" in rest:
        name, idx = rest.split("[", 1); idx = idx[:-1]
        index = json.loads(idx)
    else:
        name = rest
    return (".".join(mod) or None), mode, typ, name, index

def resource_change(rc, schema_block):
    modaddr, mode, typ, name, index = parse_addr(rc["address"])
    before = fill_block(rc.get("before"), schema_block)
    after = fill_block(rc.get("after"), schema_block)
    ch = {"actions": ACTIONS[rc["action"]]}
    ch["before"] = None if before is None else to_json(before)
    if after is None:
        ch["after"] = None; au = {}
    elif wholly_known(after):
        ch["after"] = to_json(after); au = {}
    else:
        ch["after"] = None if isinstance(strip(after), _Unknown) else to_json(after)
        au = unknown_as_bool(after)
    ch["after_unknown"] = au
    ch["before_sensitive"] = False if before is None else sens_block(before, schema_block)
    ch["after_sensitive"] = False if after is None else sens_block(after, schema_block)
    if rc.get("replace_paths"):
        ch["replace_paths"] = rc["replace_paths"]
    if "importing" in rc:
        ch["importing"] = rc["importing"]
    if rc.get("generated_config"):
        ch["generated_config"] = rc["generated_config"]
    out = {"address": rc["address"]}
    if rc.get("previous_address"):
        out["previous_address"] = rc["previous_address"]
    if modaddr: out["module_address"] = modaddr
    out.update({"mode": mode, "type": typ, "name": name})
    if index is not None: out["index"] = index
    out["provider_name"] = PROVIDER
    if rc.get("deposed"): out["deposed"] = rc["deposed"]
    out["change"] = ch
    if rc.get("reason"): out["action_reason"] = rc["reason"]
    return out, after

def output_change(oc):
    before, after, sens = oc.get("before"), oc.get("after"), oc.get("sensitive", False)
    ch = {"actions": ACTIONS[oc["action"]]}
    ch["before"] = to_json(before) if before is not None else None
    if after is None or isinstance(after, _Unknown):
        ch["after"] = None
    else:
        ch["after"] = to_json(after)
    ch["after_unknown"] = unknown_as_bool(after) if not (after is not None and wholly_known(after)) else False
    if after is None: ch["after_unknown"] = False
    ch["before_sensitive"] = sens
    ch["after_sensitive"] = sens
    return ch

def schemas_doc(types, data_types):
    return {"format_version": "1.0", "provider_schemas": {PROVIDER: {
        "provider": {"version": 0, "block": {"description_kind": "plain"}},
        "resource_schemas": {t: {"version": 0, "block": b} for t, b in sorted(types.items())},
        "data_source_schemas": {t: {"version": 0, "block": b} for t, b in sorted(data_types.items())},
    }}}

# ----------------------------------------------------------------- framing
LEGEND = [  # plan.go renderHuman: fixed order of actionDescription lines
    ("create", "  + create"), ("update", "  ~ update in-place (current -> planned)"),
    ("delete", "  - destroy"), ("delete-create", "-/+ destroy and then create replacement"),
    ("create-delete", "+/- create replacement and then destroy"),
    ("read", " <= read (data resources)"),
    ("forget-create", "./+ forget and then create replacement"), ("forget", "  . forget"),
]

def frame(case, rcs_json):
    """Everything plan.go renderHuman prints around the resource bodies."""
    out = []
    changes = []
    counts = {}
    importing = forgetting = 0
    for rc, j in zip(case["resources"], rcs_json):
        act = rc["action"]
        moved = bool(rc.get("previous_address")) and rc["previous_address"] != rc["address"]
        imp = "importing" in rc
        if act == "noop" and not moved and not imp: continue
        if act == "delete" and j["mode"] != "managed": continue
        changes.append(rc)
        if imp: importing += 1
        if act in ("forget", "forget-create"): forgetting += 1
        if act != "noop": counts[act] = counts.get(act, 0) + 1
    outputs = [o for o in case.get("outputs", []) if o.get("render")]
    drift = case.get("drift_text")
    if drift:
        out.append("\nNote: Objects have changed outside of OpenTofu\n\n")
        out.append("OpenTofu detected the following changes made outside of OpenTofu since the\nlast \"tofu apply\" which may have affected this plan:\n")
        for body in drift:
            out.append("\n" + body + "\n")
        out.append("\n\nUnless you have made equivalent changes to your configuration, or ignored the\nrelevant attributes using ignore_changes, the following plan may include\nactions to undo or respond to these changes.\n")
    if not changes and not outputs:
        if drift:
            out.append("\n" + "─" * 77 + "\n")
        out.append("\nNo changes. Your infrastructure matches the configuration.\n\n")
        out.append("OpenTofu has compared your real infrastructure against your configuration and\nfound no differences, so no changes are needed.\n")
    if drift:
        out.append("\n" + "─" * 77 + "\n")
    if counts:
        out.append("\nOpenTofu used the selected providers to generate the following execution\nplan. Resource actions are indicated with the following symbols:\n")
        for act, line in LEGEND:
            if counts.get(act): out.append(line + "\n")
    if changes:
        out.append("\nOpenTofu will perform the following actions:\n")
        for rc in changes:
            out.append("\n" + rc["expected"] + "\n")
        add = sum(counts.get(a, 0) for a in ("create", "delete-create", "create-delete", "forget-create"))
        dest = sum(counts.get(a, 0) for a in ("delete", "delete-create", "create-delete"))
        chg = counts.get("update", 0)
        if importing and forgetting:
            out.append(f"\nPlan: {importing} to import, {add} to add, {chg} to change, {dest} to destroy, {forgetting} to forget.\n")
        elif importing:
            out.append(f"\nPlan: {importing} to import, {add} to add, {chg} to change, {dest} to destroy.\n")
        elif forgetting:
            out.append(f"\nPlan: {add} to add, {chg} to change, {dest} to destroy, {forgetting} to forget.\n")
        else:
            out.append(f"\nPlan: {add} to add, {chg} to change, {dest} to destroy.\n")
    if outputs:
        out.append("\nChanges to Outputs:\n")
        out.append("\n".join(o["render"] for o in outputs) + "\n")
        if not counts:
            out.append("\nYou can apply this plan to save these new output values to the OpenTofu\nstate, without changing any real infrastructure.\n")
    return "".join(out)

def up(key):
    return UPSTREAM[key]

DEFAULT_PROVIDER = PROVIDER

def build(case):
    global PROVIDER
    PROVIDER = case.get("provider", DEFAULT_PROVIDER)
    d = os.path.join(ROOT, case["name"])
    os.makedirs(d, exist_ok=True)
    if case.get("state"):
        return build_state(case, d)
    types, dtypes = {}, {}
    rcs, planned = [], []
    for rc in sorted(case["resources"], key=lambda r: 0) if False else case["resources"]:
        blk = rc["schema"]
        _, mode, typ, _, _ = parse_addr(rc["address"])
        (dtypes if mode == "data" else types)[typ] = blk
        j, after = resource_change(rc, blk)
        rcs.append(j)
        if rc["action"] not in ("delete", "forget"):
            p = {k: j[k] for k in ("address", "mode", "type", "name") if k in j}
            if "index" in j: p["index"] = j["index"]
            p.update({"provider_name": PROVIDER, "schema_version": 0,
                      "values": j["change"]["after"] if j["change"]["after"] is not None else {},
                      "sensitive_values": j["change"]["after_sensitive"] or {}})
            planned.append(p)
    drift_json = []
    for dr in case.get("drift", []):
        blk = dr["schema"]
        _, mode, typ, _, _ = parse_addr(dr["address"])
        (dtypes if mode == "data" else types)[typ] = blk
        j, _ = resource_change(dr, blk)
        drift_json.append(j)
    plan = {"format_version": "1.2", "terraform_version": case.get("terraform_version", "1.12.6")}
    plan["planned_values"] = {"root_module": {"resources": planned}} if planned else {"root_module": {}}
    if drift_json: plan["resource_drift"] = drift_json
    if rcs: plan["resource_changes"] = rcs
    if case.get("outputs"):
        plan["output_changes"] = {o["name"]: output_change(o) for o in case["outputs"]}
    if case.get("relevant_attributes"):
        plan["relevant_attributes"] = case["relevant_attributes"]
    plan["configuration"] = {"provider_config": {"test": {"name": "test", "full_name": PROVIDER}}, "root_module": {}}
    if case.get("terraform_version"):
        plan["applyable"] = True
        plan["complete"] = True
    plan["timestamp"] = "2026-01-01T00:00:00Z"
    plan["errored"] = bool(case.get("errored"))
    write(d, "plan.json", json.dumps(plan, indent=2, ensure_ascii=False) + "\n")
    if types or dtypes:
        write(d, "schemas.json", json.dumps(schemas_doc(types, dtypes), indent=2) + "\n")
    if case.get("args"):
        write(d, "args", "\n".join(case["args"]) + "\n")
    framed = frame(case, rcs)
    if case.get("expected_full") is not None and framed != case["expected_full"] and not case.get("args") and not case.get("errored"):
        print("FRAMING MISMATCH", case["name"]); print(repr(framed)); print(repr(case["expected_full"]))
    write(d, "expected.txt", case.get("expected_full") or framed)

def build_state(case, d):
    types, dtypes = {}, {}
    res = []
    for r in case["state_resources"]:
        blk = r["schema"]
        modaddr, mode, typ, name, index = parse_addr(r["address"])
        (dtypes if mode == "data" else types)[typ] = blk
        v = fill_block(r["values"], blk)
        j = {"address": r["address"], "mode": mode, "type": typ, "name": name}
        if index is not None: j["index"] = index
        j.update({"provider_name": PROVIDER, "schema_version": 0, "values": to_json(v),
                  "sensitive_values": sens_block(v, blk)})
        if r.get("tainted"): j["tainted"] = True
        if r.get("deposed"): j["deposed_key"] = r["deposed"]
        res.append((modaddr, j))
    root = {}
    top = [j for m, j in res if not m]
    if top: root["resources"] = top
    children = {}
    for m, j in res:
        if m: children.setdefault(m, []).append(j)
    if children:
        root["child_modules"] = [{"resources": v, "address": k} for k, v in children.items()]
    values = {}
    if case.get("state_outputs"):
        values["outputs"] = case["state_outputs"]
    values["root_module"] = root
    doc = {"format_version": "1.0", "terraform_version": "1.12.6"}
    if res or case.get("state_outputs"):
        doc["values"] = values
    write(d, "plan.json", json.dumps(doc, indent=2) + "\n")
    write(d, "schemas.json", json.dumps(schemas_doc(types, dtypes), indent=2) + "\n")
    if case.get("args"):
        write(d, "args", "\n".join(case["args"]) + "\n")
    write(d, "expected.txt", case["expected_full"])

def write(d, name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)

if __name__ == "__main__":
    sys.path.insert(0, HERE)
    import gen, cases  # use the module copy that cases.py imported
    names = set()
    for c in cases.CASES:
        assert c["name"] not in names, c["name"]
        names.add(c["name"])
        gen.build(c)
    rows = []
    for c in cases.CASES:
        t = c.get("test") or ""
        if not t:
            where = "(see rule)"
        elif t.startswith("TestState"):
            where = "jsonformat/state_test.go `" + t + "`"
        elif t.startswith(("TestResourceChange", "TestRenderHuman", "TestOutputChanges")):
            where = "jsonformat/plan_test.go `" + t + "`"
        elif t.startswith("TestLocal_"):
            where = "backend/local/backend_plan_test.go `" + t + "`"
        else:
            where = t
        rows.append(f"| `{c['name']}` | {where} | {c.get('rule', '')} |")
    head = open(os.path.join(HERE, "README.head.md")).read()
    write(ROOT, "README.md", head + "\n".join(rows) + "\n" + open(os.path.join(HERE, "README.tail.md")).read())
    print(len(cases.CASES), "cases")
