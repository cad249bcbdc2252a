#!/usr/bin/env python3
"""The scan chapter's figure, from the benchmark CSVs (no plotting library needed).

    plot_svg.py TABLE.csv SIZE_SWEEP.csv -o scan.svg

Left: GB/s of every stage at one size, against the copy ceiling and CUB. Right: stage 6 and
CUB in GB/s against the number of items (log scale).
"""
import argparse
import csv
import math


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("sweep")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()

    rows = [r for r in csv.DictReader(open(args.table)) if num(r["gb_per_s"]) is not None]
    copy = next((num(r["copy_gb_per_s"]) for r in rows if num(r["copy_gb_per_s"])), None)
    sweep = [r for r in csv.DictReader(open(args.sweep)) if num(r["gb_per_s"]) is not None]

    W, H, pad = 980, 420, 60
    half = W // 2
    top = max([num(r["gb_per_s"]) for r in rows + sweep] + [copy or 0]) * 1.1 or 1
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
           f'<rect width="{W}" height="{H}" fill="white"/>']
    title = rows[0]["title"] if rows else ""
    svg.append(f'<text x="{pad}" y="20" font-size="13">{title}</text>')

    # Left: one bar per stage.
    plot_h = H - 2 * pad
    bw = (half - 2 * pad) / max(len(rows), 1)
    y = lambda v: H - pad - v / top * plot_h
    for i, r in enumerate(rows):
        v = num(r["gb_per_s"])
        x = pad + i * bw
        color = "#888" if r["is_baseline"] == "yes" else "#3a7"
        svg.append(f'<rect x="{x + 2:.1f}" y="{y(v):.1f}" width="{bw - 4:.1f}" height="{H - pad - y(v):.1f}" fill="{color}"/>')
        svg.append(f'<text x="{x + bw / 2:.1f}" y="{y(v) - 3:.1f}" text-anchor="middle">{v:.0f}</text>')
        label = r["stage"].replace("cub::DeviceScan::", "CUB ")
        svg.append(f'<text transform="translate({x + bw / 2:.1f},{H - pad + 12}) rotate(30)">{label}</text>')
    if copy:
        svg.append(f'<line x1="{pad}" x2="{half - pad}" y1="{y(copy):.1f}" y2="{y(copy):.1f}" stroke="red" stroke-dasharray="4"/>')
        svg.append(f'<text x="{pad + 4}" y="{y(copy) - 4:.1f}" fill="red">copy {copy:.0f} GB/s</text>')
    svg.append(f'<text x="12" y="{pad - 10}">GB/s (read n + write n)</text>')

    # Right: stage 6 and CUB against n.
    series = {}
    for r in sweep:
        if r["stage"].startswith("6") or r["stage"].startswith("cub"):
            series.setdefault(r["stage"], []).append((num(r["n"]), num(r["gb_per_s"])))
    ns = [n for pts in series.values() for n, _ in pts]
    if ns:
        lo, hi = math.log2(min(ns)), math.log2(max(ns))
        xs = lambda n: half + pad + (math.log2(n) - lo) / max(hi - lo, 1) * (half - 2 * pad)
        colors = ["#3a7", "#888", "#37a", "#a73"]
        for k, (name, pts) in enumerate(sorted(series.items())):
            pts.sort()
            path = " ".join(f"{xs(n):.1f},{y(v):.1f}" for n, v in pts)
            svg.append(f'<polyline points="{path}" fill="none" stroke="{colors[k % 4]}" stroke-width="2"/>')
            svg.append(f'<text x="{half + pad + 4}" y="{pad + 14 * k}" fill="{colors[k % 4]}">{name}</text>')
        for p in range(int(lo), int(hi) + 1, 2):
            svg.append(f'<text x="{xs(2 ** p):.1f}" y="{H - pad + 14}" text-anchor="middle">2^{p}</text>')
        if copy:
            svg.append(f'<line x1="{half + pad}" x2="{W - pad}" y1="{y(copy):.1f}" y2="{y(copy):.1f}" stroke="red" stroke-dasharray="4"/>')
        svg.append(f'<text x="{half + pad}" y="{H - 12}">items (int32)</text>')
    svg.append("</svg>")
    open(args.output, "w").write("\n".join(svg))


if __name__ == "__main__":
    main()
