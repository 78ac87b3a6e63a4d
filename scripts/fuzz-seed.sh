#!/bin/sh
# Seeds the cargo-fuzz corpora (fuzz/corpus/, git-ignored) from the repository's fixtures:
#   plan_render  <- testdata/render/*/plan.json, testdata/carbon/*.json, testdata/demo/plan.json
#   change_render <- the change values of those plans' resource changes, as
#                   [before, after, after_unknown, before_sensitive, after_sensitive, replace_paths]
#   mapping_load <- mappings/**/*.yaml, testdata/mapping/**/*.yaml (one flag byte in front:
#                   the fuzz target reads byte 0 as provider folder + "layer over the builtins")
set -eu
cd "$(dirname "$0")/.."
plan=fuzz/corpus/plan_render
maps=fuzz/corpus/mapping_load
mkdir -p "$plan" "$maps"
for f in testdata/render/*/plan.json; do
    cp "$f" "$plan/render-$(basename "$(dirname "$f")").json"
done
for f in testdata/carbon/*.json testdata/demo/plan.json; do
    cp "$f" "$plan/$(echo "$f" | tr / _)"
done
find mappings testdata/mapping -name '*.yaml' -o -name '*.yml' | sort | while read -r f; do
    name=$(echo "$f" | tr / _)
    case "$f" in
        */aws/*) flag='\000' ;; */gcp/*) flag='\001' ;; */azure/*) flag='\002' ;; *) flag='\003' ;;
    esac
    { printf "$flag"; cat "$f"; } > "$maps/$name"
done
change=fuzz/corpus/change_render
mkdir -p "$change"
python3 - "$change" testdata/render/*/plan.json testdata/carbon/*.json testdata/demo/plan.json <<'PY'
import json, os, sys
dst, files = sys.argv[1], sys.argv[2:]
keys = ["before", "after", "after_unknown", "before_sensitive", "after_sensitive", "replace_paths"]
n = 0
for path in files:
    doc = json.load(open(path))
    name = path.replace("/", "_")
    for i, rc in enumerate(doc.get("resource_changes") or []):
        c = rc.get("change") or {}
        with open(os.path.join(dst, f"{name}-{i}.json"), "w") as f:
            json.dump([c.get(k) for k in keys], f)
        n += 1
PY
echo "plan_render: $(ls "$plan" | wc -l) seeds, change_render: $(ls "$change" | wc -l) seeds, mapping_load: $(ls "$maps" | wc -l) seeds"
