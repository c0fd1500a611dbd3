#!/usr/bin/env python3
"""Helpers of scripts/coverage.sh (docs/COVERAGE.md).

  coverage_report.py split MERGED.dat OUTDIR
      Splits a merged Verilator coverage file by point type into OUTDIR/line.dat (line and
      branch points), OUTDIR/toggle.dat and OUTDIR/user.dat (cover property points).
  coverage_report.py summary OUTDIR UNIT...
      Prints one line per RTL unit (engines/<UNIT>/rtl/ or rtl/<UNIT>/): line coverage from OUTDIR/<UNIT>/line.info
      (the lines of its lcov report) and toggle coverage (toggle points hit of all) from
      OUTDIR/toggle.dat. Writes the same table to OUTDIR/summary.md.
  coverage_report.py uncovered OUTDIR UNIT
      Lists the unit's lines that no run reached (file:line) from OUTDIR/<UNIT>/line.info.
"""
import collections
import os
import re
import sys

# A point's key: fields "\x01<name>\x02<value>"; Verilator's short names: f file, l line,
# t type; "page" is kept long ("v_line/<module>", "v_branch/...", "v_toggle/...", "v_user/...").
_FIELD = re.compile("\x01([^\x02]*)\x02([^\x01]*)")


def points(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if not line.startswith("C '"):
                continue
            end = line.rfind("' ")
            key = line[3:end]
            yield key, dict(_FIELD.findall(key)), int(line[end + 2:])


def kind(fields):
    page = fields.get("page", "")
    for k in ("line", "branch", "toggle", "user"):
        if page.startswith("v_" + k):
            return k
    return "other"


def split(merged, outdir):
    outs = {name: open(os.path.join(outdir, name + ".dat"), "w", encoding="utf-8",
                       errors="surrogateescape") for name in ("line", "toggle", "user")}
    for o in outs.values():
        o.write("# SystemC::Coverage-3\n")
    n = collections.Counter()
    for key, fields, count in points(merged):
        k = kind(fields)
        dest = "line" if k in ("line", "branch") else k
        if dest in outs:
            outs[dest].write(f"C '{key}' {count}\n")
            n[dest] += 1
    for o in outs.values():
        o.close()
    print("coverage: points " + ", ".join(f"{k} {v}" for k, v in sorted(n.items())))


def unit_of(path):
    m = re.search(r"/engines/([^/]+)/rtl/", path) or re.search(r"/rtl/([^/]+)/", path)
    return m.group(1) if m else None


def info_lines(path):
    """(file, line) -> hit count of an lcov .info file."""
    lines = {}
    sf = None
    if not os.path.exists(path):
        return lines
    with open(path, encoding="utf-8") as f:
        for raw in f:
            raw = raw.strip()
            if raw.startswith("SF:"):
                sf = raw[3:]
            elif raw.startswith("DA:") and sf:
                ln, cnt = raw[3:].split(",")[:2]
                key = (sf, int(ln))
                lines[key] = max(lines.get(key, 0), int(cnt))
    return lines


def pct(hit, total):
    return f"{100.0 * hit / total:5.1f} %" if total else "    - "


def summary(outdir, units):
    tog = collections.defaultdict(lambda: [0, 0])
    user = collections.defaultdict(lambda: [0, 0])
    for src, acc in (("toggle.dat", tog), ("user.dat", user)):
        for _key, fields, count in points(os.path.join(outdir, src)):
            u = unit_of(fields.get("f", ""))
            if u:
                acc[u][0] += count > 0
                acc[u][1] += 1
    rows = ["| unit | line | lines hit / total | toggle | toggle points hit / total | cover points hit / total |",
            "|---|---|---|---|---|---|"]
    for u in units:
        lines = info_lines(os.path.join(outdir, u, "line.info"))
        lhit = sum(1 for c in lines.values() if c > 0)
        th, tt = tog[u]
        uh, ut = user[u]
        rows.append(f"| {u} | {pct(lhit, len(lines)).strip()} | {lhit} / {len(lines)} | "
                    f"{pct(th, tt).strip()} | {th} / {tt} | {uh} / {ut} |")
    text = "\n".join(rows) + "\n"
    with open(os.path.join(outdir, "summary.md"), "w", encoding="utf-8") as f:
        f.write(text)
    print(text, end="")


def uncovered(outdir, unit):
    lines = info_lines(os.path.join(outdir, unit, "line.info"))
    for (sf, ln), c in sorted(lines.items()):
        if c == 0:
            print(f"{os.path.relpath(sf)}:{ln}")


def main(argv):
    if len(argv) >= 3 and argv[0] == "split":
        split(argv[1], argv[2])
    elif len(argv) >= 2 and argv[0] == "summary":
        summary(argv[1], argv[2:])
    elif len(argv) == 3 and argv[0] == "uncovered":
        uncovered(argv[1], argv[2])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
