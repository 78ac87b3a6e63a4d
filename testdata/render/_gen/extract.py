"""Extracts (test, subtest) -> ExpectedOutput strings from OpenTofu's plan_test.go,
so expected.txt bodies are transcribed verbatim from the upstream test tables."""
import re, json, sys
src = open(sys.argv[1]).read()
out = {}
funcs = [(m.start(), m.group(1)) for m in re.finditer(r'^func (Test\w+)\(', src, re.M)]
funcs.append((len(src), None))
for (start, name), (end, _) in zip(funcs, funcs[1:]):
    body = src[start:end]
    for m in re.finditer(r'^\t\t"([^"\n]+)": \{\n(.*?)ExpectedOutput:\s*`(.*?)`', body, re.M | re.S):
        if '\n\t\t"' in m.group(2) and re.search(r'^\t\t"[^"\n]+": \{', m.group(2), re.M):
            continue
        out[f"{name}/{m.group(1)}"] = m.group(3)
json.dump(out, open(sys.argv[2], 'w'), indent=1)
print(len(out))
