#!/bin/sh
# Seeds the cargo-fuzz corpora (fuzz/corpus/, git-ignored) from the repository's fixtures:
#   plan_render  <- testdata/render/*/plan.json, testdata/carbon/*.json, testdata/demo/plan.json
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
echo "plan_render: $(ls "$plan" | wc -l) seeds, mapping_load: $(ls "$maps" | wc -l) seeds"
