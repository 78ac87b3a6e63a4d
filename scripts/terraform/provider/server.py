"""A fake Terraform provider (plugin protocol 6) serving the schemas in schemas.py.

Usage: server.py aws|google|azurerm   (launched by Terraform through a filesystem mirror).

It plans and applies like an SDKv2 provider: computed attributes left unset become unknown on
create, Optional+Computed blocks are wholly unknown on create and on replacement (the plan is
marked legacy_type_system, as SDKv2 providers do), force-new attributes plan a replacement,
write-only attributes are always null in plan and state. ReadResource applies the overrides in
`.fake-drift.json` in Terraform's working directory (or the file named by CARBON_SHOW_FAKE_DRIFT),
{"type": {"attribute": value}}, to simulate drift.

The gRPC service is written here on the generated tfplugin6 modules of PyPI `tf` 1.2.0; only
its handshake certificate helper is reused.
"""

import copy
import hashlib
import json
import os
import sys
import tempfile
import traceback
from concurrent import futures

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import grpc  # noqa: E402
from tf.gen import grpc_controller_pb2 as controller_pb  # noqa: E402
from tf.gen import grpc_controller_pb2_grpc as controller_rpc  # noqa: E402
from tf.gen import grpc_stdio_pb2_grpc as stdio_rpc  # noqa: E402
from tf.gen import tfplugin_pb2 as pb  # noqa: E402
from tf.gen import tfplugin_pb2_grpc as rpc  # noqa: E402
from tf.runner import _self_signed_cert  # noqa: E402
from tf.types import Unknown  # noqa: E402
from tf.utils import read_dynamic_value, to_dynamic_value  # noqa: E402

from schemas import PROVIDERS  # noqa: E402

# tfplugin6 `Schema.Attribute.write_only` (field 11) is newer than `tf`'s generated module:
# it is appended as a raw field, which protobuf keeps and serialises.
# Drift overrides read by ReadResource, relative to Terraform's working directory.
DRIFT_FILE = ".fake-drift.json"

WRITE_ONLY_FIELD = bytes([(11 << 3) | 0, 1])

BLOCK_NESTING = {
    "single": pb.Schema.NestedBlock.SINGLE,
    "list": pb.Schema.NestedBlock.LIST,
    "set": pb.Schema.NestedBlock.SET,
    "map": pb.Schema.NestedBlock.MAP,
    "group": pb.Schema.NestedBlock.GROUP,
}
OBJECT_NESTING = {
    "single": pb.Schema.Object.SINGLE,
    "list": pb.Schema.Object.LIST,
    "set": pb.Schema.Object.SET,
    "map": pb.Schema.Object.MAP,
}


# ---- schema -> protobuf -------------------------------------------------------------------


def attr_pb(name, spec):
    kw = dict(
        name=name,
        required=bool(spec.get("required")),
        optional=bool(spec.get("optional")),
        computed=bool(spec.get("computed")),
        sensitive=bool(spec.get("sensitive")),
    )
    if "nested" in spec:
        n = spec["nested"]
        kw["nested_type"] = pb.Schema.Object(
            attributes=[attr_pb(k, v) for k, v in sorted(n["attributes"].items())],
            nesting=OBJECT_NESTING[n["nesting"]],
        )
    else:
        kw["type"] = json.dumps(spec["type"]).encode()
    a = pb.Schema.Attribute(**kw)
    if spec.get("write_only"):
        a.MergeFromString(WRITE_ONLY_FIELD)
    return a


def block_pb(spec):
    return pb.Schema.Block(
        attributes=[attr_pb(k, v) for k, v in sorted(spec["attributes"].items())],
        block_types=[
            pb.Schema.NestedBlock(
                type_name=k,
                block=block_pb(v["block"]),
                nesting=BLOCK_NESTING[v["nesting"]],
                min_items=v.get("min_items", 0),
                max_items=v.get("max_items", 0),
            )
            for k, v in sorted(spec.get("blocks", {}).items())
        ],
    )


def res_block(spec):
    return dict(attributes=spec["attributes"], blocks=spec.get("blocks", {}))


# ---- values ---------------------------------------------------------------------------------


def empty_block_value(bspec):
    n = bspec["nesting"]
    if n in ("list", "set"):
        return []
    if n == "map":
        return {}
    if n == "group":
        return normalize(bspec["block"], {})
    return None


def normalize(block, v):
    """Every attribute and block of `block` present in object `v` (from JSON state)."""
    if v is None or v is Unknown:
        return v
    out = {}
    for k, spec in block["attributes"].items():
        x = v.get(k)
        if "nested" in spec and x is not None and x is not Unknown:
            n = spec["nested"]
            inner = dict(attributes=n["attributes"], blocks={})
            if n["nesting"] == "single":
                x = normalize(inner, x)
            elif n["nesting"] == "map":
                x = {mk: normalize(inner, mv) for mk, mv in x.items()}
            else:
                x = [normalize(inner, e) for e in x]
        out[k] = x
    for k, bspec in block.get("blocks", {}).items():
        x = v.get(k)
        if x is None:
            out[k] = empty_block_value(bspec)
        elif x is Unknown:
            out[k] = x
        elif bspec["nesting"] in ("single", "group"):
            out[k] = normalize(bspec["block"], x)
        elif bspec["nesting"] == "map":
            out[k] = {mk: normalize(bspec["block"], mv) for mk, mv in x.items()}
        else:
            out[k] = [normalize(bspec["block"], e) for e in x]
    return out


def has_unknown(v):
    if v is Unknown:
        return True
    if isinstance(v, dict):
        return any(has_unknown(x) for x in v.values())
    if isinstance(v, list):
        return any(has_unknown(x) for x in v)
    return False


def strip_unknown(v):
    if v is Unknown:
        return None
    if isinstance(v, dict):
        return {k: strip_unknown(x) for k, x in v.items()}
    if isinstance(v, list):
        return [strip_unknown(x) for x in v]
    return v


def derived(spec):
    f = spec.get("fill")
    return isinstance(f, str) and f.startswith("$") and f[1:] in ("tags", "labels")


def plan_object(block, v, create, changed, nested_only=False):
    """Marks computed values unknown in a planned object (create, or replacement from config)."""
    if v is None or v is Unknown:
        return v
    out = dict(v)
    for k, spec in block["attributes"].items():
        if spec.get("write_only"):
            out[k] = None
        elif derived(spec):
            src = out.get(spec["fill"][1:])
            out[k] = copy.deepcopy(src) if src is not None else {}
        elif spec.get("computed") and out.get(k) is None and create:
            out[k] = Unknown
        elif spec.get("computed") and spec.get("update_unknown") and changed:
            out[k] = Unknown
        elif "nested" in spec and out.get(k) not in (None, Unknown):
            n = spec["nested"]
            inner = dict(attributes=n["attributes"], blocks={})
            x = out[k]
            if n["nesting"] == "single":
                out[k] = plan_object(inner, x, True, changed)
            elif n["nesting"] == "map":
                out[k] = {mk: plan_object(inner, mv, True, changed) for mk, mv in x.items()}
            else:
                out[k] = [plan_object(inner, e, True, changed) for e in x]
    for k, bspec in block.get("blocks", {}).items():
        x = out.get(k)
        if bspec.get("computed_block") and create and x in ([], None):
            out[k] = Unknown
        elif x is None or x is Unknown:
            continue
        elif bspec["nesting"] in ("single", "group"):
            out[k] = plan_object(bspec["block"], x, create, changed)
        elif bspec["nesting"] == "map":
            out[k] = {mk: plan_object(bspec["block"], mv, create, changed) for mk, mv in x.items()}
        else:
            out[k] = [plan_object(bspec["block"], e, create, changed) for e in x]
    return out


def replace_paths(block, prior, proposed, path=()):
    """Attribute paths of force-new values that differ between prior state and proposal."""
    paths = []
    for k, spec in block["attributes"].items():
        if spec.get("force_new") and not spec.get("write_only"):
            p, n = prior.get(k), proposed.get(k)
            if n is not Unknown and n is None and spec.get("computed"):
                continue
            if p != n or n is Unknown:
                paths.append(path + (k,))
    for k, bspec in block.get("blocks", {}).items():
        p, n = prior.get(k), proposed.get(k)
        if bspec.get("force_new"):
            if strip_unknown(p) != strip_unknown(n) or has_unknown(n):
                if not (bspec.get("computed_block") and n in ([], None)):
                    paths.append(path + (k,))
            continue
        if bspec["nesting"] in ("list",) and isinstance(p, list) and isinstance(n, list):
            for i, (pe, ne) in enumerate(zip(p, n)):
                if isinstance(pe, dict) and isinstance(ne, dict):
                    paths += replace_paths(bspec["block"], pe, ne, path + (k, i))
        elif bspec["nesting"] in ("single", "group") and isinstance(p, dict) and isinstance(n, dict):
            paths += replace_paths(bspec["block"], p, n, path + (k,))
    return paths


def path_pb(path):
    steps = []
    for s in path:
        if isinstance(s, int):
            steps.append(pb.AttributePath.Step(element_key_int=s))
        else:
            steps.append(pb.AttributePath.Step(attribute_name=s))
    return pb.AttributePath(steps=steps)


def keep_prior_computed_blocks(block, prior, planned):
    for k, bspec in block.get("blocks", {}).items():
        if bspec.get("computed_block") and planned.get(k) in ([], None) and prior.get(k):
            planned[k] = copy.deepcopy(prior[k])
    return planned


class Ctx:
    def __init__(self, provider_cfg, obj, type_name):
        seed = json.dumps([type_name, strip_unknown(obj)], sort_keys=True, default=str)
        h = hashlib.sha256(seed.encode()).hexdigest()
        self.vars = {
            "id": h[:17],
            "n": str(int(h[:4], 16) % 250 + 2),
            "region": obj.get("region") if isinstance(obj.get("region"), str) else provider_cfg.get("region") or "",
            "project": provider_cfg.get("project") or "",
            "zone": obj.get("zone") if isinstance(obj.get("zone"), str) else provider_cfg.get("zone") or "",
            "name": obj.get("name") if isinstance(obj.get("name"), str) else "x",
            "rg": obj.get("resource_group_name") if isinstance(obj.get("resource_group_name"), str) else "rg",
        }
        if isinstance(obj.get("project"), str):
            self.vars["project"] = obj["project"]

    def fill(self, f):
        if isinstance(f, str):
            for k in sorted(self.vars, key=len, reverse=True):
                f = f.replace("${" + k + "}", self.vars[k]).replace("$" + k, self.vars[k])
            return f
        if isinstance(f, list):
            return [self.fill(x) for x in f]
        if isinstance(f, dict):
            return {k: self.fill(x) for k, x in f.items()}
        return f


def apply_object(block, v, ctx):
    """Replaces unknown values with what the fake cloud assigns."""
    if v is Unknown:
        v = normalize(block, {})
        for k, spec in block["attributes"].items():
            v[k] = Unknown if spec.get("computed") else None
    out = dict(v)
    for k, spec in block["attributes"].items():
        if spec.get("write_only"):
            out[k] = None
        elif derived(spec) and out.get(k) is Unknown:
            out[k] = copy.deepcopy(out.get(spec["fill"][1:])) or {}
        elif out.get(k) is Unknown:
            out[k] = ctx.fill(spec.get("fill"))
        elif "nested" in spec and out.get(k) is not None:
            n = spec["nested"]
            inner = dict(attributes=n["attributes"], blocks={})
            x = out[k]
            if n["nesting"] == "single":
                out[k] = apply_object(inner, x, ctx)
            elif n["nesting"] == "map":
                out[k] = {mk: apply_object(inner, mv, ctx) for mk, mv in x.items()}
            else:
                out[k] = [apply_object(inner, e, ctx) for e in x]
    for k, bspec in block.get("blocks", {}).items():
        x = out.get(k)
        if x is Unknown:
            out[k] = [apply_object(bspec["block"], Unknown, ctx)]
        elif x is None:
            continue
        elif bspec["nesting"] in ("single", "group"):
            out[k] = apply_object(bspec["block"], x, ctx)
        elif bspec["nesting"] == "map":
            out[k] = {mk: apply_object(bspec["block"], mv, ctx) for mk, mv in x.items()}
        else:
            out[k] = [apply_object(bspec["block"], e, ctx) for e in x]
    return out


# ---- the service ----------------------------------------------------------------------------


def error_diag(summary):
    return [pb.Diagnostic(severity=pb.Diagnostic.ERROR, summary=summary, detail=traceback.format_exc())]


class Provider(rpc.ProviderServicer):
    def __init__(self, name):
        self.name = name
        self.spec = PROVIDERS[name]
        self.config = dict(self.spec["defaults"])

    def block(self, type_name):
        return res_block(self.spec["resources"][type_name])

    def GetMetadata(self, request, context):
        return pb.GetMetadata.Response(
            server_capabilities=pb.ServerCapabilities(),
            resources=[pb.GetMetadata.ResourceMetadata(type_name=t) for t in sorted(self.spec["resources"])],
        )

    def GetProviderSchema(self, request, context):
        return pb.GetProviderSchema.Response(
            provider=pb.Schema(block=block_pb(self.spec["config"])),
            resource_schemas={t: pb.Schema(version=0, block=block_pb(res_block(s))) for t, s in self.spec["resources"].items()},
            server_capabilities=pb.ServerCapabilities(),
        )

    def ValidateProviderConfig(self, request, context):
        return pb.ValidateProviderConfig.Response()

    def ValidateResourceConfig(self, request, context):
        return pb.ValidateResourceConfig.Response()

    def ConfigureProvider(self, request, context):
        cfg = read_dynamic_value(request.config) or {}
        for k, v in cfg.items():
            if isinstance(v, str):
                self.config[k] = v
        return pb.ConfigureProvider.Response()

    def UpgradeResourceState(self, request, context):
        try:
            raw = json.loads(request.raw_state.json) if request.raw_state.json else {}
            state = normalize(self.block(request.type_name), raw)
            return pb.UpgradeResourceState.Response(upgraded_state=to_dynamic_value(state))
        except Exception:
            return pb.UpgradeResourceState.Response(diagnostics=error_diag("upgrade failed"))

    def ReadResource(self, request, context):
        state = read_dynamic_value(request.current_state)
        drift_file = os.environ.get("CARBON_SHOW_FAKE_DRIFT") or DRIFT_FILE
        if state is not None and os.path.exists(drift_file):
            with open(drift_file) as f:
                drift = json.load(f).get(request.type_name, {})
            state = dict(state)
            state.update(drift)
        return pb.ReadResource.Response(new_state=to_dynamic_value(state), private=request.private)

    def PlanResourceChange(self, request, context):
        try:
            block = self.block(request.type_name)
            prior = read_dynamic_value(request.prior_state)
            proposed = read_dynamic_value(request.proposed_new_state)
            config = read_dynamic_value(request.config)
            requires = []
            if proposed is None:
                planned = None
            elif prior is None:
                planned = plan_object(block, proposed, True, True)
            else:
                requires = replace_paths(block, prior, proposed)
                if requires:
                    planned = plan_object(block, config, True, True)
                else:
                    changed = strip_unknown(prior) != strip_unknown(proposed) or has_unknown(proposed)
                    changed = changed and any(
                        strip_unknown(prior.get(k)) != strip_unknown(proposed.get(k))
                        for k in block["attributes"]
                        if not block["attributes"][k].get("computed")
                    ) or has_unknown(proposed)
                    planned = keep_prior_computed_blocks(block, prior, dict(proposed))
                    planned = plan_object(block, planned, False, changed)
            return pb.PlanResourceChange.Response(
                planned_state=to_dynamic_value(planned),
                requires_replace=[path_pb(p) for p in requires],
                planned_private=request.prior_private,
                legacy_type_system=True,
            )
        except Exception:
            return pb.PlanResourceChange.Response(diagnostics=error_diag("plan failed"))

    def ApplyResourceChange(self, request, context):
        try:
            block = self.block(request.type_name)
            planned = read_dynamic_value(request.planned_state)
            if planned is None:
                return pb.ApplyResourceChange.Response(new_state=to_dynamic_value(None))
            config = read_dynamic_value(request.config) or {}
            ctx = Ctx(self.config, config, request.type_name)
            new = apply_object(block, planned, ctx)
            return pb.ApplyResourceChange.Response(
                new_state=to_dynamic_value(new),
                private=request.planned_private,
                legacy_type_system=True,
            )
        except Exception:
            return pb.ApplyResourceChange.Response(diagnostics=error_diag("apply failed"))

    def StopProvider(self, request, context):
        return pb.StopProvider.Response()


def serve(name):
    server = grpc.server(thread_pool=futures.ThreadPoolExecutor(max_workers=4))
    rpc.add_ProviderServicer_to_server(Provider(name), server)
    stopped = []

    class Controller(controller_rpc.GRPCControllerServicer):
        def Shutdown(self, request, context):
            stopped.append(True)
            return controller_pb.Empty()

    class Stdio(stdio_rpc.GRPCStdioServicer):
        def StreamStdio(self, request, context):
            return iter([])

    controller_rpc.add_GRPCControllerServicer_to_server(Controller(), server)
    stdio_rpc.add_GRPCStdioServicer_to_server(Stdio(), server)
    with tempfile.TemporaryDirectory() as tmp:
        sock = os.path.join(tmp, "plugin.sock")
        chain, creds = _self_signed_cert()
        import base64

        server.add_secure_port("unix://" + sock, creds)
        server.start()
        print(f"1|6|unix|{sock}|grpc|" + base64.b64encode(chain).decode().rstrip("="), flush=True)
        try:
            while server.wait_for_termination(0.05):
                if stopped:
                    break
        except KeyboardInterrupt:
            pass
        server.stop(grace=0.2)


if __name__ == "__main__":
    serve(sys.argv[1])
