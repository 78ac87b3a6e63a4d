"""Case specs. Each transcribes one OpenTofu v1.12.6 test (see ../README.md)."""
from gen import *

STR = "string"; NUM = "number"; BOOL = "bool"
def LIST(t): return ["list", t]
def SET(t): return ["set", t]
def MAP(t): return ["map", t]
def OBJ(d): return ["object", d]
def TUP(ts): return ["tuple", ts]

CASES = []
def case(name, resources, test=None, rule="", **kw):
    c = {"name": name, "resources": resources, "test": test, "rule": rule}
    c.update(kw)
    CASES.append(c)
    return c

def R(test_key, action, before, after, schema, addr="test_instance.example", reason=None,
      replace=None, expected=None, **kw):
    """One resource change whose rendered body is the upstream ExpectedOutput."""
    r = {"address": addr, "action": action, "before": before, "after": after,
         "schema": schema, "expected": expected if expected is not None else up(test_key)}
    if reason: r["reason"] = reason
    if replace: r["replace_paths"] = replace
    r.update(kw)
    return r

def single(num, slug, test_key, action, before, after, schema, rule, **kw):
    case(f"{num:03d}-{slug}", [R(test_key, action, before, after, schema, **kw)],
         test=test_key, rule=rule)

PT = "TestResourceChange_primitiveTypes/"
ID_C = {"id": A(STR, computed=True)}
ID_AMI = {"id": A(STR, optional=True, computed=True), "ami": A(STR, optional=True)}

single(1, "create-known-after-apply", PT + "creation", "create", None, {"id": U},
       BLK(ID_C), "create; (known after apply)")
single(2, "create-null-string", PT + "creation (null string)", "create", None, {"string": "null"},
       BLK({"string": A(STR, optional=True)}), "create; string \"null\" is not null")
single(3, "create-object-quoted-keys", PT + "creation (object with quoted keys)", "create", None,
       {"object": {"unquoted": "value", "quoted:key": "some-value"}},
       BLK({"object": A(OBJ({"unquoted": STR, "quoted:key": STR}), optional=True)}),
       "object attribute; quoted keys; key alignment")
single(4, "destroy", PT + "deletion", "delete", {"id": "i-02ae66f368e8518a9"}, None,
       BLK(ID_C), "destroy; `-> null`")
single(5, "destroy-deposed", PT + "deletion of deposed object", "delete",
       {"id": "i-02ae66f368e8518a9"}, None, BLK(ID_C),
       "deposed object wording + left-over note", addr="test_instance.example", deposed="byebye")
single(6, "destroy-empty-string", PT + "deletion (empty string)", "delete",
       {"id": "i-02ae66f368e8518a9", "intentionally_long": ""}, None,
       BLK({"id": A(STR, computed=True), "intentionally_long": A(STR, optional=True)}),
       "destroy hides empty-string attributes")
single(7, "forget", PT + "forget", "forget", {"id": "i-02ae66f368e8518a9"}, None, BLK(ID_C),
       "forget wording, no action symbols; Plan line with forget count")
single(8, "forget-deposed", PT + "forget a deposed object", "forget",
       {"id": "i-02ae66f368e8518a9"}, None, BLK(ID_C), "forget deposed object", deposed="byebye")
single(9, "update-string", PT + "string in-place update", "update",
       {"id": "i-02ae66f368e8518a9", "ami": "ami-BEFORE"},
       {"id": "i-02ae66f368e8518a9", "ami": "ami-AFTER"}, BLK(ID_AMI),
       "update in-place; identifying attribute id always shown; alignment")
single(10, "update-quoted-key", PT + "update with quoted key", "update",
       {"id": "i-02ae66f368e8518a9", "saml:aud": "https://example.com/saml", "zeta": "alpha"},
       {"id": "i-02ae66f368e8518a9", "saml:aud": "https://saml.example.com", "zeta": "alpha"},
       BLK({"id": A(STR, optional=True, computed=True), "saml:aud": A(STR, optional=True),
            "zeta": A(STR, optional=True)}),
       "quoted attribute name; (1 unchanged attribute hidden)")
single(11, "replace-cannot-update", PT + "string force-new update", "delete-create",
       {"id": "i-02ae66f368e8518a9", "ami": "ami-BEFORE"},
       {"id": "i-02ae66f368e8518a9", "ami": "ami-AFTER"}, BLK(ID_AMI),
       "replace because cannot update; # forces replacement",
       reason="replace_because_cannot_update", replace=[["ami"]])
single(12, "update-null-values", PT + "string in-place update (null values)", "update",
       {"id": "i-02ae66f368e8518a9", "ami": "ami-BEFORE", "unchanged": None},
       {"id": "i-02ae66f368e8518a9", "ami": "ami-AFTER", "unchanged": None},
       BLK({**ID_AMI, "unchanged": A(STR, optional=True)}),
       "null->null attributes are not counted as hidden")
single(13, "heredoc-update", PT + "in-place update of multi-line string field", "update",
       {"id": "i-02ae66f368e8518a9", "more_lines": "original\nlong\nmulti-line\nstring\nfield"},
       {"id": U, "more_lines": "original\nextremely long\nmulti-line\nstring\nfield"},
       BLK({"id": A(STR, optional=True, computed=True), "more_lines": A(STR, optional=True)}),
       "multi-line string heredoc line diff; value -> (known after apply)")
single(14, "heredoc-add", PT + "addition of multi-line string field", "update",
       {"id": "i-02ae66f368e8518a9", "more_lines": None},
       {"id": U, "more_lines": "original\nnew line"},
       BLK({"id": A(STR, optional=True, computed=True), "more_lines": A(STR, optional=True)}),
       "added heredoc")
single(15, "heredoc-forces-replacement", PT + "force-new update of multi-line string field", "delete-create",
       {"id": "i-02ae66f368e8518a9", "more_lines": "original"},
       {"id": U, "more_lines": "original\nnew line"},
       BLK({"id": A(STR, optional=True, computed=True), "more_lines": A(STR, optional=True)}),
       "heredoc with # forces replacement; replace without reason", replace=[["more_lines"]])
single(16, "create-sensitive-schema", PT + "creation with sensitive field", "create", None,
       {"id": U, "password": "top-secret", "conn_info": {"user": "not-secret", "password": "top-secret"}},
       BLK({"id": A(STR, computed=True), "password": A(STR, optional=True, sensitive=True),
            "conn_info": NA("single", {"user": A(STR, optional=True),
                                       "password": A(STR, optional=True, sensitive=True)})}),
       "(sensitive value) from schema; nested attribute single")
single(17, "update-equal-sensitive", PT + "update with equal sensitive field", "update",
       {"id": "blah", "str": "before", "password": "top-secret"},
       {"id": U, "str": "after", "password": "top-secret"},
       BLK({"id": A(STR, computed=True), "str": A(STR, optional=True),
            "password": A(STR, optional=True, sensitive=True)}),
       "unchanged sensitive attribute hidden")
single(18, "replace-tainted", PT + "replace tainted resource", "delete-create",
       {"id": "i-02ae66f368e8518a9", "ami": "ami-BEFORE"}, {"id": U, "ami": "ami-AFTER"},
       BLK(ID_AMI), "replace because tainted", reason="replace_because_tainted", replace=[["ami"]])
single(19, "replace-null-before", PT + "force replacement with empty before value", "delete-create",
       {"name": "name", "forced": None}, {"name": "name", "forced": "example"},
       BLK({"name": A(STR, optional=True), "forced": A(STR, optional=True)}),
       "null -> value forcing replacement renders as +",
       reason="replace_because_cannot_update", replace=[["forced"]])
single(20, "replace-empty-string-before", PT + "force replacement with empty before value legacy", "delete-create",
       {"name": "name", "forced": ""}, {"name": "name", "forced": "example"},
       BLK({"name": A(STR, optional=True), "forced": A(STR, optional=True)}),
       "legacy empty string -> value renders as +",
       reason="replace_because_cannot_update", replace=[["forced"]])
single(21, "read-config-unknown", PT + "read during apply because of unknown configuration", "read",
       {"name": "name"}, {"name": "name"}, BLK({"name": A(STR, optional=True)}),
       "read during apply: config refers to values not yet known",
       addr="data.test_instance.example", reason="read_because_config_unknown")
single(22, "read-dependency-pending", PT + "read during apply because of pending changes to upstream dependency", "read",
       {"name": "name"}, {"name": "name"}, BLK({"name": A(STR, optional=True)}),
       "read during apply: dependency pending",
       addr="data.test_instance.example", reason="read_because_dependency_pending")
single(23, "read-no-reason", PT + "read during apply for unspecified reason", "read",
       {"name": "name"}, {"name": "name"}, BLK({"name": A(STR, optional=True)}),
       "read during apply without reason", addr="data.test_instance.example")
single(24, "identifying-attributes", PT + "show all identifying attributes even if unchanged", "update",
       {"id": "i-02ae66f368e8518a9", "ami": "ami-BEFORE", "bar": "bar", "foo": "foo", "name": "alice", "tags": {"name": "bob"}},
       {"id": "i-02ae66f368e8518a9", "ami": "ami-AFTER", "bar": "bar", "foo": "foo", "name": "alice", "tags": {"name": "bob"}},
       BLK({"id": A(STR, optional=True, computed=True), "ami": A(STR, optional=True),
            "bar": A(STR, optional=True), "foo": A(STR, optional=True),
            "name": A(STR, optional=True), "tags": A(MAP(STR), optional=True)}),
       "id/name/tags always shown; (2 unchanged attributes hidden)")

# ------------------------------------------------ full-output import tests
IMP = "TestRenderHuman_Imports/"
IMP_SCHEMA = BLK({"id": A(STR, optional=True), "value": A(STR, optional=True)})
UUID = "1D5F5E9E-F2E5-401B-9ED5-692A215AC67E"

def full(num, slug, test_key, resources, rule, **kw):
    """A case whose whole expected stdout is an upstream full-output test string."""
    text = up(test_key)
    for r in resources:
        if "expected" not in r:
            # body = the resource block inside the full output (used for the framing self-check)
            r["expected"] = text.split("OpenTofu will perform the following actions:\n\n", 1)[1].split("\n\nPlan:", 1)[0]
    c = case(f"{num:03d}-{slug}", resources, test=test_key, rule=rule, expected_full=text, **kw)
    return c

def IR(action, before_value, after_value, addr="test_resource.resource", **kw):
    return {"address": addr, "action": action, "before": {"id": UUID, "value": before_value},
            "after": {"id": UUID, "value": after_value}, "schema": IMP_SCHEMA, **kw}

full(25, "import-simple", IMP + "simple_import",
     [IR("noop", "Hello, World!", "Hello, World!", importing={"id": UUID})],
     "will be imported; (imported from ...); no legend for no-op import; Plan with import count; unchanged attrs shown")
full(26, "import-identity", IMP + "simple_import_with_identity",
     [IR("noop", "Hello, World!", "Hello, World!", importing={"identity": {"name": "my-resource"}})],
     "import by resource identity (indented JSON comment)")
full(27, "import-complex-identity", IMP + "import_with_complex_identity",
     [IR("noop", "Hello, World!", "Hello, World!", importing={"identity": {
         "project_id": "my-project-123", "region": "us-east-1",
         "scopes": ["read", "write"], "tags": {"env": "production", "owner": "platform-team"}}})],
     "import identity with nested map/list")
full(28, "import-generated-config", IMP + "simple_import_with_generated_config",
     [IR("noop", "Hello, World!", "Hello, World!", importing={"id": UUID},
         generated_config='resource "test_resource" "resource" {\n  id = "1D5F5E9E-F2E5-401B-9ED5-692A215AC67E"\n  value = "Hello, World!"\n}')],
     "(config will be generated)")
full(29, "import-and-move", IMP + "import_and_move",
     [IR("noop", "Hello, World!", "Hello, World!", addr="test_resource.after",
         previous_address="test_resource.before", importing={"id": UUID})],
     "has moved to + imported from")
full(30, "import-move-update", IMP + "import_move_and_update",
     [IR("update", "Hello, World!", "Hello, Universe!", addr="test_resource.after",
         previous_address="test_resource.before", importing={"id": UUID})],
     "(moved from ...) + import + update")
full(31, "import-and-update", IMP + "import_and_update",
     [IR("update", "Hello, World!", "Hello, Universe!", importing={"id": UUID})],
     "import + update; Plan 1 to import, 1 to change")
full(32, "import-update-no-id", IMP + "import_and_update_with_no_id",
     [IR("update", "Hello, World!", "Hello, Universe!", importing={})],
     "(will be imported first)")
full(33, "import-update-identity", IMP + "import_and_update_with_identity",
     [IR("update", "Hello, World!", "Hello, Universe!", importing={"identity": {"name": "my-resource-identity-name"}})],
     "import identity + update")
full(34, "import-and-replace", IMP + "import_and_replace",
     [{"address": "test_resource.resource", "action": "create-delete",
       "before": {"id": UUID, "value": "Hello, World!"},
       "after": {"id": "9794FB1F-7260-442F-830C-F2D450E90CE3", "value": "Hello, World!"},
       "schema": IMP_SCHEMA, "replace_paths": [["id"]], "importing": {"id": UUID}}],
     "create-then-delete replacement of imported resource; Warning line")

case("035-no-changes", [], test="TestRenderHuman_EmptyPlan",
     rule="No changes. text for an empty plan", expected_full=up("TestRenderHuman_EmptyPlan"))
case("036-no-changes-noop-output", [], test="TestRenderHuman_EmptyOutputs",
     rule="no-op output changes are not rendered; still No changes.",
     outputs=[{"name": "a_string", "action": "noop", "before": "some-text", "after": "some-text"}],
     expected_full=up("TestRenderHuman_EmptyOutputs"))

# ------------------------------------------------------------ jsonencode
JS = "TestResourceChange_JSON/"
J_SCHEMA = BLK({"id": A(STR, optional=True, computed=True), "json_field": A(STR, optional=True)})
ID0 = "i-02ae66f368e8518a9"

def jcase(num, slug, sub, before, after, rule, action="update", **kw):
    b = None if before is None else {"id": ID0, "json_field": before}
    a = {"id": U, "json_field": after}
    single(num, slug, JS + sub, action, b, a, J_SCHEMA, rule, **kw)

jcase(37, "json-create", "creation", None,
      '{\n\t\t\t\t\t"str": "value",\n\t\t\t\t\t"list":["a","b", 234, true],\n\t\t\t\t\t"obj": {"key": "val"}\n\t\t\t\t}',
      "jsonencode( on create: nested object/list, sorted keys, alignment", action="create")
jcase(38, "json-update-object", "in-place update of object", '{"aaa": "value","ccc": 5}',
      '{"aaa": "value", "bbb": "new_value"}', "jsonencode object diff, hidden unchanged attribute")
jcase(39, "json-quoted-keys", "in-place update of object with quoted keys",
      '{"aaa": "value", "c:c": "old_value"}', '{"aaa": "value", "b:bb": "new_value"}',
      "jsonencode with quoted keys")
jcase(40, "json-from-empty-tuple", "in-place update (from empty tuple)", '{"aaa": []}', '{"aaa": ["value"]}',
      "jsonencode tuple growing from empty")
jcase(41, "json-tuple-mixed-types", "in-place update (tuple of different types)",
      '{"aaa": [42, {"foo":"bar"}, "value"]}', '{"aaa": [42, {"foo":"baz"}, "value"]}',
      "jsonencode tuple with number/object/string elements")
jcase(42, "json-forces-replacement", "force-new update", '{"aaa": "value"}',
      '{"aaa": "value", "bbb": "new_value"}', "jsonencode # forces replacement after closing brace",
      action="delete-create", reason="replace_because_cannot_update", replace=[["json_field"]])
jcase(43, "json-whitespace-change", "in-place update (whitespace change)",
      '{"aaa": "value", "bbb": "another"}', '{"aaa":"value",\n\t\t\t\t\t"bbb":"another"}',
      "jsonencode( # whitespace changes")
jcase(44, "json-whitespace-forces-replacement", "force-new update (whitespace change)",
      '{"aaa": "value", "bbb": "another"}', '{"aaa":"value",\n\t\t\t\t\t"bbb":"another"}',
      "# whitespace changes force replacement",
      action="delete-create", reason="replace_because_cannot_update", replace=[["json_field"]])
jcase(45, "json-create-empty", "creation (empty)", None, '{}', "jsonencode({})", action="create")
jcase(46, "json-list-removal", "JSON list item removal", '["first","second","third"]',
      '["first","second"]', "jsonencode list element removal with hidden elements")
jcase(47, "json-list-of-objects-remove", "JSON list of objects - removing item",
      '[{"one": "111"}, {"two": "222"}, {"three": "333"}]', '[{"one": "111"}, {"three": "333"}]',
      "jsonencode list of objects: removed object in the middle")
jcase(48, "json-double-nested-lists", "JSON object double nested lists",
      '{"parent":[{"another_list": ["111"]}]}', '{"parent":[{"another_list": ["111", "222"]}]}',
      "jsonencode nested lists inside objects")
jcase(49, "json-object-to-tuple", "in-place update from object to tuple",
      '{"aaa": [42, {"foo":"bar"}, "value"]}', '["aaa", 42, "something"]',
      "jsonencode type change object -> tuple")
jcase(50, "json-nested-list-statement", "JSON object with nested list",
      '{\n\t\t  "Statement": ["first"]\n\t\t}', '{\n\t\t  "Statement": ["first", "second"]\n\t\t}',
      "jsonencode multi-line JSON input with nested list")

# ------------------------------------------------- lists, sets, maps, tuples
PL = "TestResourceChange_primitiveList/"; PS = "TestResourceChange_primitiveSet/"; MP = "TestResourceChange_map/"

def coll_schema(field, ty):
    return BLK({"id": A(STR, optional=True, computed=True), "ami": A(STR, optional=True),
                field: A(ty, optional=True)})

def ccase(num, slug, key, field, ty, before, after, rule, action="update", **kw):
    b = None if before == "CREATE" else {"id": ID0, "ami": "ami-STATIC", field: before}
    a = {"id": U, "ami": "ami-STATIC", field: after}
    single(num, slug, key, action, b, a, coll_schema(field, ty), rule, **kw)

case("051-list-of-objects-update", [R("TestResourceChange_listObject/updating non-identifying attribute", "update",
    {"id": ID0, "accounts": [{"id": "1", "name": "production", "status": "ACTIVE"},
                              {"id": "2", "name": "staging", "status": "ACTIVE"},
                              {"id": "3", "name": "disaster-recovery", "status": "ACTIVE"}]},
    {"id": U, "accounts": [{"id": "1", "name": "production", "status": "ACTIVE"},
                            {"id": "2", "name": "staging", "status": "EXPLODED"},
                            {"id": "3", "name": "disaster-recovery", "status": "ACTIVE"}]},
    BLK({"id": A(STR, optional=True, computed=True),
         "accounts": A(LIST(OBJ({"id": STR, "name": STR, "status": STR})))}))],
    test="TestResourceChange_listObject/updating non-identifying attribute",
    rule="list(object) attribute: unchanged objects shown in full inside a changed list")
ccase(52, "list-null-to-value", PL + "in-place update - creation", "list_field", LIST(STR), None, ["new-element"],
      "list attribute null -> list (+ list)")
ccase(53, "list-insertion-context", PL + "in-place update - insertion", "list_field", LIST(STR),
      ["aaaa", "bbbb", "dddd", "eeee", "ffff"], ["aaaa", "bbbb", "cccc", "dddd", "eeee", "ffff"],
      "list insertion with one context element either side and (N unchanged elements hidden)")
ccase(54, "list-forces-replacement", PL + "force-new update - insertion", "list_field", LIST(STR),
      ["aaaa", "cccc"], ["aaaa", "bbbb", "cccc"], "list # forces replacement on opening bracket",
      action="delete-create", reason="replace_because_cannot_update", replace=[["list_field"]])
ccase(55, "list-deletion", PL + "in-place update - deletion", "list_field", LIST(STR),
      ["aaaa", "bbbb", "cccc", "dddd", "eeee"], ["bbbb", "dddd", "eeee"], "list element deletions")
ccase(56, "list-create-empty", PL + "creation - empty list", "list_field", LIST(STR), "CREATE", [],
      "empty list on create renders []", action="create")
ccase(57, "list-null-to-empty", PL + "in-place update - null to empty", "list_field", LIST(STR), None, [],
      "null -> empty list")
ccase(58, "list-unknown-elements", PL + "update - two new unknown elements", "list_field", LIST(STR),
      ["aaaa", "bbbb", "cccc", "dddd", "eeee"], ["aaaa", U, U, "cccc", "dddd", "eeee"],
      "unknown list elements (known after apply) entries")
ccase(59, "list-multiline-strings", PL + "in-place update - multiline string in list", "list_field", LIST(STR),
      ["aaaa", "bbbb", "cccc", "line1\nline2\nline3", "dddd", "ffff"],
      ["aaaa", "line1\nline2+\nline3", "ffff\nline2"],
      "heredocs inside a list (EOT,)")
case("060-tuple-update", [R("TestResourceChange_primitiveTuple/in-place update", "update",
    {"id": ID0, "tuple_field": ["aaaa", "bbbb", "dddd", "eeee", "ffff"]},
    {"id": ID0, "tuple_field": ["aaaa", "bbbb", "cccc", "eeee", "ffff"]},
    BLK({"id": A(STR, required=True), "tuple_field": A(TUP([STR] * 5), optional=True)}))],
    test="TestResourceChange_primitiveTuple/in-place update",
    rule="tuple attribute: element changed in place (~ a -> b)")
ccase(61, "set-null-to-value", PS + "in-place update - creation", "set_field", SET(STR), None, ["new-element"],
      "set attribute null -> set")
ccase(62, "set-insertion", PS + "in-place update - insertion", "set_field", SET(STR),
      ["aaaa", "cccc"], ["aaaa", "bbbb", "cccc"], "set insertion: no context, all unchanged hidden")
ccase(63, "set-forces-replacement", PS + "force-new update - insertion", "set_field", SET(STR),
      ["aaaa", "cccc"], ["aaaa", "bbbb", "cccc"], "set # forces replacement",
      action="delete-create", reason="replace_because_cannot_update", replace=[["set_field"]])
ccase(64, "set-deletion", PS + "in-place update - deletion", "set_field", SET(STR),
      ["aaaa", "bbbb", "cccc"], ["bbbb"], "set deletions")
ccase(65, "set-to-unknown", PS + "in-place update to unknown", "set_field", SET(STR),
      ["aaaa", "bbbb"], UL, "whole set becomes unknown: ] -> (known after apply)")
ccase(66, "set-unknown-element", PS + "in-place update to unknown element", "set_field", SET(STR),
      ["aaaa", "bbbb"], ["aaaa", U], "set element becomes unknown")
ccase(67, "set-create-empty", PS + "creation - empty set", "set_field", SET(STR), "CREATE", [],
      "empty set on create", action="create")
ccase(68, "map-null-to-value", MP + "in-place update - creation", "map_field", MAP(STR), None,
      {"new-key": "new-element", "be:ep": "boop"}, "map attribute created: quoted keys, alignment")
ccase(69, "map-insertion", MP + "in-place update - insertion", "map_field", MAP(STR),
      {"a": "aaaa", "c": "cccc"}, {"a": "aaaa", "b": "bbbb", "b:b": "bbbb", "c": "cccc"},
      "map insertion, (2 unchanged elements hidden)")
ccase(70, "map-forces-replacement", MP + "force-new update - insertion", "map_field", MAP(STR),
      {"a": "aaaa", "c": "cccc"}, {"a": "aaaa", "b": "bbbb", "c": "cccc"}, "map # forces replacement",
      action="delete-create", reason="replace_because_cannot_update", replace=[["map_field"]])
ccase(71, "map-deletion", MP + "in-place update - deletion", "map_field", MAP(STR),
      {"a": "aaaa", "b": "bbbb", "c": "cccc"}, {"b": "bbbb"}, "map element deletion -> null")
ccase(72, "map-unknown-element", MP + "update to unknown element", "map_field", MAP(STR),
      {"a": "aaaa", "b": "bbbb", "c": "cccc"}, {"a": "aaaa", "b": U, "c": "cccc"},
      "map element -> (known after apply)")
ccase(73, "map-create-empty", MP + "creation - empty", "map_field", MAP(STR), "CREATE", {},
      "empty map on create renders {}", action="create")

# ------------------------------------------- nested blocks / nested attributes
NL = "TestResourceChange_nestedList/"

def test_schema(nesting, plus=False, multiple=False, sensitive=False):
    """plan_test.go testSchema / testSchemaPlus / testSchemaMultipleBlocks / testSchemaSensitive."""
    disk_key = "disk" if nesting == "single" and not (multiple or sensitive) else "disks"
    attrs = {"id": A(STR, optional=True, computed=True), "ami": A(STR, optional=True),
             disk_key: NA(nesting, {"mount_point": A(STR, optional=True), "size": A(STR, optional=True)},
                          sensitive=sensitive)}
    if sensitive:
        return BLK(attrs)
    rbd = {"volume_type": A(STR, optional=True, computed=True)}
    if plus:
        rbd["new_field"] = A(STR, optional=True, computed=True)
    blocks = {"root_block_device": NB(nesting, BLK(rbd))}
    if multiple:
        blocks["leaf_block_device"] = NB(nesting, BLK({"volume_type": A(STR, optional=True, computed=True)}))
    return BLK(attrs, blocks)

def disk(mp, size): return {"mount_point": mp, "size": size}
def rbd(vt, nf="ABSENT"):
    d = {"volume_type": vt}
    if nf != "ABSENT": d["new_field"] = nf
    return d
def inst(ami, disks=None, rbds=None, key="disks", id_=ID0, **extra):
    d = {"id": id_, "ami": ami}
    if disks is not None: d[key] = disks
    if rbds is not None: d["root_block_device"] = rbds
    d.update(extra)
    return d

single(74, "nested-list-equal", NL + "in-place update - equal", "update",
       inst("ami-BEFORE", [disk("/var/diska", "50GB")], [rbd("gp2")]),
       inst("ami-AFTER", [disk("/var/diska", "50GB")], [rbd("gp2")]),
       test_schema("list"), "unchanged list nested attribute and block: # (1 unchanged block hidden)")
single(75, "nested-list-creation", NL + "in-place update - creation", "update",
       inst("ami-BEFORE", [], []),
       inst("ami-AFTER", [disk("/var/diska", "50GB")], [rbd(None)]),
       test_schema("list"), "new nested block with null attribute; new list nested attribute element")
single(76, "nested-list-insertion", NL + "in-place update - insertion", "update",
       inst("ami-BEFORE", [disk("/var/diska", None), disk("/var/diskb", "50GB")], [rbd("gp2", None)]),
       inst("ami-AFTER", [disk("/var/diska", "50GB"), disk("/var/diskb", "50GB")], [rbd("gp2", "new_value")]),
       test_schema("list", plus=True), "attribute added inside nested block and nested attribute")
single(77, "nested-list-force-inside", NL + "force-new update (inside blocks)", "delete-create",
       inst("ami-BEFORE", [disk("/var/diska", "50GB")], [rbd("gp2")]),
       inst("ami-AFTER", [disk("/var/diskb", "50GB")], [rbd("different")]),
       test_schema("list"), "# forces replacement on attributes inside nested block/attribute",
       reason="replace_because_cannot_update",
       replace=[["root_block_device", 0, "volume_type"], ["disks", 0, "mount_point"]])
single(78, "nested-list-force-whole", NL + "force-new update (whole block)", "delete-create",
       inst("ami-BEFORE", [disk("/var/diska", "50GB")], [rbd("gp2")]),
       inst("ami-AFTER", [disk("/var/diskb", "50GB")], [rbd("different")]),
       test_schema("list"), "# forces replacement on whole nested block / list attribute",
       reason="replace_because_cannot_update", replace=[["root_block_device"], ["disks"]])
single(79, "nested-list-deletion", NL + "in-place update - deletion", "update",
       inst("ami-BEFORE", [disk("/var/diska", "50GB")], [rbd("gp2")]),
       inst("ami-AFTER", [], []),
       test_schema("list"), "deleted nested block and nested attribute element")
single(80, "nested-list-dynamic-attr", NL + "with dynamically-typed attribute", "update",
       {"block": []}, {"block": [{"attr": "foo"}, {"attr": True}]},
       BLK(None, {"block": NB("list", BLK({"attr": A("dynamic", optional=True)}))}),
       "dynamic-typed attribute in list blocks (string and bool)")
single(81, "nested-list-sequence-deletion", NL + "in-place sequence update - deletion", "update",
       {"list": [{"attr": "x"}, {"attr": "y"}]}, {"list": [{"attr": "y"}, {"attr": "z"}]},
       BLK(None, {"list": NB("list", BLK({"attr": A(STR, required=True)}))}),
       "list blocks: removed first, added last")
single(82, "nested-list-unknown", NL + "in-place update - unknown", "update",
       inst("ami-BEFORE", [disk("/var/diska", "50GB")], [rbd("gp2", "new_value")]),
       inst("ami-AFTER", UL, [rbd("gp2", "new_value")]),
       test_schema("list", plus=True), "list nested attribute becomes unknown")
single(83, "nested-list-modification", NL + "in-place update - modification", "update",
       inst("ami-BEFORE", [disk("/var/diska", "50GB"), disk("/var/diskb", "50GB"), disk("/var/diskc", "50GB")], [rbd("gp2", "new_value")]),
       inst("ami-AFTER", [disk("/var/diska", "50GB"), disk("/var/diskb", "75GB"), disk("/var/diskc", "25GB")], [rbd("gp2", "new_value")]),
       test_schema("list", plus=True), "modified elements in list nested attribute, hidden unchanged")

NS = "TestResourceChange_nestedSet/"
single(84, "nested-set-create-sensitive", NS + "creation from null - sensitive set", "create", None,
       inst("ami-AFTER", S([disk("/var/diska", None)]), [rbd("gp2")]),
       test_schema("set"), "create with a sensitive-marked set nested attribute + set block")
single(85, "nested-set-creation", NS + "in-place update - creation", "update",
       inst("ami-BEFORE", [], []), inst("ami-AFTER", [disk("/var/diska", None)], [rbd("gp2")]),
       test_schema("set"), "set nested attribute and set block created; null attribute omitted")
single(86, "nested-set-becomes-sensitive", NS + "in-place update - creation - sensitive set", "update",
       inst("ami-BEFORE", [], []), inst("ami-AFTER", S([disk("/var/diska", None)]), [rbd("gp2")]),
       test_schema("set"), "Warning: this attribute value will be marked as sensitive")
single(87, "nested-set-marked-sensitive-unchanged", NS + "in-place update - marking set sensitive", "update",
       inst("ami-BEFORE", [disk("/var/diska", "50GB")], []), inst("ami-AFTER", S([disk("/var/diska", "50GB")]), []),
       test_schema("set"), "marked sensitive warning: The value is unchanged.")
single(88, "nested-set-insertion", NS + "in-place update - insertion", "update",
       inst("ami-BEFORE", [disk("/var/diska", None), disk("/var/diskb", "100GB")], [rbd("gp2", None)]),
       inst("ami-AFTER", [disk("/var/diska", "50GB"), disk("/var/diskb", "100GB")], [rbd("gp2", "new_value")]),
       test_schema("set", plus=True), "set elements are replaced (- old, + new) not updated; set blocks likewise")
single(89, "nested-set-force-whole", NS + "force-new update (whole block)", "delete-create",
       inst("ami-BEFORE", [disk("/var/diska", "50GB")], [rbd("gp2")]),
       inst("ami-AFTER", [disk("/var/diskb", "50GB")], [rbd("different")]),
       test_schema("set"), "# forces replacement on each set element / set block",
       reason="replace_because_cannot_update", replace=[["root_block_device"], ["disks"]])
single(90, "nested-set-deletion", NS + "in-place update - deletion", "update",
       inst("ami-BEFORE", [disk("/var/diska", "50GB")], [rbd("gp2", "new_value")]),
       inst("ami-AFTER", [], []),
       test_schema("set", plus=True), "set nested attribute elements and set block deleted")
single(91, "nested-set-null-to-empty", NS + "in-place update - empty nested sets", "update",
       inst("ami-BEFORE", None, []), inst("ami-AFTER", [], []),
       test_schema("set"), "null -> empty nested set renders + disks = []")
single(92, "nested-set-unknown", NS + "in-place update - unknown", "update",
       inst("ami-BEFORE", [disk("/var/diska", "50GB")], [rbd("gp2", "new_value")]),
       inst("ami-AFTER", UL, [rbd("gp2", "new_value")]),
       test_schema("set", plus=True), "nested set becomes unknown; (1 unchanged block hidden)")

# ------------------------------------------------------------ action reasons
AR = "TestResourceChange_actionReason/"
EMPTY = BLK()
def arcase(num, slug, sub, action, reason, rule, addr="test_instance.example"):
    before = {}
    after = None if action in ("delete", "forget") else {}
    single(num, slug, AR + sub, action, before, after, EMPTY, rule, addr=addr, reason=reason)

arcase(93, "delete-no-reason", "delete for no particular reason", "delete", None,
       "destroy with empty schema renders {} on one line")
arcase(94, "delete-wrong-repetition-nokey", "delete because of wrong repetition mode (NoKey)", "delete",
       "delete_because_wrong_repetition", "(because resource uses count or for_each)")
arcase(95, "delete-wrong-repetition-int", "delete because of wrong repetition mode (IntKey)", "delete",
       "delete_because_wrong_repetition", "(because resource does not use count)", addr="test_instance.example[1]")
arcase(96, "delete-wrong-repetition-string", "delete because of wrong repetition mode (StringKey)", "delete",
       "delete_because_wrong_repetition", "(because resource does not use for_each)", addr='test_instance.example["a"]')
arcase(97, "delete-no-resource-config", "delete because no resource configuration", "delete",
       "delete_because_no_resource_config", "(because T.N is not in configuration), module address",
       addr="module.foo.test_instance.example")
arcase(98, "delete-no-module", "delete because no module", "delete",
       "delete_because_no_module", "(because module.foo[1] is not in configuration)",
       addr="module.foo[1].test_instance.example")
arcase(99, "delete-count-index", "delete because out of range for count", "delete",
       "delete_because_count_index", "(because index [1] is out of range for count)", addr="test_instance.example[1]")
arcase(100, "delete-each-key", "delete because out of range for for_each", "delete",
       "delete_because_each_key", '(because key ["boop"] is not in for_each map)', addr='test_instance.example["boop"]')
arcase(101, "replace-no-reason-create-first", "replace for no particular reason (create first)", "create-delete",
       None, "create-then-delete: +/- symbol and legend")
arcase(102, "replace-by-request-delete-first", "replace by request (delete first)", "delete-create",
       "replace_by_request", "will be replaced, as requested")
arcase(103, "replace-by-request-create-first", "replace by request (create first)", "create-delete",
       "replace_by_request", "replaced as requested, create first")
arcase(104, "replace-tainted-create-first", "replace because tainted (create first)", "create-delete",
       "replace_because_tainted", "is tainted, so it must be replaced (create first)")
arcase(105, "forget-no-module", "forget because no module", "forget",
       "delete_because_no_module", "forget ignores delete reasons; module instance address",
       addr="module.foo[1].test_instance.example")

# ------------------------------------------------------------------- moved
MV = "TestResourceChange_moved/"
MV_SCHEMA = BLK({"id": A(STR, computed=True), "foo": A(STR, optional=True), "bar": A(STR, optional=True)})
single(106, "moved-and-updated", MV + "moved and updated", "update",
       {"id": "12345", "foo": "hello", "bar": "baz"}, {"id": "12345", "foo": "hello", "bar": "boop"},
       MV_SCHEMA, "(moved from ...) on an update", previous_address="test_instance.previous")
single(107, "moved-only", MV + "moved without changes", "noop",
       {"id": "12345", "foo": "hello", "bar": "baz"}, {"id": "12345", "foo": "hello", "bar": "baz"},
       MV_SCHEMA, "has moved to; no legend; move-only not counted in Plan line",
       previous_address="test_instance.previous")

NM = "TestResourceChange_nestedMap/"
single(108, "nested-map-from-null", NM + "creation from null", "update",
       {"id": None, "ami": None, "disks": None, "root_block_device": None},
       inst("ami-AFTER", {"disk_a": disk("/var/diska", None)}, {"a": rbd("gp2")}),
       test_schema("map"), "map nested attribute and map block (labelled block \"a\") created from null")
single(109, "nested-map-change-attr", NM + "in-place update - change attr", "update",
       inst("ami-BEFORE", {"disk_a": disk("/var/diska", None)}, {"a": rbd("gp2", None)}),
       inst("ami-AFTER", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2", "new_value")}),
       test_schema("map", plus=True), "attribute added inside map element and map block")
single(110, "nested-map-insertion", NM + "in-place update - insertion", "update",
       inst("ami-BEFORE", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2", None)}),
       inst("ami-AFTER", {"disk_a": disk("/var/diska", "50GB"), "disk_2": disk("/var/disk2", "50GB")},
            {"a": rbd("gp2", None), "b": rbd("gp2", "new_value")}),
       test_schema("map", plus=True), "new map element/new labelled block; hidden unchanged element and block")
single(111, "nested-map-force", NM + "force-new update (whole block)", "delete-create",
       inst("ami-BEFORE", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2"), "b": rbd("standard")}),
       inst("ami-AFTER", {"disk_a": disk("/var/diska", "100GB")}, {"a": rbd("different"), "b": rbd("standard")}),
       test_schema("map"), "# forces replacement on a map element and on one labelled block",
       reason="replace_because_cannot_update", replace=[["root_block_device", "a"], ["disks"]])
single(112, "nested-map-insertion-sensitive", NM + "in-place update - insertion sensitive", "update",
       inst("ami-BEFORE", {}, {"a": rbd("gp2", "new_value")}),
       inst("ami-AFTER", {"disk_a": {"mount_point": S("/var/diska"), "size": "50GB"}}, {"a": rbd("gp2", "new_value")}),
       test_schema("map", plus=True), "sensitive-marked attribute inside a new map element")
single(113, "nested-map-multiple-blocks-changed", NM + "in-place update - multiple different blocks changed", "update",
       inst("ami-BEFORE", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2")}, leaf_block_device={"b": rbd("gp2")}),
       inst("ami-AFTER", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp3")}, leaf_block_device={"b": rbd("gp3")}),
       test_schema("map", multiple=True), "two block types, blank line between block types, sorted by type")
single(114, "nested-map-mixed-blocks-changed", NM + "in-place update - mixed blocks changed", "update",
       inst("ami-BEFORE", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2"), "b": rbd("gp2")},
            leaf_block_device={"a": rbd("gp2"), "b": rbd("gp2")}),
       inst("ami-AFTER", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2"), "b": rbd("gp3")},
            leaf_block_device={"a": rbd("gp2"), "b": rbd("gp3")}),
       test_schema("map", multiple=True), "changed and unchanged blocks of two types: (2 unchanged blocks hidden)")

NSI = "TestResourceChange_nestedSingle/"
single(115, "nested-single-equal", NSI + "in-place update - equal", "update",
       inst("ami-BEFORE", disk("/var/diska", "50GB"), rbd("gp2"), key="disk"),
       inst("ami-AFTER", disk("/var/diska", "50GB"), rbd("gp2"), key="disk"),
       test_schema("single"), "unchanged single nested attribute and single block hidden")
single(116, "nested-single-creation", NSI + "in-place update - creation", "update",
       inst("ami-BEFORE", None, None, key="disk", root_block_device=None),
       inst("ami-AFTER", disk("/var/diska", "50GB"), rbd(None), key="disk"),
       test_schema("single"), "single block created with only null attributes renders {}")
single(117, "nested-single-force-inside", NSI + "force-new update (inside blocks)", "delete-create",
       inst("ami-BEFORE", disk("/var/diska", "50GB"), rbd("gp2"), key="disk"),
       inst("ami-AFTER", disk("/var/diskb", "50GB"), rbd("different"), key="disk"),
       test_schema("single"), "# forces replacement inside single block / single nested attribute",
       reason="replace_because_cannot_update",
       replace=[["root_block_device", "volume_type"], ["disk", "mount_point"]])
single(118, "nested-single-force-whole", NSI + "force-new update (whole block)", "delete-create",
       inst("ami-BEFORE", disk("/var/diska", "50GB"), rbd("gp2"), key="disk"),
       inst("ami-AFTER", disk("/var/diskb", "50GB"), rbd("different"), key="disk"),
       test_schema("single"), "# forces replacement on whole single block / nested attribute",
       reason="replace_because_cannot_update", replace=[["root_block_device"], ["disk"]])
single(119, "nested-single-deletion", NSI + "in-place update - deletion", "update",
       inst("ami-BEFORE", disk("/var/diska", "50GB"), rbd("gp2"), key="disk"),
       inst("ami-AFTER", None, None, key="disk", root_block_device=None),
       test_schema("single"), "single block and nested attribute deleted")
single(120, "nested-single-dynamic-attr", NSI + "with dynamically-typed attribute", "update",
       {"block": None}, {"block": {"attr": "foo"}},
       BLK(None, {"block": NB("single", BLK({"attr": A("dynamic", optional=True)}))}),
       "single block with dynamic attribute created")
single(121, "nested-single-unknown", NSI + "in-place update - unknown", "update",
       inst("ami-BEFORE", disk("/var/diska", "50GB"), rbd("gp2", "new_value"), key="disk"),
       inst("ami-AFTER", UM, rbd("gp2", "new_value"), key="disk"),
       test_schema("single", plus=True), "single nested attribute -> (known after apply)")
single(122, "nested-single-modification", NSI + "in-place update - modification", "update",
       inst("ami-BEFORE", disk("/var/diska", "50GB"), rbd("gp2", "new_value"), key="disk"),
       inst("ami-AFTER", disk("/var/diska", "25GB"), rbd("gp2", "new_value"), key="disk"),
       test_schema("single", plus=True), "modified attribute inside single nested attribute")

# ---------------------------------------------------- sensitive (marks)
SV = "TestResourceChange_sensitiveVariable/"
def sv_schema(attrs, blocks):
    return BLK(attrs, blocks)
ATTR_O = lambda ty: A(ty, optional=True)
AN_ANOTHER = BLK({"an_attr": ATTR_O(STR), "another": ATTR_O(STR)})
AN = BLK({"an_attr": ATTR_O(STR)})
BASE = {"id": A(STR, optional=True, computed=True), "ami": ATTR_O(STR), "list_field": ATTR_O(LIST(STR)),
        "map_key": ATTR_O(MAP(NUM)), "map_whole": ATTR_O(MAP(STR))}

single(123, "sensitive-create", SV + "creation", "create", None,
       {"id": ID0, "ami": S("ami-123"), "map_key": {"breakfast": 800, "dinner": S(2000)},
        "map_whole": S({"breakfast": "pizza", "dinner": "pizza"}), "list_field": ["hello", S("friends"), "!"],
        "nested_block_list": S([{"an_attr": "secretval", "another": "not secret"}]),
        "nested_block_set": S([{"an_attr": "secretval", "another": "not secret"}])},
       sv_schema(BASE, {"nested_block_list": NB("list", AN_ANOTHER), "nested_block_set": NB("set", AN_ANOTHER)}),
       "(sensitive value) for marked attrs, list elements, map keys; sensitive blocks hide contents")
BS_SCHEMA = sv_schema({**BASE, "special": ATTR_O(BOOL), "some_number": ATTR_O(NUM)},
                      {"nested_block": NB("list", AN), "nested_block_set": NB("set", AN)})
single(124, "sensitive-before-only", SV + "in-place update - before sensitive", "update",
       {"id": ID0, "ami": S("ami-BEFORE"), "special": S(True), "some_number": S(1),
        "list_field": ["hello", "friends", S("!")], "map_key": {"breakfast": 800, "dinner": S(2000)},
        "map_whole": S({"breakfast": "pizza", "dinner": "pizza"}),
        "nested_block": S([{"an_attr": "secretval"}]), "nested_block_set": S([{"an_attr": "secretval"}])},
       {"id": ID0, "ami": "ami-AFTER", "special": False, "some_number": 2,
        "list_field": ["hello", "friends", "."], "map_key": {"breakfast": 800, "dinner": 1900},
        "map_whole": {"breakfast": "cereal", "dinner": "pizza"},
        "nested_block": [{"an_attr": "changed"}], "nested_block_set": [{"an_attr": "changed"}]},
       BS_SCHEMA, "Warning: will no longer be marked as sensitive (attributes, map key, block)")
single(125, "sensitive-after-only", SV + "in-place update - after sensitive", "update",
       {"id": ID0, "list_field": ["hello", "friends"], "map_key": {"breakfast": 800, "dinner": 2000},
        "map_whole": {"breakfast": "pizza", "dinner": "pizza"}, "nested_block_single": {"an_attr": "original"}},
       {"id": ID0, "list_field": [S("goodbye"), "friends"], "map_key": {"breakfast": 700, "dinner": S(2100)},
        "map_whole": S({"breakfast": "cereal", "dinner": "pizza"}), "nested_block_single": S({"an_attr": "changed"})},
       sv_schema({"id": A(STR, optional=True, computed=True), "list_field": ATTR_O(LIST(STR)),
                  "map_key": ATTR_O(MAP(NUM)), "map_whole": ATTR_O(MAP(STR))},
                 {"nested_block_single": NB("single", AN)}),
       "Warning: will be marked as sensitive (attributes, map key, single block)")
single(126, "sensitive-both", SV + "in-place update - both sensitive", "update",
       {"id": ID0, "ami": S("ami-BEFORE"), "list_field": [S("hello"), "friends"],
        "map_key": {"breakfast": 800, "dinner": S(2000)}, "map_whole": S({"breakfast": "pizza", "dinner": "pizza"}),
        "nested_block_map": S({"foo": {"an_attr": "original"}})},
       {"id": ID0, "ami": S("ami-AFTER"), "list_field": [S("goodbye"), "friends"],
        "map_key": {"breakfast": 800, "dinner": S(1800)}, "map_whole": S({"breakfast": "cereal", "dinner": "pizza"}),
        "nested_block_map": S({"foo": {"an_attr": U}})},
       sv_schema(BASE, {"nested_block_map": NB("map", AN)}),
       "sensitive before and after: no warnings; sensitive map block with unknown inside")
single(127, "sensitive-unmarked-value-unchanged", SV + "in-place update - value unchanged, sensitivity changes", "update",
       {"id": ID0, "ami": S("ami-BEFORE"), "special": S(True), "some_number": S(1),
        "list_field": ["hello", "friends", S("!")], "map_key": {"breakfast": 800, "dinner": S(2000)},
        "map_whole": S({"breakfast": "pizza", "dinner": "pizza"}),
        "nested_block": S([{"an_attr": "secretval"}]), "nested_block_set": S([{"an_attr": "secretval"}])},
       {"id": ID0, "ami": "ami-BEFORE", "special": True, "some_number": 1,
        "list_field": ["hello", "friends", "!"], "map_key": {"breakfast": 800, "dinner": 2000},
        "map_whole": {"breakfast": "pizza", "dinner": "pizza"},
        "nested_block": [{"an_attr": "secretval"}], "nested_block_set": [{"an_attr": "secretval"}]},
       BS_SCHEMA, "no longer sensitive warnings with 'The value is unchanged.'")
DEL_SCHEMA = sv_schema(BASE, {"nested_block_set": NB("set", AN_ANOTHER)})
DEL_BEFORE = {"id": ID0, "ami": S("ami-BEFORE"), "list_field": ["hello", S("friends")],
              "map_key": {"breakfast": 800, "dinner": S(2000)}, "map_whole": S({"breakfast": "pizza", "dinner": "pizza"}),
              "nested_block_set": S([{"an_attr": "secret", "another": "not secret"}])}
single(128, "sensitive-destroy", SV + "deletion", "delete", DEL_BEFORE, None, DEL_SCHEMA,
       "destroy with sensitive values and sensitive set block")
single(129, "sensitive-forget", SV + "forget", "forget", DEL_BEFORE, None, DEL_SCHEMA,
       "forget with sensitive values (no symbols)")
single(130, "sensitive-block-forces-replacement", SV + "update with sensitive value forcing replacement", "delete-create",
       {"id": ID0, "ami": S("ami-BEFORE"), "nested_block_set": S([{"an_attr": "secret"}])},
       {"id": ID0, "ami": S("ami-AFTER"), "nested_block_set": S([{"an_attr": "changed"}])},
       sv_schema({"id": A(STR, optional=True, computed=True), "ami": ATTR_O(STR)},
                 {"nested_block_set": NB("set", BLK({"an_attr": A(STR, required=True)}))}),
       "sensitive value # forces replacement; sensitive set block forces replacement",
       replace=[["ami"], ["nested_block_set"]])
single(131, "sensitive-schema-attr-forces-replacement", SV + "update with sensitive attribute forcing replacement", "delete-create",
       {"id": ID0, "ami": "ami-BEFORE"}, {"id": ID0, "ami": "ami-AFTER"},
       BLK({"id": A(STR, optional=True, computed=True), "ami": A(STR, optional=True, computed=True, sensitive=True)}),
       "schema-sensitive attribute forcing replacement", replace=[["ami"]])
single(132, "sensitive-nested-type-forces-replacement", SV + "update with sensitive nested type attribute forcing replacement", "delete-create",
       {"id": ID0, "conn_info": {"user": "not-secret", "password": "top-secret"}},
       {"id": ID0, "conn_info": {"user": "not-secret", "password": "new-secret"}},
       BLK({"id": A(STR, optional=True, computed=True),
            "conn_info": NA("single", {"user": A(STR, optional=True), "password": A(STR, optional=True, sensitive=True)})}),
       "nested attribute with schema-sensitive member forcing replacement",
       replace=[["conn_info"], ["password"]])

# ------------------------------------------- schema-sensitive nested attributes
def sscase(num, slug, key, nesting, before_disks, after_disks, rule, action="update", before_ami="ami-BEFORE", **kw):
    def wrap(d):
        if d is None or isinstance(d, type(U)): return d
        return {"disk_a": d} if nesting == "map" else [d]
    b = {"id": ID0, "ami": before_ami, "disks": wrap(before_disks) if before_disks != "EMPTY" else ({} if nesting == "map" else [])}
    a = {"id": ID0, "ami": "ami-AFTER", "disks": wrap(after_disks)}
    single(num, slug, key, action, b, a, test_schema(nesting, sensitive=True), rule, **kw)

sscase(133, "sensitive-schema-map-update", "TestResourceChange_nestedMapSensitiveSchema/in-place update", "map",
       "EMPTY", disk("/var/diska", None), "schema-sensitive map nested attribute: ~ disks = (sensitive value)")
sscase(134, "sensitive-schema-map-deletion", "TestResourceChange_nestedMapSensitiveSchema/in-place update - deletion", "map",
       disk("/var/diska", "50GB"), None, "schema-sensitive attribute removed: (sensitive value) -> null")
sscase(135, "sensitive-schema-list-force", "TestResourceChange_nestedListSensitiveSchema/force-new update (whole block)", "list",
       disk("/var/diska", "50GB"), disk("/var/diska", "100GB"), "(sensitive value) # forces replacement",
       action="delete-create", reason="replace_because_cannot_update", replace=[["disks"]])
sscase(136, "sensitive-schema-set-unknown", "TestResourceChange_nestedSetSensitiveSchema/in-place update - unknown", "set",
       disk("/var/diska", "50GB"), UL, "schema-sensitive set becoming unknown still renders (sensitive value)")
single(137, "sensitive-schema-list-from-null", "TestResourceChange_nestedListSensitiveSchema/creation from null", "update",
       {"id": None, "ami": None, "disks": None},
       {"id": ID0, "ami": "ami-AFTER", "disks": [disk("/var/diska", None)]},
       test_schema("list", sensitive=True), "attributes null -> value inside an update (+ lines)")

# ------------------------------------------- multi-resource full-output tests
NI = BLK({"ami": A(STR, optional=True)},
         {"network_interface": NB("list", BLK({"device_index": A(NUM, optional=True),
                                               "description": A(STR, optional=True)}))})
NI_VAL = {"ami": "bar", "network_interface": [{"device_index": 0, "description": "Main network interface"}]}
DEPOSED_TEXT = '''
OpenTofu used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  + create
  - destroy

OpenTofu will perform the following actions:

  # test_instance.foo will be created
  + resource "test_instance" "foo" {
      + ami = "bar"

      + network_interface {
          + description  = "Main network interface"
          + device_index = 0
        }
    }

  # test_instance.foo (deposed object 00000000) will be destroyed
  # (left over from a partially-failed replacement of this instance)
  - resource "test_instance" "foo" {
      - ami = "bar" -> null

      - network_interface {
          - description  = "Main network interface" -> null
          - device_index = 0 -> null
        }
    }

Plan: 1 to add, 0 to change, 1 to destroy.
'''
def bodies(text):
    """Split the resource bodies out of a full output (for the framing self-check)."""
    mid = text.split("OpenTofu will perform the following actions:\n\n", 1)[1].split("\n\nPlan:", 1)[0]
    return mid.split("\n\n  # ") if False else None

case("138-deposed-and-create", [
        {"address": "test_instance.foo", "action": "create", "before": None, "after": NI_VAL, "schema": NI,
         "expected": DEPOSED_TEXT.split("\n\n  # test_instance.foo (deposed")[0].split("actions:\n\n")[1]},
        {"address": "test_instance.foo", "action": "delete", "before": NI_VAL, "after": None, "schema": NI,
         "deposed": "00000000",
         "expected": "  # test_instance.foo (deposed" + DEPOSED_TEXT.split("\n\n  # test_instance.foo (deposed")[1].split("\n\nPlan:")[0]}],
     test="TestLocal_planDeposedOnly", expected_full=DEPOSED_TEXT,
     rule="current object created while a deposed object is destroyed; list block; legend with two actions; blank line before blocks")

OUT_TEXT = '''
Changes to Outputs:
  + added            = "after"
  ~ changed          = "before" -> "after"
  - removed          = "before" -> null
  ~ sensitive_after  = (sensitive value)
  ~ sensitive_before = (sensitive value)

You can apply this plan to save these new output values to the OpenTofu
state, without changing any real infrastructure.
'''
case("139-outputs-only", [], test="TestLocal_planOutputsChanged",
     rule="only output changes: Changes to Outputs + 'You can apply this plan' paragraph; name padding; sensitive outputs; no-op output skipped",
     outputs=[
        {"name": "added", "action": "create", "before": None, "after": "after", "render": '  + added            = "after"'},
        {"name": "changed", "action": "update", "before": "before", "after": "after", "render": '  ~ changed          = "before" -> "after"'},
        {"name": "removed", "action": "delete", "before": "before", "after": None, "render": '  - removed          = "before" -> null'},
        {"name": "sensitive_after", "action": "update", "before": "before", "after": "after", "sensitive": True, "render": "  ~ sensitive_after  = (sensitive value)"},
        {"name": "sensitive_before", "action": "update", "before": "before", "after": "after", "sensitive": True, "render": "  ~ sensitive_before = (sensitive value)"},
        {"name": "unchanged", "action": "noop", "before": "before", "after": "before"}],
     expected_full=OUT_TEXT)

SIMPLE_RES = BLK({"id": A(STR, computed=True), "value": A(STR, optional=True),
                  "value_wo": {"type": STR, "description_kind": "plain", "optional": True, "write_only": True}},
                 {"nested_block": NB("single", BLK({"nested_block_attr": {"type": STR, "description_kind": "plain", "optional": True, "write_only": True}}))})
SIMPLE_DS = BLK({"id": A(STR, computed=True), "value": A(STR, optional=True)})
EPH_TEXT = '''
OpenTofu used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  + create
 <= read (data resources)

OpenTofu will perform the following actions:

  # simple_resource.test_res will be created
  + resource "simple_resource" "test_res" {
      + id       = (known after apply)
      + value    = "test value"
      + value_wo = (write-only attribute)
    }

  # simple_resource.test_res_second_provider will be created
  + resource "simple_resource" "test_res_second_provider" {
      + id       = (known after apply)
      + value    = "just a simple resource to ensure that the second provider it's working fine"
      + value_wo = (write-only attribute)
    }

  # module.call.data.simple_resource.deferred_data will be read during apply
  # (depends on a resource or a module with changes pending)
 <= data "simple_resource" "deferred_data" {
      + id    = (known after apply)
      + value = "hardcoded"
    }

Plan: 2 to add, 0 to change, 0 to destroy.

Changes to Outputs:
  + final_output = "just a simple resource to ensure that the second provider it's working fine"
'''
_eb = EPH_TEXT.split("actions:\n\n")[1].split("\n\nPlan:")[0].split("\n\n")
SECOND = "just a simple resource to ensure that the second provider it's working fine"
case("140-write-only-read-and-outputs", [
        {"address": "simple_resource.test_res", "action": "create", "before": None,
         "after": {"id": U, "value": "test value", "value_wo": None, "nested_block": None}, "schema": SIMPLE_RES, "expected": _eb[0]},
        {"address": "simple_resource.test_res_second_provider", "action": "create", "before": None,
         "after": {"id": U, "value": SECOND, "value_wo": None, "nested_block": None}, "schema": SIMPLE_RES, "expected": _eb[1]},
        {"address": "module.call.data.simple_resource.deferred_data", "action": "read", "before": None,
         "after": {"id": U, "value": "hardcoded"}, "schema": SIMPLE_DS, "reason": "read_because_dependency_pending",
         "expected": _eb[2]}],
     test="e2etest/primary_test.go TestEphemeralWorkflowAndOutput",
     rule="(write-only attribute); data source read in a module with before null; create + read legend; outputs after Plan line",
     outputs=[{"name": "final_output", "action": "create", "before": None, "after": SECOND,
               "render": '  + final_output = "' + SECOND + '"'}],
     expected_full=EPH_TEXT)

DS_TEXT = '''
OpenTofu used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  + create
 <= read (data resources)

OpenTofu will perform the following actions:

  # data.test_data_source.bar will be read during apply
 <= data "test_data_source" "bar" {
      + bar = "foo"
      + id  = "C6743020-40BD-4591-81E6-CD08494341D3"
    }

  # test_resource.foo will be created
  + resource "test_resource" "foo" {
      + foo = "bar"
      + id  = (known after apply)
    }

Plan: 1 to add, 0 to change, 0 to destroy.
'''
_db = DS_TEXT.split("actions:\n\n")[1].split("\n\nPlan:")[0].split("\n\n")
case("141-data-read-and-create", [
        {"address": "data.test_data_source.bar", "action": "read", "before": None,
         "after": {"id": "C6743020-40BD-4591-81E6-CD08494341D3", "bar": "foo"},
         "schema": BLK({"id": A(STR, computed=True), "bar": A(STR, optional=True)}), "expected": _db[0]},
        {"address": "test_resource.foo", "action": "create", "before": None, "after": {"id": U, "foo": "bar"},
         "schema": BLK({"id": A(STR, computed=True), "foo": A(STR, optional=True)}), "expected": _db[1]}],
     test="views/operation_test.go TestOperation_planWithDatasource",
     rule="data source read (known values, before null) listed before a managed create; Plan line ignores reads",
     expected_full=DS_TEXT)

# ------------------------------------------------------------------- state
ST_RES = BLK({"id": A(STR, computed=True), "foo": A(STR, optional=True), "woozles": A(STR, optional=True)},
             {"nested": NB("list", BLK({"compute": A(STR, optional=True), "value": A(STR, optional=True)}))})
ST_DS = BLK({"compute": A(STR, optional=True), "value": A(STR, computed=True)})
BAZ = {"address": "test_resource.baz[0]", "schema": ST_RES, "values": {"woozles": "confuzles"}}
BAZ_N = {"address": "test_resource.baz[0]", "schema": ST_RES,
         "values": {"woozles": "confuzles", "nested": [{"value": "42"}]}}
def state_case(name, test, rule, resources, outputs=None, text=None):
    c = {"name": name, "resources": [], "state": True, "state_resources": resources, "test": test,
         "rule": rule, "expected_full": text if text is not None else up(test)}
    if outputs: c["state_outputs"] = outputs
    CASES.append(c)

state_case("142-state-empty", "TestState (case 0, empty state)", "state: empty state message", [],
           text="The state file is empty. No resources are represented.\n")
state_case("143-state-basic", "TestState/basicStateOutput",
           "state: data + managed resource with count index, null attributes omitted, Outputs section",
           [{"address": "data.test_data_source.data", "schema": ST_DS, "values": {"compute": "sure"}}, BAZ],
           outputs={"bar": {"sensitive": False, "value": "bar value", "type": "string"}})
state_case("144-state-nested-block", "TestState/nestedStateOutput", "state: nested list block", [BAZ_N])
state_case("145-state-deposed", "TestState/deposedNestedStateOutput", "state: current and deposed object",
           [BAZ_N, dict(BAZ_N, deposed="1234")])
state_case("146-state-only-deposed", "TestState/onlyDeposedOutput", "state: two deposed objects only",
           [dict(BAZ_N, deposed="1234"), dict(BAZ_N, deposed="5678")])
state_case("147-state-outputs", "TestState/stateWithMoreOutputsOutput",
           "state: outputs of several types sorted by name, sensitive output, map output",
           [BAZ], outputs={
               "bool_var": {"sensitive": False, "value": True, "type": "bool"},
               "int_var": {"sensitive": False, "value": 42, "type": "number"},
               "map_var": {"sensitive": False, "value": {"first": "foo", "second": "bar"}, "type": ["map", "string"]},
               "sensitive_var": {"sensitive": True, "value": "secret!!!", "type": "string"},
               "string_var": {"sensitive": False, "value": "string value", "type": "string"}})

# ------------------------------------------------------------------------
# Derived cases: no upstream test prints these exact texts; the expected
# output is assembled from format strings in plan.go (resourceChangeComment,
# actionDescription) around bodies that ARE verbatim from upstream tests.
# ------------------------------------------------------------------------
def derived(name, resources, rule, src, **kw):
    return case(name, resources, test=None, rule=rule + " — DERIVED from " + src, **kw)

EMPTY_DEL_BODY = '  - resource "test_instance" "{n}" {{}}'
derived("148-delete-no-move-target", [
    {"address": "test_instance.b", "previous_address": "test_instance.a", "action": "delete", "before": {},
     "after": None, "schema": EMPTY, "reason": "delete_because_no_move_target",
     "expected": "  # test_instance.b will be destroyed\n"
                 "  # (because test_instance.a was moved to test_instance.b, which is not in configuration)\n"
                 "  # (moved from test_instance.a)\n" + EMPTY_DEL_BODY.format(n="b")}],
    "delete because no move target, followed by (moved from …)", "plan.go:534-535,600-602")
derived("149-delete-enabled-false", [
    {"address": "test_instance.example", "action": "delete", "before": {}, "after": None, "schema": EMPTY,
     "reason": "delete_because_enabled_false",
     "expected": "  # test_instance.example will be destroyed\n  # (because enabled is false)\n"
                 + EMPTY_DEL_BODY.format(n="example")}],
    "delete because enabled is false", "plan.go:522-523")
derived("150-replace-by-triggers", [
    {"address": "test_instance.example", "action": "delete-create", "before": {}, "after": {}, "schema": EMPTY,
     "reason": "replace_by_triggers",
     "expected": "  # test_instance.example will be replaced due to changes in replace_triggered_by\n"
                 '-/+ resource "test_instance" "example" {}'}],
    "replace due to replace_triggered_by", "plan.go:470-471")
derived("151-read-check-nested", [
    {"address": "data.test_instance.example", "action": "read", "before": {"name": "name"},
     "after": {"name": "name"}, "schema": BLK({"name": A(STR, optional=True)}), "reason": "read_because_check_nested",
     "expected": up(PT + "read during apply for unspecified reason").replace(
         "will be read during apply\n", "will be read during apply\n  # (config will be reloaded to verify a check block)\n")}],
    "read because check nested", "plan.go:446-447")
derived("152-forget-lifecycle-config", [
    {"address": "test_instance.example", "action": "forget", "before": {}, "after": None, "schema": EMPTY,
     "reason": "forgot_because_lifecycle_destroy_in_config",
     "expected": "  # test_instance.example will be removed from the OpenTofu state but will not be destroyed \n"
                 " (because lifecycle.destroy = false is set in the configuration)\n"
                 + up(AR + "forget for no particular reason").split("\n", 1)[1]}],
    "forget because lifecycle.destroy = false in config (note the trailing space and the unprefixed line)",
    "plan.go:556-567")
derived("153-forget-lifecycle-state", [
    {"address": "test_instance.example", "action": "forget", "before": {}, "after": None, "schema": EMPTY,
     "reason": "forgot_because_lifecycle_destroy_in_state",
     "expected": "  # test_instance.example will be removed from the OpenTofu state but will not be destroyed \n"
                 " (because lifecycle.destroy = false was configured before this resource was removed from the configuration)\n"
                 + up(AR + "forget for no particular reason").split("\n", 1)[1]}],
    "forget because lifecycle.destroy = false persisted in state", "plan.go:556-567")
derived("154-forget-then-create", [
    {"address": "test_instance.example", "action": "forget-create", "before": {}, "after": {}, "schema": EMPTY,
     "expected": "  # test_instance.example must be replaced - older instance will not be destroyed (lifecycle.destroy = false)\n"
                 '  ./+ resource "test_instance" "example" {}'}],
    "forget-then-create: ./+ symbol and legend, Plan line with forget count", "plan.go:577-597, 619-641; renderers/util.go:92-93")
derived("155-forget-then-create-tainted", [
    {"address": "test_instance.example", "action": "forget-create", "before": {}, "after": {}, "schema": EMPTY,
     "reason": "replace_because_tainted",
     "expected": "  # test_instance.example is tainted, so it must be replaced - older instance will not be destroyed (lifecycle.destroy = false)\n"
                 '  ./+ resource "test_instance" "example" {}'}],
    "forget-then-create of a tainted object", "plan.go:577-597")

def readdress(text, typ):
    return text.replace("test_instance.example", typ + ".example").replace('"test_instance" "example"', '"' + typ + '" "example"')

derived("156-all-actions-legend", [
    {"address": "data.test_f.example", "action": "read", "before": {"name": "name"}, "after": {"name": "name"},
     "schema": BLK({"name": A(STR, optional=True)}), "expected": readdress(up(PT + "read during apply for unspecified reason"), "test_f")},
    {"address": "test_a.example", "action": "create", "before": None, "after": {"id": U}, "schema": BLK(ID_C),
     "expected": readdress(up(PT + "creation"), "test_a")},
    {"address": "test_b.example", "action": "update", "before": {"id": ID0, "ami": "ami-BEFORE"},
     "after": {"id": ID0, "ami": "ami-AFTER"}, "schema": BLK(ID_AMI), "expected": readdress(up(PT + "string in-place update"), "test_b")},
    {"address": "test_c.example", "action": "delete", "before": {"id": ID0}, "after": None, "schema": BLK(ID_C),
     "expected": readdress(up(PT + "deletion"), "test_c")},
    {"address": "test_d.example", "action": "delete-create", "before": {"id": ID0, "ami": "ami-BEFORE"},
     "after": {"id": ID0, "ami": "ami-AFTER"}, "schema": BLK(ID_AMI), "reason": "replace_because_cannot_update",
     "replace_paths": [["ami"]], "expected": readdress(up(PT + "string force-new update"), "test_d")},
    {"address": "test_e.example", "action": "create-delete", "before": {}, "after": {}, "schema": EMPTY,
     "expected": readdress(up(AR + "replace for no particular reason (create first)"), "test_e")},
    {"address": "test_g.example", "action": "forget", "before": {"id": ID0}, "after": None, "schema": BLK(ID_C),
     "expected": readdress(up(PT + "forget"), "test_g")},
    {"address": "test_h.example", "action": "noop", "before": {"id": ID0}, "after": {"id": ID0}, "schema": BLK(ID_C),
     "expected": None}],
    "every legend line in its fixed order; bodies in plan order; no-op hidden; Plan line with forget count",
    "plan.go:195-278 with bodies from TestResourceChange_primitiveTypes/actionReason")

# -------------------------------------------------------------- drift
DR_SCHEMA = BLK({"id": A(STR, optional=True, computed=True), "ami": A(STR, optional=True),
                 "instance_type": A(STR, optional=True)})
def drv(ami, it): return {"id": ID0, "ami": ami, "instance_type": it}
DRIFT_BODY = '''  # test_instance.example has changed
  ~ resource "test_instance" "example" {
      ~ ami           = "ami-A" -> "ami-B"
        id            = "i-02ae66f368e8518a9"
        # (1 unchanged attribute hidden)
    }'''
CHANGE_BODY = '''  # test_instance.example will be updated in-place
  ~ resource "test_instance" "example" {
      ~ ami           = "ami-B" -> "ami-A"
        id            = "i-02ae66f368e8518a9"
        # (1 unchanged attribute hidden)
    }'''
derived("157-drift-relevant-update", [
    {"address": "test_instance.example", "action": "update", "before": drv("ami-B", "t2.large"),
     "after": drv("ami-A", "t2.large"), "schema": DR_SCHEMA, "expected": CHANGE_BODY}],
    "drift section (has changed) with only relevant attributes shown, horizontal rule, then the plan; hidden attribute counts for alignment",
    "plan.go:322-376 (renderHumanDiffDrift), 190-193; diff.go:17-55; differ/block.go:143-146 (non-relevant = unchanged)",
    drift=[{"address": "test_instance.example", "action": "update", "before": drv("ami-A", "t2.micro"),
            "after": drv("ami-B", "t2.large"), "schema": DR_SCHEMA}],
    drift_text=[DRIFT_BODY],
    relevant_attributes=[{"resource": "test_instance.example", "attribute": ["ami"]}])
derived("158-drift-irrelevant-hidden", [
    {"address": "test_instance.example", "action": "update", "before": drv("ami-A", "t2.large"),
     "after": drv("ami-B", "t2.large"), "schema": DR_SCHEMA,
     "expected": CHANGE_BODY.replace('"ami-B" -> "ami-A"', '"ami-A" -> "ami-B"')}],
    "drift touching only non-relevant attributes is a no-op and is not shown",
    "plan.go:326-340; differ/block.go:143-146",
    drift=[{"address": "test_instance.example", "action": "update", "before": drv("ami-A", "t2.micro"),
            "after": drv("ami-A", "t2.large"), "schema": DR_SCHEMA}],
    relevant_attributes=[{"resource": "test_instance.example", "attribute": ["ami"]}])
derived("159-drift-only-no-changes", [
    {"address": "test_instance.example", "action": "noop", "before": drv("ami-A", "t2.large"),
     "after": drv("ami-A", "t2.large"), "schema": DR_SCHEMA, "expected": None}],
    "only drift (no planned change): drift is not shown in normal mode, plain No changes. text",
    "plan.go:342-346 (diffs.Empty), 105-188",
    drift=[{"address": "test_instance.example", "action": "update", "before": drv("ami-A", "t2.micro"),
            "after": drv("ami-A", "t2.large"), "schema": DR_SCHEMA}],
    relevant_attributes=[{"resource": "test_instance.example", "attribute": ["instance_type"]}])

# ------------------------------------------------------------ outputs
LIST_OUT = up("TestOutputChanges/element added to list") if "TestOutputChanges/element added to list" in UPSTREAM else None
derived("160-create-with-outputs", [
    {"address": "test_instance.example", "action": "create", "before": None, "after": {"id": U},
     "schema": BLK(ID_C), "expected": up(PT + "creation")}],
    "Changes to Outputs after the Plan line: unknown output, list output diff, sensitive output, deleted output; name padding; no 'You can apply' paragraph",
    "plan.go:280-319 with output renderings from TestOutputChanges",
    outputs=[
        {"name": "foo", "action": "update", "before": ["alpha", "beta", "delta", "epsilon"],
         "after": ["alpha", "beta", "gamma", "delta", "epsilon"],
         "render": '  ~ foo    = [\n        # (1 unchanged element hidden)\n        "beta",\n      + "gamma",\n        "delta",\n        # (1 unchanged element hidden)\n    ]'},
        {"name": "id", "action": "create", "before": None, "after": U, "render": "  + id     = (known after apply)"},
        {"name": "old", "action": "delete", "before": "bar", "after": None, "render": '  - old    = "bar" -> null'},
        {"name": "secret", "action": "update", "before": "hunter2", "after": "correct-horse-battery-staple",
         "sensitive": True, "render": "  ~ secret = (sensitive value)"}])

# ------------------------------------------------- --flavor terraform
TF = dict(args=["--flavor", "terraform"], provider="registry.terraform.io/hashicorp/test", terraform_version="1.15.9")
TFT = "terraform-v1.15.9/"
_tfb = up(TFT + "views/TestOperation_planWithDatasource").split("actions:\n\n")[1].split("\n\nPlan:")[0].split("\n\n")
TR_SCHEMA = BLK({"id": A(STR, computed=True), "foo": A(STR, optional=True)})
case("161-flavor-terraform-create", [
        {"address": "test_resource.foo", "action": "create", "before": None, "after": {"id": U, "foo": "bar"},
         "schema": TR_SCHEMA, "expected": _tfb[1]}],
     test="hashicorp/terraform v1.15.9 internal/command/views/operation_test.go TestOperation_plan",
     rule="--flavor terraform: Terraform wording of legend and actions header",
     expected_full=up(TFT + "views/TestOperation_plan"), **TF)
case("162-flavor-terraform-data-read", [
        {"address": "data.test_data_source.bar", "action": "read", "before": None,
         "after": {"id": "C6743020-40BD-4591-81E6-CD08494341D3", "bar": "foo"},
         "schema": BLK({"id": A(STR, computed=True), "bar": A(STR, optional=True)}), "expected": _tfb[0]},
        {"address": "test_resource.foo", "action": "create", "before": None, "after": {"id": U, "foo": "bar"},
         "schema": TR_SCHEMA, "expected": _tfb[1]}],
     test="hashicorp/terraform v1.15.9 internal/command/views/operation_test.go TestOperation_planWithDatasource",
     rule="--flavor terraform with a data source read",
     expected_full=up(TFT + "views/TestOperation_planWithDatasource"), **TF)
case("163-flavor-terraform-no-changes", [], test="hashicorp/terraform v1.15.9 internal/command/jsonformat/plan_test.go TestRenderHuman_EmptyPlan",
     rule="--flavor terraform: No changes. text (different word wrap)",
     expected_full=up(TFT + "jsonformat/TestRenderHuman_EmptyPlan"), **TF)

# ----------------------------------------------------- more derived cases
derived("164-outputs-type-change", [],
    "output type changes (string -> number, object -> array) render as `before -> after` with no null suffix",
    "computed/renderers/type_change.go:30-33, renderer_test.go output_map_to_list, plan.go:280-319",
    outputs=[
        {"name": "a", "action": "update", "before": "old", "after": 4, "render": '  ~ a = "old" -> 4'},
        {"name": "b", "action": "update", "before": {"element_one": 0, "element_two": 1}, "after": [0, 1],
         "render": "  ~ b = {\n      - element_one = 0\n      - element_two = 1\n    } -> [\n      + 0,\n      + 1,\n    ]"}])
c = derived("165-errored-plan", [
    {"address": "test_instance.example", "action": "create", "before": None, "after": {"id": U},
     "schema": BLK(ID_C), "expected": up(PT + "creation")}],
    "errored plan: 'OpenTofu planned the following actions, but then encountered a problem:'",
    "plan.go:226-230; views/show.go:198-200 (plan.Errored -> plans.Errored quality)")
c["errored"] = True
c["expected_full"] = frame(c, [{"mode": "managed"}]).replace(
    "\nOpenTofu will perform the following actions:\n",
    "\nOpenTofu planned the following actions, but then encountered a problem:\n")
c = derived("166-errored-plan-no-changes", [],
    "errored plan without changes: 'Planning failed.' instead of 'No changes.'", "plan.go:113-119")
c["errored"] = True
c["expected_full"] = "\nPlanning failed. OpenTofu encountered an error while generating this plan.\n\n"

# ---------------------------------------------------------- breadth extras
single(167, "create-null-string-whitespace", PT + "creation (null string with extra whitespace)", "create", None,
       {"string": "null "}, BLK({"string": A(STR, optional=True)}), "string \"null \" keeps its whitespace")
jcase(168, "json-to-empty-tuple", "in-place update (to empty tuple)", '{"aaa": ["value"]}', '{"aaa": []}',
      "jsonencode tuple emptied")
jcase(169, "json-list-addition", "JSON list item addition", '["first","second"]', '["first","second","third"]',
      "jsonencode list element added at the end")
jcase(170, "json-object-addition", "JSON list object addition", '{"first":"111"}', '{"first":"111","second":"222"}',
      "jsonencode object attribute added")
jcase(171, "json-list-of-objects-add", "JSON list of objects - adding item", '[{"one": "111"}]',
      '[{"one": "111"}, {"two": "222"}]', "jsonencode list of objects: unchanged object shown in full, new object")
jcase(172, "json-object-list-of-objects", "JSON object with list of objects", '{"parent":[{"one": "111"}]}',
      '{"parent":[{"one": "111"}, {"two": "222"}]}', "jsonencode object holding a list of objects")
ccase(173, "list-first-addition", PL + "in-place update - first addition", "list_field", LIST(STR), [], ["new-element"],
      "empty list -> one element")
ccase(174, "list-full-to-empty", PL + "in-place update - full to empty", "list_field", LIST(STR),
      ["aaaa", "bbbb", "cccc"], [], "list emptied: all elements removed, no null suffix")
ccase(175, "list-unknown-element", PL + "update to unknown element", "list_field", LIST(STR),
      ["aaaa", "bbbb", "cccc"], ["aaaa", U, "cccc"], "one list element becomes unknown")
ccase(176, "set-first-insertion", PS + "in-place update - first insertion", "set_field", SET(STR), [], ["new-element"],
      "empty set -> one element")
ccase(177, "set-full-to-empty", PS + "in-place update - full to empty set", "set_field", SET(STR), ["aaaa", "bbbb"], [],
      "set emptied")
ccase(178, "set-null-to-empty", PS + "in-place update - null to empty set", "set_field", SET(STR), None, [],
      "null -> empty set")
ccase(179, "map-first-insertion", MP + "in-place update - first insertion", "map_field", MAP(STR), {},
      {"new-key": "new-element", "be:ep": "boop"}, "empty map -> two elements")
single(180, "nested-list-first-insertion", NL + "in-place update - first insertion", "update",
       inst("ami-BEFORE", [], []), inst("ami-AFTER", [disk("/var/diska", None)], [rbd("gp2")]),
       test_schema("list"), "first element of a list nested attribute and list block")
single(181, "nested-set-null-insertion", NS + "in-place update - null insertion", "update",
       inst("ami-BEFORE", None, [rbd("gp2", None)]),
       inst("ami-AFTER", [disk("/var/diska", "50GB")], [rbd("gp2", "new_value")]),
       test_schema("set", plus=True), "null nested set -> set (+ disks = [ ... ])")
single(182, "nested-map-creation", NM + "in-place update - creation", "update",
       inst("ami-BEFORE", {}, {}), inst("ami-AFTER", {"disk_a": disk("/var/diska", None)}, {"a": rbd("gp2")}),
       test_schema("map"), "empty map nested attribute/map block -> one element")
single(183, "nested-map-deletion", NM + "in-place update - deletion", "update",
       inst("ami-BEFORE", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2", "new_value")}),
       inst("ami-AFTER", {}, {}), test_schema("map", plus=True), "map element and labelled block deleted")
single(184, "nested-map-unknown", NM + "in-place update - unknown", "update",
       inst("ami-BEFORE", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2", "new_value")}),
       inst("ami-AFTER", UM, {"a": rbd("gp2", "new_value")}), test_schema("map", plus=True),
       "map nested attribute becomes unknown")
single(185, "nested-map-multiple-unchanged-blocks", NM + "in-place update - multiple unchanged blocks", "update",
       inst("ami-BEFORE", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2"), "b": rbd("gp2")}),
       inst("ami-AFTER", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2"), "b": rbd("gp2")}),
       test_schema("map"), "(2 unchanged blocks hidden) after (1 unchanged attribute hidden)")
single(186, "nested-map-first-block-changed", NM + "in-place update - multiple blocks first changed", "update",
       inst("ami-BEFORE", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2"), "b": rbd("gp2")}),
       inst("ami-AFTER", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2"), "b": rbd("gp3")}),
       test_schema("map"), "one of two labelled blocks changed")
single(187, "nested-map-mixed-unchanged", NM + "in-place update - mixed blocks unchanged", "update",
       inst("ami-BEFORE", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2"), "b": rbd("gp2")},
            leaf_block_device={"a": rbd("gp2"), "b": rbd("gp2")}),
       inst("ami-AFTER", {"disk_a": disk("/var/diska", "50GB")}, {"a": rbd("gp2"), "b": rbd("gp2")},
            leaf_block_device={"a": rbd("gp2"), "b": rbd("gp2")}),
       test_schema("map", multiple=True), "(4 unchanged blocks hidden) across two block types")
arcase(188, "replace-no-reason-delete-first", "replace for no particular reason (delete first)", "delete-create",
       None, "delete-then-create without reason")
arcase(189, "replace-tainted-delete-first", "replace because tainted (delete first)", "delete-create",
       "replace_because_tainted", "tainted, delete first, empty schema")
arcase(190, "replace-cannot-update-create-first", "replace because cannot update (create first)", "create-delete",
       "replace_because_cannot_update", "cannot update, create first")
arcase(191, "forget-no-reason", "forget for no particular reason", "forget", None, "forget with empty schema")
arcase(192, "forget-no-resource-config", "forget because no resource configuration", "forget",
       "delete_because_no_resource_config", "forget in a module, reason not shown",
       addr="module.foo.test_instance.example")
sscase(193, "sensitive-schema-set-update", "TestResourceChange_nestedSetSensitiveSchema/in-place update", "set",
       "EMPTY", disk("/var/diska", None), "schema-sensitive set nested attribute updated")
sscase(194, "sensitive-schema-map-force", "TestResourceChange_nestedMapSensitiveSchema/force-new update (whole block)", "map",
       disk("/var/diska", "50GB"), disk("/var/diska", "100GB"), "schema-sensitive map forces replacement",
       action="delete-create", reason="replace_because_cannot_update", replace=[["disks"]])
sscase(195, "sensitive-schema-list-unknown", "TestResourceChange_nestedListSensitiveSchema/in-place update - unknown", "list",
       disk("/var/diska", "50GB"), UL, "schema-sensitive list becomes unknown")
state_case("196-state-aligned-attributes", None,
           "state: attribute alignment in a state resource (from command/test_test.go TestTest_Verbose, state part)",
           [{"address": "test_resource.foo", "schema": BLK({"id": A(STR, optional=True, computed=True), "value": A(STR, optional=True)}),
             "values": {"id": "constant_value", "value": "bar"}}],
           text='# test_resource.foo:\nresource "test_resource" "foo" {\n    id    = "constant_value"\n    value = "bar"\n}\n')
CASES[-1]["test"] = "command/test_test.go TestTest_Verbose (state rendering lines)"

# -------------------------------------------------- --mode (not in the JSON)
RULE77 = "─" * 77
c = derived("197-refresh-only-no-changes", [], "refresh-only mode without drift: 'still matches' text",
            "plan.go:123-133", args=["--mode", "refresh-only"])
c["expected_full"] = ("\nNo changes. Your infrastructure still matches the configuration.\n\n"
                      "OpenTofu has checked that the real remote objects still match the result of\n"
                      "your most recent changes, and found no differences.\n")
c = derived("198-destroy-mode-no-changes", [], "destroy mode with nothing to destroy", "plan.go:134-142",
            args=["--mode", "destroy"])
c["expected_full"] = ("\nNo changes. No objects need to be destroyed.\n\n"
                      "Either you have not created any objects yet or the existing objects were\n"
                      "already deleted outside of OpenTofu.\n")
REFRESH_EPILOGUE = ("\n\nThis is a refresh-only plan, so OpenTofu will not take any actions to undo\n"
                    "these. If you were expecting these changes then you can apply this plan to\n"
                    "record the updated values in the OpenTofu state without changing any remote\n"
                    "objects.\n")
DRIFT_HEAD = ("\nNote: Objects have changed outside of OpenTofu\n\n"
              "OpenTofu detected the following changes made outside of OpenTofu since the\n"
              "last \"tofu apply\" which may have affected this plan:\n")
RO_UPDATE = '''  # test_instance.example has changed
  ~ resource "test_instance" "example" {
      ~ ami           = "ami-A" -> "ami-B"
        id            = "i-02ae66f368e8518a9"
      ~ instance_type = "t2.micro" -> "t2.large"
    }'''
RO_DELETE = '''  # test_instance.gone has been deleted
  - resource "test_instance" "gone" {
      - ami           = "ami-A" -> null
      - id            = "i-0123456789abcdef0" -> null
      - instance_type = "t2.micro" -> null
    }'''
c = derived("199-refresh-only-drift", [],
            "refresh-only mode: every drifted attribute shown (no relevance filter), has changed / has been deleted, refresh-only epilogue, nothing after",
            "plan.go:322-376, 123-130 (return after drift); diff.go:24-27 (AlwaysMatcher)",
            args=["--mode", "refresh-only"],
            drift=[{"address": "test_instance.example", "action": "update", "before": drv("ami-A", "t2.micro"),
                    "after": drv("ami-B", "t2.large"), "schema": DR_SCHEMA},
                   {"address": "test_instance.gone", "action": "delete",
                    "before": {"id": "i-0123456789abcdef0", "ami": "ami-A", "instance_type": "t2.micro"},
                    "after": None, "schema": DR_SCHEMA}])
c["expected_full"] = DRIFT_HEAD + "\n" + RO_UPDATE + "\n" + "\n" + RO_DELETE + "\n" + REFRESH_EPILOGUE
MOVED_DRIFT = '''  # test_instance.anywhere has moved to test_instance.somewhere
    resource "test_instance" "somewhere" {
        id  = "1234"
        # (1 unchanged attribute hidden)
    }'''
c = derived("200-refresh-only-moved", [],
            "refresh-only mode shows move-only drift (has moved to)",
            "plan.go:326-333; wording as views/operation_test.go 'move-only changes in refresh-only mode'",
            args=["--mode", "refresh-only"],
            drift=[{"address": "test_instance.somewhere", "previous_address": "test_instance.anywhere", "action": "noop",
                    "before": {"id": "1234", "foo": "bar"}, "after": {"id": "1234", "foo": "bar"},
                    "schema": BLK({"id": A(STR, computed=True), "foo": A(STR, optional=True)})}])
c["expected_full"] = DRIFT_HEAD + "\n" + MOVED_DRIFT + "\n" + REFRESH_EPILOGUE
c = derived("201-destroy-mode-plan", [
    {"address": "test_instance.example", "action": "delete", "before": {"id": "i-02ae66f368e8518a9"}, "after": None,
     "schema": BLK(ID_C), "expected": up(PT + "deletion")}],
    "destroy mode with a planned destroy renders like a normal plan", "plan.go:195-278",
    args=["--mode", "destroy"])
