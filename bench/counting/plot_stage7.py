#!/usr/bin/env python3
"""Stage 7's time against the number of distinct keys, per path and CUB (an SVG, no matplotlib).

    python3 plot_stage7.py stage7_sweep.csv OUT.svg

stage7_sweep.csv is what stage7_sweep.sh writes. One panel per key distribution (few: uniform
over the distinct values; zipf), x: distinct keys (log2), y: milliseconds (log scale); a line
for CUB sort + run-length encode, for the automatic choice, and for every path forced.
"""
import csv
import math
import sys
from xml.sax.saxutils import escape

STYLE = {  # path: (label, colour, dash, width)
    "CUB sort + RLE": ("CUB sort + RLE", "#000000", "", 2.5),
    "auto": ("stage 7 (automatic)", "#d62728", "", 3.0),
    "shared-tables": ("shared tables", "#1f77b4", "6,3", 1.5),
    "two-level": ("two-level", "#2ca02c", "6,3", 1.5),
    "sort": ("sort + RLE (onesweep)", "#9467bd", "2,3", 1.5),
    "global-table": ("global table", "#ff7f0e", "6,3", 1.5),
}
# The rows' names in sweeps written before the paths were named by --path.
OLD_NAMES = {"v1 shared tables": "shared-tables", "v2 two-level": "two-level", "v3 sort + RLE": "sort",
             "v4 global table": "global-table"}


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rows = [r for r in csv.DictReader(open(argv[1], newline="")) if r["median_ms"]]
    for r in rows:
        r["path"] = OLD_NAMES.get(r["path"], r["path"])
    if not rows:
        print("no timed row in " + argv[1], file=sys.stderr)
        return 1
    dists = list(dict.fromkeys(r["dist"] for r in rows))
    xs = [math.log2(int(r["distinct"])) for r in rows]
    ys = [float(r["median_ms"]) for r in rows]
    x_lo, x_hi = math.floor(min(xs)), math.ceil(max(xs))
    y_lo = 10 ** math.floor(math.log10(min(ys)))
    y_hi = 10 ** math.ceil(math.log10(max(ys)))
    pw, ph, left, top, gap = 420, 300, 70, 50, 60
    width = left + len(dists) * (pw + gap) + 170
    height = top + ph + 70

    def px(panel, x):
        return left + panel * (pw + gap) + (x - x_lo) / max(x_hi - x_lo, 1) * pw

    def py(y):
        return top + ph - (math.log10(y) - math.log10(y_lo)) / (math.log10(y_hi) - math.log10(y_lo)) * ph

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="22" font-size="15">Stage 7 against CUB sort + RLE: 2^26 int64 keys, time against distinct keys</text>']
    for p, dist in enumerate(dists):
        x0 = left + p * (pw + gap)
        out.append(f'<text x="{x0 + pw / 2}" y="{top - 8}" text-anchor="middle" font-size="13">--dist {escape(dist)}</text>')
        out.append(f'<rect x="{x0}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>')
        decade = y_lo
        while decade <= y_hi * 1.0001:
            for m in (1, 2, 5):
                y = decade * m
                if y_lo <= y <= y_hi:
                    out.append(f'<line x1="{x0}" x2="{x0 + pw}" y1="{py(y):.1f}" y2="{py(y):.1f}" stroke="#eee"/>')
                    out.append(f'<text x="{x0 - 4}" y="{py(y) + 4:.1f}" text-anchor="end">{y:g}</text>')
            decade *= 10
        for x in range(x_lo, x_hi + 1, 2):
            out.append(f'<line x1="{px(p, x):.1f}" x2="{px(p, x):.1f}" y1="{top}" y2="{top + ph}" stroke="#eee"/>')
            out.append(f'<text x="{px(p, x):.1f}" y="{top + ph + 16}" text-anchor="middle">2^{x}</text>')
        out.append(f'<text x="{x0 + pw / 2}" y="{top + ph + 36}" text-anchor="middle">distinct keys</text>')
        if p == 0:
            out.append(f'<text x="18" y="{top + ph / 2}" transform="rotate(-90 18 {top + ph / 2})" text-anchor="middle">ms (log)</text>')
        for path, (label, colour, dash, w) in STYLE.items():
            pts = sorted((math.log2(int(r["distinct"])), float(r["median_ms"]))
                         for r in rows if r["dist"] == dist and r["path"] == path)
            if not pts:
                continue
            d = " ".join(f"{px(p, x):.1f},{py(y):.1f}" for x, y in pts)
            out.append(f'<polyline points="{d}" fill="none" stroke="{colour}" stroke-width="{w}"'
                       + (f' stroke-dasharray="{dash}"' if dash else "") + "/>")
            for x, y in pts:
                out.append(f'<circle cx="{px(p, x):.1f}" cy="{py(y):.1f}" r="2.5" fill="{colour}"/>')
    lx = left + len(dists) * (pw + gap) - gap + 20
    for i, (label, colour, dash, w) in enumerate(STYLE.values()):
        y = top + 10 + i * 20
        out.append(f'<line x1="{lx}" x2="{lx + 24}" y1="{y}" y2="{y}" stroke="{colour}" stroke-width="{w}"'
                   + (f' stroke-dasharray="{dash}"' if dash else "") + "/>")
        out.append(f'<text x="{lx + 30}" y="{y + 4}">{escape(label)}</text>')
    out.append("</svg>")
    open(argv[2], "w").write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
