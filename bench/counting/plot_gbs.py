#!/usr/bin/env python3
"""GB/s of input read per stage, against the copy ceiling and the library (an SVG, no matplotlib).

    python3 plot_gbs.py REPORT.csv OUT.svg

REPORT.csv is what `counting --csv` writes. Bars: the rows that ran (log scale); a dashed line
at the device-to-device copy rate (read + write, the ceiling a one-pass read reaches) and one
at the library baseline's rate.
"""
import csv
import math
import sys
from xml.sax.saxutils import escape


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rows = list(csv.DictReader(open(argv[1], newline="")))
    bars = [r for r in rows if r["gb_per_s"] not in ("", "nan")]
    if not bars:
        print("no row with a time in " + argv[1], file=sys.stderr)
        return 1
    copy = float(rows[0]["copy_gb_per_s"]) if rows[0]["copy_gb_per_s"] else None
    base = next((r for r in bars if r["is_baseline"] == "yes"), None)
    values = [float(r["gb_per_s"]) for r in bars]
    lo = 10 ** math.floor(math.log10(max(min(values), 1e-3)))
    hi = 10 ** math.ceil(math.log10(max(values + ([copy] if copy else []))))
    left, right, top, bar_h, gap = 180, 230, 60, 22, 8
    width = 1000
    plot_w = width - left - right
    height = top + len(bars) * (bar_h + gap) + 80

    def x(v):
        return left + plot_w * (math.log10(max(v, lo)) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="22" font-size="14" font-weight="bold">{escape(rows[0]["title"])}</text>',
           f'<text x="{left}" y="40" fill="#555">GB/s of input read (log scale); backend: {escape(rows[0]["backend"])}</text>']
    decade = lo
    while decade <= hi * 1.0001:
        xx = x(decade)
        out.append(f'<line x1="{xx:.1f}" y1="{top - 5}" x2="{xx:.1f}" y2="{height - 65}" stroke="#ddd"/>')
        out.append(f'<text x="{xx:.1f}" y="{height - 50}" text-anchor="middle" fill="#555">{decade:g}</text>')
        decade *= 10
    for i, r in enumerate(bars):
        y = top + i * (bar_h + gap)
        v = float(r["gb_per_s"])
        colour = "#888" if r["is_baseline"] == "yes" else ("#c33" if r["verified"] != "yes" else "#3a7")
        if r["stage"].startswith("H2D"):
            colour = "#88a"
        out.append(f'<text x="{left - 8}" y="{y + bar_h - 6}" text-anchor="end">{escape(r["stage"])}</text>')
        out.append(f'<rect x="{left}" y="{y}" width="{max(x(v) - left, 1):.1f}" height="{bar_h}" fill="{colour}"/>')
        out.append(f'<text x="{x(v) + 4:.1f}" y="{y + bar_h - 6}">{v:.3g} GB/s, {float(r["median_ms"]):.3g} ms</text>')
    # The two reference lines; their labels go above (copy) and below (library) the bars, so
    # they do not overlap when the rates are close.
    marks = [(copy, "copy ceiling", "#36c", top - 12)]
    if base:
        marks.append((float(base["gb_per_s"]), base["stage"], "#888", height - 30))
    for value, label, colour, label_y in marks:
        if value:
            xx = x(value)
            out.append(f'<line x1="{xx:.1f}" y1="{top - 8}" x2="{xx:.1f}" y2="{height - 62}" stroke="{colour}" stroke-dasharray="5,4" stroke-width="1.5"/>')
            out.append(f'<text x="{xx:.1f}" y="{label_y}" text-anchor="middle" fill="{colour}">{escape(label)} {value:.0f} GB/s</text>')
    out.append("</svg>")
    with open(argv[2], "w") as f:
        f.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
