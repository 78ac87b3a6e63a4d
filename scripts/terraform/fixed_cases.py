"""The fixed cases of the differential suite (suite.py runs them before the generated ones, on every
Terraform of the version matrix): one or more per version rule of docs/rendering.md ("Version
rules"). Each is (name, origin, configuration A, configuration B, plan flags, mode).
"""

# Fixed cases: one or more per version rule of docs/rendering.md ("Version rules"), run before
# the generated ones by every Terraform of the matrix. (name, configuration A, configuration B,
# plan flags, mode)


def _data(name, a, b=None, extra=""):
    """A `terraform_data` resource with `input = a` (and `b` in the second configuration)."""
    ra = f'resource "terraform_data" "{name}" {{\n  input = {a}\n}}\n{extra}'
    rb = f'resource "terraform_data" "{name}" {{\n  input = {a if b is None else b}\n}}\n{extra}'
    return ra, rb


def _out(name, a, b, sensitive=False):
    s = "\n  sensitive = true" if sensitive else ""
    return (f'output "{name}" {{\n  value = {a}{s}\n}}\n', f'output "{name}" {{\n  value = {b}{s}\n}}\n')


FIXED = [
    # same-length lists: element by element since 1.8.0 (hashicorp/terraform#34677)
    ("list-same-length", *_data("l", '["a", "b", "c"]', '["a", "x", "c"]')),
    ("list-same-length-all-changed", *_data("l", '["a", "b"]', '["c", "d"]')),
    ("list-reordered", *_data("l", '["a", "b", "c"]', '["c", "a", "b"]')),
    ("list-grown", *_data("l", '["a", "b"]', '["a", "x", "b"]')),
    ("nested-lists-same-length", *_data("l", '[["a", "b"], ["c"]]', '[["a", "x"], ["d"]]')),
    ("list-of-objects-same-length", *_data("l", '[{ k = "a" }, { k = "b" }]', '[{ k = "a" }, { k = "z" }]')),
    ("multiline-same-line-count", *_data("m", '"one\\ntwo\\nthree\\n"', '"one\\nTWO\\nthree\\n"')),
    ("multiline-lines-added", *_data("m", '"one\\ntwo\\n"', '"one\\nnew\\ntwo\\n"')),
    ("output-list-same-length", *_out("o", '["a", "b"]', '["a", "c"]')),
    # a JSON document followed by text: jsonencode(...) from 1.7.4 to 1.8.0 (#34702, #34959)
    ("json-prefixed-text", *_data("j", '"{\\"a\\":1}\\nmore\\n"', '"[1, 2] and more"')),
    # numbers: exact since 1.7.5/1.8.0 (hashicorp/terraform#34702), float64 before
    ("number-beyond-float64", *_data("n", "9007199254740993", "9007199254740995")),
    ("number-beyond-int64", *_data("n", "12345678901234567890", "1e21")),
    ("number-fraction", *_data("n", "0.1", "3.5")),
    ("output-big-number", *_out("o", "9007199254740993", "[9007199254740993, 1]")),
    # "" and null: a value in a non-legacy schema since 1.8.0 (hashicorp/terraform#34740)
    ("empty-string-created", 'resource "terraform_data" "e" {\n  input = "x"\n}\n',
     'resource "terraform_data" "e" {\n  input = ""\n}\nresource "terraform_data" "f" {\n  input = ""\n}\n'),
    ("empty-string-to-value", *_data("e", '""', '"x"')),
    ("empty-string-nested", *_data("e", '{ a = "", b = ["", "x"] }', '{ a = "y", b = ["", "z"] }')),
    ("empty-string-outputs", *_out("o", '""', '"x"')),
    ("empty-string-sensitive-output", *_out("s", '""', '"x"', sensitive=True)),
    ("empty-string-destroyed", 'resource "terraform_data" "e" {\n  input = ""\n  triggers_replace = ""\n}\n', ""),
]
FIXED = [(name, "scripts/terraform/suite.py (fixed case " + name + ")", a, b, [], "normal") for name, a, b in FIXED]
