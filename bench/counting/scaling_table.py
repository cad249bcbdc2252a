#!/usr/bin/env python3
"""The scaling table: every stage's time from 10^3 to 10^9 items, against the article's Table 1.

    python3 scaling_table.py CSV_DIR > scaling.md

Reads the scaling_int8_1eN.csv and scaling_int64_1eN.csv reports that gpu_check.sh writes and
prints markdown tables: a measured median time, or the executable's estimate for a refused
O(N^2) stage, marked "est.", or "-" where the stage did not run.
"""
import csv
import glob
import os
import re
import sys

# The article's Table 1 (sequential dist_count, Intel Core i7-4790 at 4.0 GHz).
ARTICLE = {6: "12 min 38 s", 7: "2 h 11 min 12 s", 8: "22 h 05 min 12 s", 9: "232 h 34 min 23 s"}


def fmt_ms(ms):
    s = ms / 1e3
    if s < 1e-3:
        return f"{ms * 1e3:.1f} µs"
    if s < 1:
        return f"{ms:.3g} ms"
    if s < 120:
        return f"{s:.3g} s"
    if s < 7200:
        return f"{s / 60:.3g} min"
    return f"{s / 3600:.3g} h"


def table(csv_dir, kind):
    files = {}
    for path in glob.glob(os.path.join(csv_dir, f"scaling_{kind}_1e*.csv")):
        files[int(re.search(r"1e(\d+)", path).group(1))] = list(csv.DictReader(open(path, newline="")))
    if not files:
        return None
    sizes = sorted(files)
    stages = []
    for e in sizes:
        for r in files[e]:
            if r["stage"] not in stages:
                stages.append(r["stage"])
    head = "| stage | " + " | ".join(f"10^{e}" for e in sizes) + " |"
    lines = [head, "|" + " --- |" * (len(sizes) + 1)]
    for st in stages:
        cells = []
        for e in sizes:
            row = next((r for r in files[e] if r["stage"] == st), None)
            if row is None:
                cells.append("-")
            elif row["median_ms"]:
                mark = "" if row["verified"] == "yes" else " WRONG"
                cells.append(fmt_ms(float(row["median_ms"])) + mark)
            else:
                m = re.search(r"estimated ([^(]+?) \(", row["note"])
                cells.append(f"est. {m.group(1)}" if m else (row["note"] or "-"))
        lines.append(f"| {st} | " + " | ".join(cells) + " |")
    lines.append("| the article's Table 1 (sequential) | " + " | ".join(ARTICLE.get(e, "") for e in sizes) + " |")
    return "\n".join(lines)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for kind, title in (("int8", "int8 items, uniform (256 values)"), ("int64", "int64 items, uniform (nearly all distinct, k ~ N)")):
        t = table(argv[1], kind)
        if t:
            print(f"### {title}\n\n{t}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
