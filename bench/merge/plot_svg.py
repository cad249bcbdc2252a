#!/usr/bin/env python3
"""SVG plots of the merge chapter's GPU measurements, from the CSVs of benchmarks.sh.

    python3 bench/merge/plot_svg.py RESULTS_DIR OUTPUT_DIR

Reads RESULTS_DIR/{default,int64,key-value}.csv (wb::report rows) and
RESULTS_DIR/sweep/sweep.csv, writes OUTPUT_DIR/merge_gbs.svg (GB/s per stage against the copy
ceiling and CUB) and OUTPUT_DIR/merge_sweep.svg (the coarsening sweep). Only the standard
library: the SVG is written by hand.
"""
import csv
import html
import os
import sys

COLORS = ["#4C72B0", "#DD8452", "#55A467", "#C44E52", "#8172B3", "#937860", "#DA8BC3"]


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def svg_text(x, y, text, size=12, anchor="start", weight="normal", color="#222", rotate=None):
    transform = f' transform="rotate({rotate} {x:.1f} {y:.1f})"' if rotate is not None else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="sans-serif" font-size="{size}" '
            f'text-anchor="{anchor}" font-weight="{weight}" fill="{color}"{transform}>{html.escape(text)}</text>')


def bars_svg(runs, title):
    """runs: list of (label, rows); one group of bars per stage, one bar per run."""
    stages = []
    for _, rows in runs:
        for row in rows:
            host = row["stage"].startswith("0 ")  # stage 0 runs on the host CPU
            if row["stage"] not in stages and num(row["gb_per_s"]) is not None and row["is_baseline"] != "yes" and not host:
                stages.append(row["stage"])
    copy = max((num(r["copy_gb_per_s"]) or 0) for _, rows in runs for r in rows)
    cub = {label: next((num(r["gb_per_s"]) for r in rows if r["is_baseline"] == "yes"), None) for label, rows in runs}
    top = max([copy] + [num(r["gb_per_s"]) or 0 for _, rows in runs for r in rows]) * 1.1
    width, height, left, right, bottom, head = 900, 460, 70, 170, 90, 50
    plot_w, plot_h = width - left - right, height - head - bottom
    y = lambda v: head + plot_h * (1 - v / top)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
           '<rect width="100%" height="100%" fill="white"/>', svg_text(width / 2, 24, title, 15, "middle", "bold")]
    step = 500 if top > 1500 else 100 if top > 300 else 20
    v = 0
    while v <= top:
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>')
        out.append(svg_text(left - 6, y(v) + 4, f"{v:g}", 11, "end"))
        v += step
    out.append(svg_text(18, head + plot_h / 2, "GB/s (read + write)", 12, "middle", rotate=-90))
    group = plot_w / max(len(stages), 1)
    bar = group * 0.8 / max(len(runs), 1)
    for s, stage in enumerate(stages):
        for r, (label, rows) in enumerate(runs):
            row = next((x for x in rows if x["stage"] == stage), None)
            value = num(row["gb_per_s"]) if row else None
            if value is None:
                continue
            x0 = left + s * group + group * 0.1 + r * bar
            out.append(f'<rect x="{x0:.1f}" y="{y(value):.1f}" width="{bar - 2:.1f}" height="{y(0) - y(value):.1f}" '
                       f'fill="{COLORS[r % len(COLORS)]}"><title>{html.escape(label)} {html.escape(stage)}: '
                       f'{value:.0f} GB/s</title></rect>')
        out.append(svg_text(left + (s + 0.5) * group, head + plot_h + 16, stage, 11, "middle"))
    out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(copy):.1f}" y2="{y(copy):.1f}" stroke="#000" '
               f'stroke-dasharray="6 3"/>')
    out.append(svg_text(left + plot_w + 6, y(copy) + 4, f"copy {copy:.0f} GB/s", 11))
    for r, (label, _) in enumerate(runs):
        if cub[label] is not None:
            out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(cub[label]):.1f}" y2="{y(cub[label]):.1f}" '
                       f'stroke="{COLORS[r % len(COLORS)]}" stroke-dasharray="2 3"/>')
            out.append(svg_text(left + plot_w + 6, y(cub[label]) + 4 + 12 * (r - 1) * (abs(cub[label] - max(
                (c for c in cub.values() if c is not None), default=0)) < top * 0.03), f"CUB, {label}: {cub[label]:.0f}", 10,
                                color=COLORS[r % len(COLORS)]))
    for r, (label, _) in enumerate(runs):
        yy = height - 40 + (r // 3) * 16
        xx = left + (r % 3) * 220
        out.append(f'<rect x="{xx}" y="{yy - 10}" width="12" height="12" fill="{COLORS[r % len(COLORS)]}"/>')
        out.append(svg_text(xx + 18, yy, label, 11))
    out.append("</svg>")
    return "\n".join(out)


def sweep_svg(rows, title):
    """Stage 5: time against items per thread, one line per block size, with the time of its
    block-level searches alone (dashed); stage 6's best shape as a reference line."""
    s5 = [r for r in rows if r["stage"] == "5" and num(r["median_ms"]) is not None]
    s6 = [num(r["median_ms"]) for r in rows if r["stage"] == "6" and num(r["median_ms"]) is not None]
    blocks = sorted({int(r["block"]) for r in s5})
    items = sorted({int(r["items_per_thread"]) for r in s5})
    top = max(num(r["median_ms"]) for r in s5) * 1.1
    width, height, left, right, bottom, head = 900, 440, 70, 230, 70, 50
    plot_w, plot_h = width - left - right, height - head - bottom
    x = lambda i: left + plot_w * (items.index(i) + 0.5) / len(items)
    y = lambda v: head + plot_h * (1 - v / top)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
           '<rect width="100%" height="100%" fill="white"/>', svg_text(width / 2, 24, title, 15, "middle", "bold")]
    step = 5 if top > 20 else 2 if top > 8 else 1
    v = 0
    while v <= top:
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>')
        out.append(svg_text(left - 6, y(v) + 4, f"{v:g}", 11, "end"))
        v += step
    for i in items:
        out.append(svg_text(x(i), head + plot_h + 18, str(i), 11, "middle"))
    out.append(svg_text(left + plot_w / 2, head + plot_h + 40, "items per thread (tile = block x items per thread)", 12,
                        "middle"))
    out.append(svg_text(18, head + plot_h / 2, "median ms (lower is better)", 12, "middle", rotate=-90))
    for b_index, block in enumerate(blocks):
        color = COLORS[b_index % len(COLORS)]
        pts = sorted((int(r["items_per_thread"]), num(r["median_ms"]), num(r["search_ms"]), num(r["gb_per_s"]))
                     for r in s5 if int(r["block"]) == block)
        total = " ".join(f"{'M' if k == 0 else 'L'}{x(i):.1f},{y(ms):.1f}" for k, (i, ms, _, _) in enumerate(pts))
        out.append(f'<path d="{total}" fill="none" stroke="{color}" stroke-width="2"/>')
        searches = [(i, se) for i, _, se, _ in pts if se is not None]
        if searches:
            path = " ".join(f"{'M' if k == 0 else 'L'}{x(i):.1f},{y(se):.1f}" for k, (i, se) in enumerate(searches))
            out.append(f'<path d="{path}" fill="none" stroke="{color}" stroke-width="1.5" stroke-dasharray="5 3"/>')
        for i, ms, se, gbs in pts:
            share = f"; its searches alone {se:.2f} ms" if se is not None else ""
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(ms):.1f}" r="3.5" fill="{color}"><title>block {block}, {i} items: '
                       f'{ms:.2f} ms, {gbs:.0f} GB/s{share}</title></circle>')
        out.append(f'<line x1="{left + plot_w + 12}" x2="{left + plot_w + 34}" y1="{head + 16 + 18 * b_index}" '
                   f'y2="{head + 16 + 18 * b_index}" stroke="{color}" stroke-width="2"/>')
        out.append(svg_text(left + plot_w + 40, head + 20 + 18 * b_index, f"block {block}", 11, color=color))
    yy = head + 20 + 18 * len(blocks) + 10
    out.append(f'<line x1="{left + plot_w + 12}" x2="{left + plot_w + 34}" y1="{yy - 4}" y2="{yy - 4}" stroke="#555" '
               f'stroke-dasharray="5 3"/>')
    out.append(svg_text(left + plot_w + 40, yy, "its block-level searches,", 11))
    out.append(svg_text(left + plot_w + 40, yy + 14, "timed alone", 11))
    if s6:
        best = min(s6)
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{y(best):.1f}" y2="{y(best):.1f}" stroke="#000" '
                   f'stroke-dasharray="2 3"/>')
        out.append(svg_text(left + plot_w + 12, y(best) + 4, f"stage 6, best shape: {best:.2f} ms", 11))
    out.append("</svg>")
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    results, output = sys.argv[1], sys.argv[2]
    runs = []
    for name, label in [("default", "int32"), ("int64", "int64"), ("key-value", "int32 + values")]:
        path = os.path.join(results, name + ".csv")
        if os.path.exists(path):
            runs.append((label, read_rows(path)))
    device = ""
    if os.path.exists(os.path.join(results, "device.txt")):
        lines = open(os.path.join(results, "device.txt")).read().splitlines()
        if len(lines) > 1:
            device = lines[1].split(",")[0].strip() + ": "
    if runs:
        with open(os.path.join(output, "merge_gbs.svg"), "w") as f:
            f.write(bars_svg(runs, device + "GB/s per stage, m = n = 2^27, uniform (dotted: CUB; dashed: copy)"))
    sweep = os.path.join(results, "sweep", "sweep.csv")
    if os.path.exists(sweep):
        rows = read_rows(sweep)
        with open(os.path.join(output, "merge_sweep.svg"), "w") as f:
            f.write(sweep_svg(rows, device + "thread coarsening (stage 5), m = n = 2^27 int32"))


if __name__ == "__main__":
    main()
