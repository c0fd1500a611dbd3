#!/usr/bin/env bash
# Every repository path README.md and docs/*.md name must exist, or a newcomer following the
# docs lands on nothing. A path is a token in `backticks` or a markdown link target that starts
# with a top-level folder of the repository (taken from the tree itself, so a new folder is
# covered without editing this script) or is README.md / docs/X.md. A `:line` or `#anchor`
# suffix is dropped; a glob (rtl/*/) passes if it matches something; build/ outputs are not
# in the source tree and are skipped.
# Usage: check_doc_paths.sh [SOURCE_DIR]   exit 1 listing FILE:LINE: path for each missing one.
set -euo pipefail
root=${1:-.}
cd "$root"
exec python3 - <<'EOF'
import glob, os, re, sys

# Top-level folders of the tree: git's list when this is a checkout, else the directories here.
tops = set()
try:
    import subprocess
    out = subprocess.run(["git", "ls-files"], capture_output=True, text=True, check=True).stdout
    tops = {p.split("/", 1)[0] for p in out.splitlines() if "/" in p}
except Exception:
    pass
if not tops:
    tops = {d for d in os.listdir(".") if os.path.isdir(d) and d not in (".git", "build")}
tops.discard("build")

docs = [d for d in ["README.md"] + sorted(glob.glob("docs/*.md")) if os.path.exists(d)]
tick = re.compile(r"`([^`\n]+)`")
link = re.compile(r"\]\(([^)\s]+)\)")
prefix = re.compile(r"^(?:\./)?(" + "|".join(re.escape(t) for t in sorted(tops)) + r")/")
bad = []
for doc in docs:
    base = os.path.dirname(doc)
    with open(doc, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            cands = [(m.group(1), False) for m in tick.finditer(line)]
            cands += [(m.group(1), True) for m in link.finditer(line)]
            for tok, is_link in cands:
                tok = tok.strip()
                if re.match(r"^[a-z]+://", tok) or tok.startswith("#"):
                    continue
                path = tok.split("#", 1)[0]
                path = re.sub(r":[0-9][0-9,-]*$", "", path)  # file:12 or file:12-30
                if not path:
                    continue
                # a link is relative to the document; a backticked path to the repository root
                if is_link and not prefix.match(path) and path != "README.md":
                    path = os.path.normpath(os.path.join(base, path))
                if not (prefix.match(path) or path == "README.md"
                        or re.fullmatch(r"docs/[A-Za-z0-9_]+\.md", path)):
                    continue
                if " " in path:  # `scripts/test.sh --sanitize`: the command's first word
                    path = path.split(" ", 1)[0]
                if any(c in path for c in "*?["):
                    ok = bool(glob.glob(path))
                else:
                    ok = os.path.exists(path)
                if not ok:
                    bad.append(f"{doc}:{n}: {tok}")
if bad:
    print("paths named in the docs that do not exist:")
    print("\n".join(bad))
    sys.exit(1)
print(f"doc paths ok ({len(docs)} files)")
EOF
