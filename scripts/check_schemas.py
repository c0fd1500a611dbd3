"""testvectors/schema/ against `dlacosim validate`: see check_schemas.sh."""
import copy, glob, json, os, shutil, subprocess, sys

from jsonschema import Draft202012Validator

binary, src, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
sd = os.path.join(src, "testvectors", "schema")
schemas = {}
for name in ("layer", "network", "suite"):
    with open(os.path.join(sd, name + ".schema.json")) as f:
        schemas[name] = json.load(f)
    Draft202012Validator.check_schema(schemas[name])
validators = {k: Draft202012Validator(v) for k, v in schemas.items()}
fail = []

# The network schema is self-contained: every $defs entry but the network's own (net_*) is a copy
# of the layer schema's entry of the same name, kept equal.
L, N = schemas["layer"]["$defs"], schemas["network"]["$defs"]
for k, v in N.items():
    if not k.startswith("net_") and L.get(k) != v:
        fail.append(f"network.schema.json $defs/{k} differs from layer.schema.json's")


def kind(doc):
    if isinstance(doc, dict) and "layers" in doc and "unit" not in doc:
        return "suite"
    if isinstance(doc, dict) and doc.get("unit") == "network":
        return "network"
    if isinstance(doc, dict) and "unit" in doc:
        return "layer"
    return None


def schema_errors(k, doc):
    return [e.message for e in validators[k].iter_errors(doc)]


def absolute_files(node, base):
    """Data files named relative to the layer, made absolute so a copy elsewhere still finds them."""
    if isinstance(node, dict):
        for key, v in node.items():
            if key == "file" and isinstance(v, str) and not os.path.isabs(v):
                node[key] = os.path.normpath(os.path.join(base, v))
            else:
                absolute_files(v, base)
    elif isinstance(node, list):
        for v in node:
            absolute_files(v, base)


def objects(node, path=""):
    """JSON pointers of every object nested in `node` (not the root)."""
    if isinstance(node, dict):
        for key, v in node.items():
            p = f"{path}/{key}"
            if isinstance(v, dict):
                yield p
            yield from objects(v, p)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            p = f"{path}/{i}"
            if isinstance(v, dict):
                yield p
            yield from objects(v, p)


def at(doc, pointer):
    for part in pointer.split("/")[1:]:
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


files, mutants = [], []
for f in sorted(glob.glob(os.path.join(src, "testvectors", "**", "*.json"), recursive=True)):
    if os.sep + "schema" + os.sep in f:
        continue
    with open(f) as fh:
        doc = json.load(fh)
    k = kind(doc)
    if k is None:
        continue
    files.append(f)
    errs = schema_errors(k, doc)
    if errs:
        fail.append(f"{f}: the {k} schema rejects a bundled file: {errs[0]}")
    if k == "suite":
        continue
    absolute_files(doc, os.path.dirname(f))
    # An unknown field at the top and in (up to 6 of) the nested objects of every layer.
    pointers = [""] + list(objects(doc))[:6]
    for p in pointers:
        m = copy.deepcopy(doc)
        (m if p == "" else at(m, p))["bogus_field"] = 1
        out = os.path.join(work, f"m{len(mutants)}.json")
        with open(out, "w") as fh:
            json.dump(m, fh)
        mutants.append((out, f, p or "/", k))
        if not schema_errors(k, m):
            fail.append(f"{f}: the {k} schema accepts an unknown field at {p or '/'}")

# dlacosim validate: every bundled file ok, every mutant refused.
def validate(paths):
    r = subprocess.run([binary, "validate", *paths], capture_output=True, text=True)
    return r.stdout.splitlines()

for i in range(0, len(files), 200):
    for line in validate(files[i:i + 200]):
        if line.startswith("FAIL"):
            fail.append("dlacosim validate refuses a bundled file: " + line)
ok = 0
for i in range(0, len(mutants), 200):
    chunk = mutants[i:i + 200]
    lines = validate([m[0] for m in chunk])
    for (out, f, p, k), line in zip(chunk, [l for l in lines if l.startswith(("ok", "FAIL"))]):
        if line.startswith("ok"):
            # Both accept it: the schema must not be stricter than validate (it is not: it refused).
            fail.append(f"{f}: dlacosim validate accepts an unknown field at {p} (the schema refuses it)")
        else:
            ok += 1
print(f"{len(files)} bundled files, {len(mutants)} files with an unknown field: "
      f"{ok} refused by both validate and the schemas")
for x in fail:
    print("FAIL", x)
sys.exit(1 if fail else 0)
